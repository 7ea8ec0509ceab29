import {
  listQuerySchema,
  providerCreateSchema,
  providerPageSchema,
  providerSchema,
  providerTestRequestSchema,
  providerTestResultSchema,
  providerUpdateSchema,
} from '@baton/schemas';
import { Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import { type AppEnv, requireAdmin } from '../http/access';
import { errorResponses, jsonBody, jsonResponse, queryParams } from '../http/validation';
import { testProviderConnection } from '../agent/provider-connection-test';
import { createProvider, deleteProvider, getProvider, listProviders, updateProvider } from '../services/providers';
import type { AppDeps } from './deps';

const tags = ['Providers'];

/** Mounted at /api/workspaces/:workspaceId/providers. Every member reads them (agents use them); admins change them. The API key is write-only. */
export function providerRoutes({ db, secrets, outbound }: AppDeps) {
  return new Hono<AppEnv, {}, '/:workspaceId/providers'>()
    .get(
      '/',
      describeRoute({
        tags,
        summary: 'List providers',
        responses: { 200: jsonResponse('A page of providers', providerPageSchema), 400: errorResponses[400], 404: errorResponses[404] },
      }),
      queryParams(listQuerySchema),
      async (c) => c.json(await listProviders(db, c.req.param('workspaceId'), c.req.valid('query'))),
    )
    .post(
      '/',
      describeRoute({
        tags,
        summary: 'Add a provider (admins)',
        responses: { 201: jsonResponse('The new provider (hasApiKey, never the key)', providerSchema), ...errorResponses },
      }),
      requireAdmin,
      ...jsonBody(providerCreateSchema),
      async (c) => c.json(await createProvider(db, secrets, c.req.param('workspaceId'), c.req.valid('json')), 201),
    )
    .post(
      '/test',
      describeRoute({
        tags,
        summary: 'Test a connection (admins)',
        description:
          'Calls `GET {baseUrl}/models` with the key given, or the stored key of `providerId` — only on the origin (scheme, host, port) that key was stored for: another origin is `400 secret_required`. A provider that fails answers 200 with `ok: false` and why; the key is never returned.',
        responses: { 200: jsonResponse('The model ids the provider lists, or why it could not list them', providerTestResultSchema), ...errorResponses },
      }),
      requireAdmin,
      ...jsonBody(providerTestRequestSchema),
      async (c) =>
        c.json(await testProviderConnection({ db, secrets, providerFetch: outbound.providerFetch }, c.req.param('workspaceId'), c.req.valid('json'))),
    )
    .get(
      '/:id',
      describeRoute({ tags, summary: 'Get a provider', responses: { 200: jsonResponse('The provider', providerSchema), 404: errorResponses[404] } }),
      async (c) => c.json(await getProvider(db, c.req.param('workspaceId'), c.req.param('id'))),
    )
    .patch(
      '/:id',
      describeRoute({
        tags,
        summary: 'Update a provider (partial; admins)',
        description:
          'A `baseUrl` on another origin (scheme, host, port) than the stored key was entered for needs `apiKey` again (a new key, or `null` to remove it); without it the update is `400 secret_required` and changes nothing.',
        responses: { 200: jsonResponse('The updated provider', providerSchema), ...errorResponses },
      }),
      requireAdmin,
      ...jsonBody(providerUpdateSchema),
      async (c) => c.json(await updateProvider(db, secrets, c.req.param('workspaceId'), c.req.param('id'), c.req.valid('json'))),
    )
    .delete(
      '/:id',
      describeRoute({
        tags,
        summary: 'Remove a provider (admins)',
        description: 'Agents using it fall back to the default model.',
        responses: { 204: { description: 'Deleted' }, ...errorResponses },
      }),
      requireAdmin,
      async (c) => {
        await deleteProvider(db, c.req.param('workspaceId'), c.req.param('id'));
        return c.body(null, 204);
      },
    );
}
