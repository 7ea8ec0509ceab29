import { and, asc, eq, gt, isNull } from 'drizzle-orm';
import { INVITATION_TTL_DAYS, type GrantableRole, type Invitation, type InvitationCreated, type InvitationPreview } from '@baton/schemas';
import type { Database } from '../db/client';
import { invitation, workspace } from '../db/schema';
import { AppError, notFound } from '../errors';
import { newId } from '../ids';
import { addMember, findMembership, type WorkspaceAccess } from './members';
import { hashSecretToken, newSecretToken } from './secret-tokens';

type InvitationRow = typeof invitation.$inferSelect;

function toInvitation(row: InvitationRow): Invitation {
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    role: row.role,
    createdBy: row.createdBy,
    expiresAt: row.expiresAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
  };
}

const pending = () => and(isNull(invitation.acceptedAt), gt(invitation.expiresAt, new Date()));

export async function createInvitation(db: Database, access: WorkspaceAccess, role: GrantableRole): Promise<InvitationCreated> {
  const token = newSecretToken();
  const [row] = await db
    .insert(invitation)
    .values({
      id: newId('inv'),
      workspaceId: access.workspaceId,
      role,
      tokenHash: hashSecretToken(token),
      createdBy: access.userId,
      expiresAt: new Date(Date.now() + INVITATION_TTL_DAYS * 24 * 3600_000),
    })
    .returning();
  return { ...toInvitation(row!), token };
}

/** Invitations not yet used and not expired. */
export async function listInvitations(db: Database, workspaceId: string): Promise<Invitation[]> {
  const rows = await db
    .select()
    .from(invitation)
    .where(and(eq(invitation.workspaceId, workspaceId), pending()))
    .orderBy(asc(invitation.createdAt), asc(invitation.id));
  return rows.map(toInvitation);
}

export async function revokeInvitation(db: Database, workspaceId: string, id: string): Promise<void> {
  const deleted = await db
    .delete(invitation)
    .where(and(eq(invitation.workspaceId, workspaceId), eq(invitation.id, id)))
    .returning({ id: invitation.id });
  if (deleted.length === 0) throw notFound('Invitation', id);
}

const unknownLink = () => new AppError(404, 'not_found', 'this invitation link is not valid: it was used, revoked or has expired');

/** What an invitation link offers, for the page a person opens it on. */
export async function previewInvitation(db: Database, token: string): Promise<InvitationPreview> {
  const [row] = await db
    .select({ workspaceId: workspace.id, workspaceName: workspace.name, role: invitation.role, expiresAt: invitation.expiresAt })
    .from(invitation)
    .innerJoin(workspace, eq(workspace.id, invitation.workspaceId))
    .where(and(eq(invitation.tokenHash, hashSecretToken(token)), pending()))
    .limit(1);
  if (!row) throw unknownLink();
  return { ...row, expiresAt: row.expiresAt.toISOString() };
}

/**
 * Uses the invitation for `userId`, in the caller's transaction: the conditional update
 * hands a link to one person only, however many try at once.
 */
export async function consumeInvitation(tx: Database, token: string, userId: string): Promise<{ workspaceId: string; role: GrantableRole }> {
  const [row] = await tx
    .update(invitation)
    .set({ acceptedBy: userId, acceptedAt: new Date() })
    .where(and(eq(invitation.tokenHash, hashSecretToken(token)), pending()))
    .returning();
  if (!row) throw unknownLink();
  if (await findMembership(tx, row.workspaceId, userId)) {
    throw new AppError(409, 'conflict', 'you are already a member of this workspace');
  }
  return { workspaceId: row.workspaceId, role: row.role };
}

/** A signed-in person joins the invitation's workspace. */
export async function acceptInvitation(db: Database, token: string, userId: string): Promise<{ workspaceId: string; role: GrantableRole }> {
  return db.transaction(async (tx) => {
    const granted = await consumeInvitation(tx, token, userId);
    await addMember(tx, granted.workspaceId, userId, granted.role);
    return granted;
  });
}
