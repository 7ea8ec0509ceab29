import { z } from 'zod';
import { messageRoleSchema, traceNodeSchema } from './chats';
import { storableString, timestampSchema } from './common';
import { contextModeSchema, delegationOutcomeSchema, subChatNoteSchema } from './delegation';
import type { BatonUIPart } from './ui-message';

/**
 * A chat exported as JSON (`GET …/chats/:id/export?format=json`) and imported again
 * (`POST …/chats/import`). `version` says which shape this is; an import takes the versions
 * it knows (1 so far) and refuses the others with 400.
 */
export const CHAT_EXPORT_VERSION = 1;

/** An import's body may be at most this large (the rest of the API takes 1 MiB). */
export const MAX_IMPORT_BYTES = 8 * 1024 * 1024;
/** An imported tree may hold at most so many chats (the chat and its sub-chats, any depth) and messages in all. */
export const MAX_IMPORT_CHATS = 1_000;
export const MAX_IMPORT_MESSAGES = 20_000;
/** How deep sub-chats of an import may nest (delegation itself goes at most 3 deep). */
export const MAX_IMPORT_DEPTH = 10;

export const chatExportFormatSchema = z.enum(['json', 'markdown']);
export type ChatExportFormat = z.infer<typeof chatExportFormatSchema>;
export const chatExportQuerySchema = z.object({ format: chatExportFormatSchema.default('json') });

/** A part as exported: the AI SDK's UI message part as stored (any object with a `type`). */
const exportedPartSchema = z.looseObject({ type: storableString.min(1).max(200) }) as unknown as z.ZodType<BatonUIPart>;

export const exportedMessageSchema = z
  .object({
    id: storableString.min(1).max(200),
    role: messageRoleSchema,
    parts: z.array(exportedPartSchema).max(2_000),
    metadata: z.record(z.string(), z.unknown()).nullable().optional(),
    createdAt: z.iso.datetime({ offset: true }).optional(),
  })
  .meta({ id: 'ExportedMessage' });
export type ExportedMessage = z.infer<typeof exportedMessageSchema>;

/**
 * The bytes of the files an export's messages name, so that an import has them too (raw
 * bytes, before base64): at most this much in all, leaving the rest of an import's 8 MiB
 * for the conversation. Files past it keep their old URL and are listed in `filesLeftOut`.
 */
export const MAX_EXPORT_FILE_BYTES = 4 * 1024 * 1024;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** A file of an export: the URL its parts name it by, and its bytes. Imported, it is stored again and the parts name its new URL. */
export const exportedFileSchema = z
  .object({
    url: storableString.min(1).max(1_000),
    name: storableString.min(1).max(255),
    mediaType: storableString.max(200),
    data: z
      .string()
      .max(Math.ceil(MAX_IMPORT_BYTES / 3) * 4)
      .regex(BASE64, { error: 'must be base64' }),
  })
  .meta({ id: 'ExportedFile' });
export type ExportedFile = z.infer<typeof exportedFileSchema>;

/** How a sub-chat came to be: the parent's `newTask` call, its task and how it ended. Null for the exported chat itself. */
export const exportedDelegationSchema = z.object({
  parentToolCallId: storableString.max(200).nullable(),
  attempt: z.number().int().min(1).max(1_000).default(1),
  task: storableString.max(200_000).nullable(),
  result: storableString.max(1_000_000).nullable(),
  outcome: delegationOutcomeSchema.nullable(),
  contextMode: contextModeSchema.nullable().optional(),
  context: storableString.max(1_000_000).nullable().optional(),
  notes: z.array(subChatNoteSchema).max(1_000).optional(),
});
export type ExportedDelegation = z.infer<typeof exportedDelegationSchema>;

export interface ExportedChat {
  id: string;
  title: string;
  agentId: string | null;
  agentName: string | null;
  createdAt?: string;
  updatedAt?: string;
  usage?: { inputTokens: number; outputTokens: number };
  delegation: ExportedDelegation | null;
  messages: ExportedMessage[];
  subChats: ExportedChat[];
}

export const exportedChatSchema: z.ZodType<ExportedChat> = z
  .object({
    id: storableString.min(1).max(200),
    title: storableString.max(200),
    agentId: storableString.max(200).nullable(),
    agentName: storableString.max(200).nullable(),
    createdAt: z.iso.datetime({ offset: true }).optional(),
    updatedAt: z.iso.datetime({ offset: true }).optional(),
    usage: z.object({ inputTokens: z.number().int().min(0), outputTokens: z.number().int().min(0) }).optional(),
    delegation: exportedDelegationSchema.nullable(),
    messages: z.array(exportedMessageSchema).max(10_000),
    get subChats() {
      return z.array(exportedChatSchema).max(MAX_IMPORT_CHATS);
    },
  })
  .meta({ id: 'ExportedChat' });

/** `GET …/chats/:id/export?format=json`: the chat, every sub-chat below it, and its delegation trace. */
export const chatExportSchema = z
  .object({
    version: z.literal(CHAT_EXPORT_VERSION),
    exportedAt: timestampSchema,
    chat: exportedChatSchema,
    trace: traceNodeSchema,
    /** The files the messages name, with their bytes (up to `MAX_EXPORT_FILE_BYTES` in all). */
    files: z.array(exportedFileSchema),
    /** URLs of files not in `files`: past the limit, or no longer there. Their parts keep the URL. */
    filesLeftOut: z.array(z.string()),
  })
  .meta({ id: 'ChatExport' });
export type ChatExport = z.infer<typeof chatExportSchema>;

/** `POST …/chats/import`: an export (the trace is read again from what is imported, so it is not required). */
export const chatImportSchema = z
  .object({
    version: z.literal(CHAT_EXPORT_VERSION, { error: `version must be ${CHAT_EXPORT_VERSION} (a Baton chat export)` }),
    exportedAt: z.string().optional(),
    chat: exportedChatSchema,
    trace: z.unknown().optional(),
    files: z.array(exportedFileSchema).max(MAX_IMPORT_CHATS).optional(),
    filesLeftOut: z.unknown().optional(),
  })
  .meta({ id: 'ChatImport' });
export type ChatImport = z.infer<typeof chatImportSchema>;

export const chatImportedSchema = z.object({ id: z.string() }).meta({ id: 'ChatImported' });
