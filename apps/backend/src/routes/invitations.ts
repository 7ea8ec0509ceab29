import { INVITATION_TTL_DAYS, invitationCreatedSchema, invitationCreateSchema, invitationListSchema } from '@baton/schemas';
import { Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import { type AppEnv, requireAdmin } from '../http/access';
import { errorResponses, jsonBody, jsonResponse } from '../http/validation';
import { createInvitation, listInvitations, revokeInvitation } from '../services/invitations';
import type { AppDeps } from './deps';

const tags = ['Members'];

/** Mounted at /api/workspaces/:workspaceId/invitations: invite links (admins). */
export function invitationRoutes({ db }: AppDeps) {
  return new Hono<AppEnv, {}, '/:workspaceId/invitations'>()
    .use(requireAdmin)
    .get(
      '/',
      describeRoute({ tags, summary: 'Invitations not used yet', responses: { 200: jsonResponse('Invitations', invitationListSchema), ...errorResponses } }),
      async (c) => c.json({ data: await listInvitations(db, c.req.param('workspaceId')) }),
    )
    .post(
      '/',
      describeRoute({
        tags,
        summary: 'Create an invite link',
        description: `The response's \`token\` is shown once: the link is \`/invite/<token>\` on Baton's web app. It works once, for ${INVITATION_TTL_DAYS} days.`,
        responses: { 201: jsonResponse('The invitation with its token', invitationCreatedSchema), ...errorResponses },
      }),
      ...jsonBody(invitationCreateSchema),
      async (c) => c.json(await createInvitation(db, c.get('access'), c.req.valid('json').role), 201),
    )
    .delete('/:id', describeRoute({ tags, summary: 'Revoke an invite link', responses: { 204: { description: 'Revoked' }, ...errorResponses } }), async (c) => {
      await revokeInvitation(db, c.req.param('workspaceId'), c.req.param('id'));
      return c.body(null, 204);
    });
}
