import { errorCodes, type GrantableRole, INVITATION_TTL_DAYS, type InvitationCreated } from '@baton/schemas';
import { and, eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { invitation } from '../db/schema';
import { errorTextForLog } from '../error-text';
import { AppError } from '../errors';
import type { Mailer } from '../mail/mailer';
import { createInvitation } from './invitations';
import { listMemberships } from './members';
import type { WorkspaceAccess } from './members';
import { findUser } from './users';

/**
 * An invite link, mailed to `email`. The mail server must take it: if it refuses, the
 * invitation is removed again and the admin is told (502), so no link exists that nobody got.
 */
export async function inviteByEmail(
  db: Database,
  mailer: Mailer | undefined,
  access: WorkspaceAccess,
  role: GrantableRole,
  email: string,
  publicUrl: string,
): Promise<InvitationCreated> {
  if (!mailer)
    throw new AppError(400, errorCodes.mailNotConfigured, 'this server sends no mail (BATON_SMTP_URL is not set): create the link and send it yourself');
  const [inviter, memberships] = await Promise.all([findUser(db, access.userId), listMemberships(db, access.userId)]);
  const workspaceName = memberships.find((m) => m.workspaceId === access.workspaceId)?.workspaceName ?? 'a workspace';
  const created = await createInvitation(db, access, role);
  try {
    await mailer.send({
      to: email,
      subject: `${inviter.name} invited you to ${workspaceName} on Baton`,
      text: `${inviter.name} (${inviter.email}) invited you to join the workspace "${workspaceName}" on Baton as ${role === 'admin' ? 'an admin' : 'a member'}.\n\nOpen this link to join (it works once, for ${INVITATION_TTL_DAYS} days):\n${publicUrl}/invite/${created.token}\n\nIf you did not expect this, ignore the mail.\n`,
    });
  } catch (err) {
    await db.delete(invitation).where(and(eq(invitation.id, created.id), eq(invitation.workspaceId, access.workspaceId)));
    throw new AppError(
      502,
      errorCodes.unavailable,
      `the mail server did not take the invitation (${errorTextForLog(err).split('\n')[0]}): nothing was created, try again or send a link yourself`,
    );
  }
  return { ...created, emailedTo: email };
}
