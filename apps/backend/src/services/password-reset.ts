import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { errorCodes, isAdminRole, PASSWORD_RESET_TTL_MINUTES, type PasswordResetLink } from '@baton/schemas';
import { eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { user, verification } from '../db/schema';
import { AppError, invalidRequest, notFound } from '../errors';
import { log } from '../ops/logger';
import { listMemberships, type WorkspaceAccess } from './members';

const forbidden = (message: string) => new AppError(403, errorCodes.forbidden, message);

/**
 * The row better-auth's `POST /reset-password` looks for: identifier `reset-password:<token>`,
 * stored hashed (SHA-256, base64url: `verification.storeIdentifier` in auth/better-auth.ts),
 * the account's id as value. better-auth consumes it atomically, so the link works once.
 */
const storedIdentifier = (token: string) => createHash('sha256').update(`reset-password:${token}`).digest('base64url');

/**
 * Whether `actor` may take over `targetUserId`'s password. A reset link gives its holder the
 * account, with every role it has: so an admin may issue one only for a member of their
 * workspace who is no owner anywhere and an admin only where the actor is one too.
 */
async function checkMayReset(db: Database, actor: WorkspaceAccess, targetUserId: string): Promise<void> {
  if (targetUserId === actor.userId) throw invalidRequest('this is your own account: change your password from your account menu');
  const [targetMemberships, actorMemberships] = await Promise.all([listMemberships(db, targetUserId), listMemberships(db, actor.userId)]);
  const here = targetMemberships.find((m) => m.workspaceId === actor.workspaceId);
  if (!here) throw notFound('Member', targetUserId);
  if (here.role === 'owner') throw forbidden("only the owner can change the owner's password, from their own account menu");
  for (const m of targetMemberships) {
    if (!isAdminRole(m.role)) continue;
    const mine = actorMemberships.find((a) => a.workspaceId === m.workspaceId)?.role;
    if (m.role === 'owner' || !mine || !isAdminRole(mine)) {
      throw forbidden(
        `this member is ${m.role === 'owner' ? 'the owner' : 'an admin'} of another workspace ("${m.workspaceName}"${mine ? '' : ', which you are not in'}): a reset link would hand you that too, so only they can change their password`,
      );
    }
  }
}

/**
 * A one-time password reset link for a member (workspace admins): shown once, valid for an
 * hour, and the only one: issuing it revokes the member's earlier links.
 */
export async function issuePasswordResetLink(db: Database, actor: WorkspaceAccess, targetUserId: string, publicUrl: string): Promise<PasswordResetLink> {
  await checkMayReset(db, actor, targetUserId);
  const token = randomBytes(24).toString('base64url');
  const expiresAt = new Date(Date.now() + PASSWORD_RESET_TTL_MINUTES * 60_000);
  await db.transaction(async (tx) => {
    // Issued one at a time per member, so two admins at once leave exactly one live link.
    const [locked] = await tx.select({ id: user.id }).from(user).where(eq(user.id, targetUserId)).for('update');
    if (!locked) throw notFound('Member', targetUserId);
    // Only reset links store a bare user id as their value (OAuth state stores JSON).
    await tx.delete(verification).where(eq(verification.value, targetUserId));
    await tx.insert(verification).values({ id: randomUUID(), identifier: storedIdentifier(token), value: targetUserId, expiresAt });
  });
  log.info({ workspaceId: actor.workspaceId, userId: actor.userId, memberId: targetUserId }, 'password reset link issued');
  return { token, url: `${publicUrl}/reset-password/${token}`, expiresAt: expiresAt.toISOString() };
}
