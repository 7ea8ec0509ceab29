import { listQuerySchema, workspaceCreateSchema, workspacePageSchema, workspaceSchema } from '@baton/schemas';
import { Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import { type AppEnv, requireSession } from '../http/access';
import { errorResponses, jsonBody, jsonResponse, queryParams } from '../http/validation';
import { createWorkspace, listWorkspaces } from '../services/workspaces';
import type { AppDeps } from './deps';

export function workspaceRoutes({ db }: AppDeps) {
  return new Hono<AppEnv>()
    .get(
      '/',
      describeRoute({
        tags: ['Workspaces'],
        summary: 'The workspaces you belong to, with your role (an API key: its one workspace)',
        responses: { 200: jsonResponse('A page of workspaces', workspacePageSchema), 400: errorResponses[400], 401: errorResponses[401] },
      }),
      queryParams(listQuerySchema),
      async (c) => {
        const principal = c.get('principal');
        return c.json(await listWorkspaces(db, principal.userId, c.req.valid('query'), principal.apiKey?.workspaceId));
      },
    )
    .post(
      '/',
      describeRoute({
        tags: ['Workspaces'],
        summary: 'Create a workspace (signed in): you are its owner; it starts with the starter agents',
        responses: { 201: jsonResponse('The new workspace', workspaceSchema), ...errorResponses },
      }),
      requireSession,
      ...jsonBody(workspaceCreateSchema),
      async (c) => c.json(await createWorkspace(db, c.req.valid('json'), c.get('principal').userId), 201),
    );
}
