import { memberListSchema, memberSchema, memberUpdateSchema, passwordResetLinkSchema } from '@baton/schemas';
import { DEFAULT_PUBLIC_URL } from '../auth/better-auth';
import { Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import { type AppEnv, requireAdmin, requireSession } from '../http/access';
import { errorResponses, jsonBody, jsonResponse } from '../http/validation';
import { changeRole, listMembers, removeMember } from '../services/members';
import { issuePasswordResetLink } from '../services/password-reset';
import type { AppDeps } from './deps';

const tags = ['Members'];

/** Mounted at /api/workspaces/:workspaceId/members. */
export function memberRoutes({ db, auth }: AppDeps) {
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
    .post(
      '/:userId/password-reset',
      describeRoute({
        tags,
        summary: 'Issue a one-time password reset link for a member (admins, signed in)',
        description:
          "For when a member forgot their password and the server sends no mail. The token is shown only in this answer; the member opens `/reset-password/<token>` and sets a new password (it works once, within an hour, and signs them out everywhere). Issuing a link revokes the member's earlier ones. Refused (`403`) for the owner, and for a member who is the owner or an admin of a workspace where the caller is not an admin (the link would hand that over too); your own password is changed from the account menu (`400`).",
        responses: { 201: jsonResponse('The link, shown once', passwordResetLinkSchema), ...errorResponses },
      }),
      requireSession,
      requireAdmin,
      async (c) => c.json(await issuePasswordResetLink(db, c.get('access'), c.req.param('userId'), auth.publicUrl ?? DEFAULT_PUBLIC_URL), 201),
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
