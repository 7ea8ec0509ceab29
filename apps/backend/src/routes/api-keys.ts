import { apiKeyCreatedSchema, apiKeyCreateSchema, apiKeyListSchema, isAdminRole } from '@baton/schemas';
import { Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import { type AppEnv, requireSession } from '../http/access';
import { errorResponses, jsonBody, jsonResponse } from '../http/validation';
import { createApiKey, listApiKeys, revokeApiKey } from '../services/api-keys';
import type { AppDeps } from './deps';

const tags = ['API keys'];

/** Mounted at /api/workspaces/:workspaceId/api-keys: a person's keys for REST clients. */
export function apiKeyRoutes({ db }: AppDeps) {
  return new Hono<AppEnv, {}, '/:workspaceId/api-keys'>()
    .get(
      '/',
      describeRoute({
        tags,
        summary: 'API keys (your own; admins see every key of the workspace)',
        responses: { 200: jsonResponse('Keys, never the secrets', apiKeyListSchema), ...errorResponses },
      }),
      async (c) => c.json({ data: await listApiKeys(db, c.get('access'), isAdminRole(c.get('access').role)) }),
    )
    .post(
      '/',
      describeRoute({
        tags,
        summary: 'Create an API key (signed in)',
        description:
          'Answers `{ id, name, key, createdAt }`: the only time `key` is shown; only its hash is stored. Send it as `Authorization: Bearer <key>`. It acts as you, in this workspace only.',
        responses: { 201: jsonResponse('The new key', apiKeyCreatedSchema), ...errorResponses },
      }),
      requireSession,
      ...jsonBody(apiKeyCreateSchema),
      async (c) => c.json(await createApiKey(db, c.get('access'), c.req.valid('json').name), 201),
    )
    .delete(
      '/:id',
      describeRoute({
        tags,
        summary: 'Revoke an API key (yours; admins: any of the workspace)',
        responses: { 204: { description: 'Revoked: the key stops working at once' }, ...errorResponses },
      }),
      async (c) => {
        await revokeApiKey(db, c.get('access'), c.req.param('id'), isAdminRole(c.get('access').role));
        return c.body(null, 204);
      },
    );
}
