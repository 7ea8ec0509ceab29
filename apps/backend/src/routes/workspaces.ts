import { listQuerySchema, workspaceCreateSchema, workspacePageSchema, workspaceSchema } from '@baton/schemas';
import { Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import { errorResponses, jsonBody, jsonResponse, queryParams } from '../http/validation';
import { createWorkspace, listWorkspaces } from '../services/workspaces';
import type { AppDeps } from './deps';

export function workspaceRoutes({ db }: AppDeps) {
  return new Hono()
    .get(
      '/',
      describeRoute({ tags: ['Workspaces'], summary: 'List workspaces', responses: { 200: jsonResponse('A page of workspaces', workspacePageSchema), 400: errorResponses[400] } }),
      queryParams(listQuerySchema),
      async (c) => c.json(await listWorkspaces(db, c.req.valid('query'))),
    )
    .post(
      '/',
      describeRoute({ tags: ['Workspaces'], summary: 'Create a workspace', responses: { 201: jsonResponse('The new workspace', workspaceSchema), ...errorResponses } }),
      ...jsonBody(workspaceCreateSchema),
      async (c) => c.json(await createWorkspace(db, c.req.valid('json')), 201),
    );
}
