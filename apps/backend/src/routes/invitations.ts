import { INVITATION_TTL_DAYS, invitationCreatedSchema, invitationCreateSchema, invitationListSchema } from '@baton/schemas';
import { Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import { type AppEnv, requireAdmin } from '../http/access';
import { errorResponses, jsonBody, jsonResponse } from '../http/validation';
import { DEFAULT_PUBLIC_URL } from '../auth/better-auth';
import { inviteByEmail } from '../services/invitation-mail';
import { createInvitation, listInvitations, revokeInvitation } from '../services/invitations';
import type { AppDeps } from './deps';

const tags = ['Members'];

/** Mounted at /api/workspaces/:workspaceId/invitations: invite links (admins). */
export function invitationRoutes({ db, auth }: AppDeps) {
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
        description: `The response's \`token\` is shown once: the link is \`/invite/<token>\` on Baton's web app. It works once, for ${INVITATION_TTL_DAYS} days. With \`email\`, the link is also mailed there (\`emailedTo\` in the answer): that needs \`BATON_SMTP_URL\` (else \`400 mail_not_configured\`), and a mail server that refuses it leaves no invitation behind (\`502 unavailable\`).`,
        responses: { 201: jsonResponse('The invitation with its token', invitationCreatedSchema), ...errorResponses },
      }),
      ...jsonBody(invitationCreateSchema),
      async (c) => {
        const { role, email } = c.req.valid('json');
        const created = email
          ? await inviteByEmail(db, auth.mailer, c.get('access'), role, email, auth.publicUrl ?? DEFAULT_PUBLIC_URL)
          : await createInvitation(db, c.get('access'), role);
        return c.json(created, 201);
      },
    )
    .delete('/:id', describeRoute({ tags, summary: 'Revoke an invite link', responses: { 204: { description: 'Revoked' }, ...errorResponses } }), async (c) => {
      await revokeInvitation(db, c.req.param('workspaceId'), c.req.param('id'));
      return c.body(null, 204);
    });
}
