import { z } from 'zod';
import { messageRoleSchema, subChatStatusSchema } from './chats';
import { timestampSchema } from './common';
import { delegationOutcomeSchema, subChatNoteSchema, tokenUsageSchema } from './delegation';
import type { BatonUIPart } from './ui-message';

/** A share link may live at most this long (a link without `expiresAt` lives until revoked). */
export const MAX_SHARE_LIFETIME_DAYS = 366;

/**
 * `POST …/chats/:id/shares`: an optional expiry, in the future and within
 * MAX_SHARE_LIFETIME_DAYS (checked against the server's clock, not here).
 */
export const shareCreateSchema = z
  .strictObject({
    expiresAt: z.iso.datetime({ offset: true }).nullable().optional().describe('When the link stops working (ISO 8601); omitted or null: until revoked'),
  })
  .meta({ id: 'ShareCreate' });
export type ShareCreate = z.infer<typeof shareCreateSchema>;

/** A share link as its author's list shows it: never the token (only its hash is stored). */
export const shareSchema = z
  .object({
    id: z.string(),
    chatId: z.string(),
    chatTitle: z.string(),
    createdAt: timestampSchema,
    expiresAt: timestampSchema.nullable(),
    /** Past its expiry: the link answers 404 (it stays listed until revoked). */
    expired: z.boolean(),
  })
  .meta({ id: 'Share' });
export type Share = z.infer<typeof shareSchema>;

/** The only time a share link's token is shown: `url` is the page a visitor opens (`/shared/<token>`). */
export const shareCreatedSchema = z
  .object({ id: z.string(), token: z.string(), url: z.string(), createdAt: timestampSchema, expiresAt: timestampSchema.nullable() })
  .meta({ id: 'ShareCreated' });
export type ShareCreated = z.infer<typeof shareCreatedSchema>;

export const shareListSchema = z.object({ data: z.array(shareSchema) }).meta({ id: 'ShareList' });

/** The web app's page of a share link. */
export const sharedChatPath = (token: string) => `/shared/${encodeURIComponent(token)}`;

const partSchema = z.record(z.string(), z.unknown()) as unknown as z.ZodType<BatonUIPart>;

/**
 * A message of a shared chat. Ids are the share's own (`m1`, `m2`…), and the metadata keeps
 * only what the page shows (model, tokens, timing): no agent, chat, workspace or user id.
 */
export const sharedMessageSchema = z
  .object({
    id: z.string(),
    role: messageRoleSchema,
    parts: z.array(partSchema),
    metadata: z.record(z.string(), z.unknown()).nullable(),
    createdAt: timestampSchema,
  })
  .meta({ id: 'SharedMessage' });
export type SharedMessage = z.infer<typeof sharedMessageSchema>;

/** A sub-chat of a shared chat (any depth), under the share's own ids (`c1`, `c2`…). */
export interface SharedSubChat {
  id: string;
  /** The `newTask` call of the parent's answer that started it (the model's call id). */
  parentToolCallId: string | null;
  attempt: number;
  title: string;
  agentName: string | null;
  task: string | null;
  result: string | null;
  status: z.infer<typeof subChatStatusSchema> | null;
  outcome: z.infer<typeof delegationOutcomeSchema> | null;
  depth: number;
  notes: z.infer<typeof subChatNoteSchema>[];
  usage: z.infer<typeof tokenUsageSchema>;
  createdAt: string;
  updatedAt: string;
  messages: SharedMessage[];
  subChats: SharedSubChat[];
}

export const sharedSubChatSchema: z.ZodType<SharedSubChat> = z
  .object({
    id: z.string(),
    parentToolCallId: z.string().nullable(),
    attempt: z.number().int(),
    title: z.string(),
    agentName: z.string().nullable(),
    task: z.string().nullable(),
    result: z.string().nullable(),
    status: subChatStatusSchema.nullable(),
    outcome: delegationOutcomeSchema.nullable(),
    depth: z.number().int(),
    notes: z.array(subChatNoteSchema),
    usage: tokenUsageSchema,
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
    messages: z.array(sharedMessageSchema),
    get subChats() {
      return z.array(sharedSubChatSchema);
    },
  })
  .meta({ id: 'SharedSubChat' });

/**
 * `GET /api/shared/:token` (no credentials): the conversation with every sub-chat below it.
 * `agents` names the agents its delegations refer to, under the share's own ids (`a1`…),
 * which replace the real ones in the parts (`newTask`'s `subAgentId`).
 */
export const sharedChatSchema = z
  .object({
    chat: z.object({
      id: z.string(),
      title: z.string(),
      agentName: z.string().nullable(),
      createdAt: timestampSchema,
      updatedAt: timestampSchema,
      messages: z.array(sharedMessageSchema),
      subChats: z.array(sharedSubChatSchema),
      agents: z.array(z.object({ id: z.string(), name: z.string() })),
    }),
    expiresAt: timestampSchema.nullable(),
  })
  .meta({ id: 'SharedChat' });
export type SharedChat = z.infer<typeof sharedChatSchema>;

/** A file of a shared chat as the share serves it (`/api/shared/<token>/files/<id>`): this origin's, readable with the link alone. */
export const isSharedFileUrl = (url: string) => /^\/api\/shared\/[^/?#]+\/files\/[^/?#]+$/.test(url);
