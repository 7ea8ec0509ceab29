import { shareCreatedSchema, shareCreateSchema, sharedChatSchema, shareListSchema } from '@baton/schemas';
import { Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import { DEFAULT_PUBLIC_URL } from '../auth/better-auth';
import type { AppEnv } from '../http/access';
import { fileResponseHeaders } from '../http/files';
import { errorResponses, jsonBody, jsonResponse } from '../http/validation';
import { readSharedChat, readSharedFile } from '../services/shared-chat';
import { createShare, listShares, revokeShare } from '../services/shares';
import type { AppDeps } from './deps';

const tags = ['Share links'];

/** Mounted at /api/workspaces/:workspaceId/chats: making a share link of a chat. */
export function chatShareRoutes({ db, auth }: AppDeps) {
  return new Hono<AppEnv, {}, '/:workspaceId/chats'>().post(
    '/:id/shares',
    describeRoute({
      tags,
      summary: 'Share a chat read-only: a link anyone holding it may open without signing in, with every sub-chat below the chat',
      description:
        'Answers `{ id, token, url, createdAt, expiresAt }`: the only time `token` is shown (only its hash is stored). `url` is the web page of the link (`BATON_PUBLIC_URL` + `/shared/<token>`); `GET /api/shared/<token>` is its JSON. Revoke with `DELETE …/shares/:shareId`; an `expiresAt` ends it by itself.',
      responses: { 201: jsonResponse('The new link', shareCreatedSchema), ...errorResponses },
    }),
    ...jsonBody(shareCreateSchema),
    async (c) => c.json(await createShare(db, c.get('access'), c.req.param('id'), c.req.valid('json'), auth.publicUrl ?? DEFAULT_PUBLIC_URL), 201),
  );
}

/** Mounted at /api/workspaces/:workspaceId/shares: the caller's share links. */
export function shareRoutes({ db }: AppDeps) {
  return new Hono<AppEnv, {}, '/:workspaceId/shares'>()
    .get(
      '/',
      describeRoute({
        tags,
        summary: 'Your share links in this workspace, newest first (never the tokens)',
        responses: { 200: jsonResponse('Share links', shareListSchema), 404: errorResponses[404] },
      }),
      async (c) => c.json({ data: await listShares(db, c.get('access')) }),
    )
    .delete(
      '/:shareId',
      describeRoute({
        tags,
        summary: 'Revoke a share link of yours: it answers 404 from then on',
        responses: { 204: { description: 'Revoked' }, 404: errorResponses[404] },
      }),
      async (c) => {
        await revokeShare(db, c.get('access'), c.req.param('shareId'));
        return c.body(null, 204);
      },
    );
}

/** Privately, never kept by a shared cache, and never listed by search engines: a link is for whom it was given to. */
const PUBLIC_READ_HEADERS = { 'cache-control': 'private, no-store', 'x-robots-tag': 'noindex, nofollow', 'referrer-policy': 'no-referrer' };

/** Mounted at /api/shared, public: what a share link shows. */
export function sharedRoutes({ db, files }: AppDeps) {
  return new Hono()
    .get(
      '/:token',
      describeRoute({
        tags,
        summary: 'A shared chat (no credentials): its title, messages and sub-chats, under the share’s own ids',
        description:
          'No chat, message, agent, workspace or user id of the sharer is in the answer: they are replaced by the share’s own (`c0`, `m1`, `a1`…), in the parts too. 404 for an unknown, revoked or expired link, alike.',
        security: [],
        responses: { 200: jsonResponse('The shared chat', sharedChatSchema), 404: errorResponses[404] },
      }),
      async (c) => c.json(await readSharedChat(db, c.req.param('token')), 200, PUBLIC_READ_HEADERS),
    )
    .get(
      '/:token/files/:fileId',
      describeRoute({
        tags,
        summary: 'A file of a shared chat (no credentials), served as `GET …/files/:id` serves it',
        security: [],
        responses: {
          200: { description: 'The bytes, typed as stored', content: { '*/*': { schema: { type: 'string' as const, format: 'binary' } } } },
          404: errorResponses[404],
        },
      }),
      async (c) => {
        const { file, bytes } = await readSharedFile(db, files.store, c.req.param('token'), c.req.param('fileId'));
        return c.body(bytes as Uint8Array<ArrayBuffer>, 200, { ...fileResponseHeaders(file), ...PUBLIC_READ_HEADERS });
      },
    );
}
