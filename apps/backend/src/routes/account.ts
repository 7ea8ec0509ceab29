import { authStatusSchema, invitationPreviewSchema, meSchema, membershipSchema } from '@baton/schemas';
import { Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import { hasAnyAccount } from '../auth/sign-up';
import { SSO_PROVIDER_ID } from '../auth/sso';
import { type AppEnv, requireSession } from '../http/access';
import { errorResponses, jsonResponse } from '../http/validation';
import { acceptInvitation, previewInvitation } from '../services/invitations';
import { listMemberships } from '../services/members';
import { findUser } from '../services/users';
import type { AppDeps } from './deps';

const tags = ['Account'];

/** Mounted at /api, public: what a signed-out visitor may do, and what an invite link offers. */
export function publicAccountRoutes({ db, auth }: AppDeps) {
  return new Hono()
    .get(
      '/auth-status',
      describeRoute({
        tags,
        summary: 'Whether the instance still needs its owner account, whether anyone may sign up, and which ways in it offers (mail, single sign-on)',
        security: [],
        responses: { 200: jsonResponse('Sign-up status', authStatusSchema) },
      }),
      async (c) =>
        c.json({
          needsOwner: !(await hasAnyAccount(db)),
          openSignup: auth.openSignup,
          mail: Boolean(auth.mailer),
          sso: auth.sso ? { providerId: SSO_PROVIDER_ID, label: auth.sso.label } : null,
        }),
    )
    .get(
      '/invitations/:token',
      describeRoute({
        tags,
        summary: 'What an invitation link offers (workspace and role)',
        security: [],
        responses: { 200: jsonResponse('The invitation', invitationPreviewSchema), 404: errorResponses[404] },
      }),
      async (c) => c.json(await previewInvitation(db, c.req.param('token'))),
    );
}

/** Mounted at /api, signed in: who am I, and joining a workspace through an invite link. */
export function accountRoutes({ db }: AppDeps) {
  return new Hono<AppEnv>()
    .get(
      '/me',
      describeRoute({ tags, summary: 'The signed-in person and their workspaces', responses: { 200: jsonResponse('Me', meSchema), 401: errorResponses[401] } }),
      async (c) => {
        const principal = c.get('principal');
        const user = await findUser(db, principal.userId);
        const memberships = await listMemberships(db, principal.userId);
        const apiKeyWorkspaceId = principal.apiKey?.workspaceId ?? null;
        return c.json({
          user,
          memberships: apiKeyWorkspaceId ? memberships.filter((m) => m.workspaceId === apiKeyWorkspaceId) : memberships,
          apiKeyWorkspaceId,
        });
      },
    )
    .post(
      '/invitations/:token/accept',
      describeRoute({
        tags,
        summary: 'Join the workspace of an invitation link (signed in)',
        responses: { 200: jsonResponse('The new membership', membershipSchema), ...errorResponses, 409: errorResponses[400] },
      }),
      requireSession,
      async (c) => {
        const granted = await acceptInvitation(db, c.req.param('token'), c.get('principal').userId);
        const membership = (await listMemberships(db, c.get('principal').userId)).find((m) => m.workspaceId === granted.workspaceId);
        return c.json(membership);
      },
    );
}
