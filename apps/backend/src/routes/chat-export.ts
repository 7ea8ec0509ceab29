import { apiErrorSchema, chatExportQuerySchema, chatExportSchema, chatImportedSchema, chatImportSchema, errorCodes, MAX_IMPORT_BYTES } from '@baton/schemas';
import { Hono } from 'hono';
import { describeRoute, resolver } from 'hono-openapi';
import type { AppEnv } from '../http/access';
import { limitBody } from '../http/body-limit';
import { errorBody } from '../http/errors';
import { contentDisposition } from '../http/files';
import { errorResponses, jsonBody, jsonResponse, queryParams } from '../http/validation';
import { chatMarkdown, exportChat, exportFileName } from '../services/chat-export';
import { importChat } from '../services/chat-import';
import type { AppDeps } from './deps';

const tags = ['Chats'];

/** The import's body has its own limit, in place of the API's 1 MiB (app.ts). */
export const isChatImport = (method: string, path: string) => method === 'POST' && /^\/api\/workspaces\/[^/]+\/chats\/import\/?$/.test(path);

/** Mounted at /api/workspaces/:workspaceId/chats: a chat as a file, and a file as a chat. */
export function chatExportRoutes({ db, files }: AppDeps) {
  return new Hono<AppEnv, {}, '/:workspaceId/chats'>()
    .post(
      '/import',
      describeRoute({
        tags,
        summary: `Import a chat exported as JSON (version 1) into this workspace, with its sub-chats (at most ${MAX_IMPORT_BYTES / 1024 / 1024} MiB)`,
        description:
          'Every chat and message gets a new id. Agents are matched in this workspace by id, then by name; a chat whose agent is not here has none (it stays readable). Calls and sub-chats the export left unfinished are imported as ended.',
        responses: {
          201: jsonResponse('The new chat', chatImportedSchema),
          ...errorResponses,
          413: jsonResponse(`Body over ${MAX_IMPORT_BYTES / 1024 / 1024} MiB`, apiErrorSchema),
        },
      }),
      limitBody(MAX_IMPORT_BYTES, (c) => c.json(errorBody(errorCodes.payloadTooLarge, `a chat import is at most ${MAX_IMPORT_BYTES / 1024 / 1024} MiB`), 413)),
      ...jsonBody(chatImportSchema),
      async (c) => c.json(await importChat(db, files, c.get('access'), c.req.valid('json')), 201),
    )
    .get(
      '/:id/export',
      describeRoute({
        tags,
        summary: 'Export a chat as a download: `format=json` (messages, sub-chats and the trace; `version` 1) or `format=markdown`',
        responses: {
          200: {
            description: 'The file (`Content-Disposition: attachment`)',
            content: { 'application/json': { schema: resolver(chatExportSchema) }, 'text/markdown': { schema: { type: 'string' as const } } },
          },
          400: errorResponses[400],
          404: errorResponses[404],
        },
      }),
      queryParams(chatExportQuerySchema),
      async (c) => {
        const now = new Date();
        const markdown = c.req.valid('query').format === 'markdown';
        const { tree, data } = await exportChat(db, c.get('access'), c.req.param('id'), { now, files: markdown ? undefined : files.store });
        const headers = {
          'content-type': markdown ? 'text/markdown; charset=utf-8' : 'application/json; charset=utf-8',
          'content-disposition': contentDisposition('attachment', exportFileName(tree.row.title, markdown ? 'md' : 'json')),
          'cache-control': 'private, no-store',
          'x-content-type-options': 'nosniff',
        };
        return c.body(markdown ? chatMarkdown(tree, now) : JSON.stringify(data, null, 2), 200, headers);
      },
    );
}
