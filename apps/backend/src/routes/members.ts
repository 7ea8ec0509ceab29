import { memberListSchema, memberSchema, memberUpdateSchema } from '@baton/schemas';
import { Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import { type AppEnv, requireAdmin } from '../http/access';
import { errorResponses, jsonBody, jsonResponse } from '../http/validation';
import { changeRole, listMembers, removeMember } from '../services/members';
import type { AppDeps } from './deps';

const tags = ['Members'];

/** Mounted at /api/workspaces/:workspaceId/members. */
export function memberRoutes({ db }: AppDeps) {
  return new Hono<AppEnv, {}, '/:workspaceId/members'>()
    .get(
      '/',
      describeRoute({
        tags,
        summary: 'Members of the workspace with their roles',
        responses: { 200: jsonResponse('Members', memberListSchema), 401: errorResponses[401], 404: errorResponses[404] },
      }),
      async (c) => c.json({ data: await listMembers(db, c.req.param('workspaceId')) }),
    )
    .patch(
      '/:userId',
      describeRoute({
        tags,
        summary: "Change a member's role (admins)",
        description: 'The owner\'s role cannot be changed by others; the owner hands the workspace over with `role: "owner"` and becomes an admin.',
        responses: { 200: jsonResponse('The member', memberSchema), ...errorResponses },
      }),
      requireAdmin,
      ...jsonBody(memberUpdateSchema),
      async (c) => c.json(await changeRole(db, c.get('access'), c.req.param('userId'), c.req.valid('json').role)),
    )
    .delete(
      '/:userId',
      describeRoute({
        tags,
        summary: 'Remove a member (admins), or leave the workspace (yourself)',
        description: 'Their API keys for this workspace are revoked; their chats stay stored but nobody can open them. The owner cannot be removed.',
        responses: { 204: { description: 'Removed' }, ...errorResponses },
      }),
      async (c) => {
        await removeMember(db, c.get('access'), c.req.param('userId'));
        return c.body(null, 204);
      },
    );
}
