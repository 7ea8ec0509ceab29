import { and, asc, eq } from 'drizzle-orm';
import { errorCodes, type Member, type Membership, type WorkspaceRole } from '@baton/schemas';
import type { Database } from '../db/client';
import { apiKey, user, workspace, workspaceMember } from '../db/schema';
import { AppError, notFound } from '../errors';

/** The caller's place in a workspace, as every workspace route sees it. */
export interface WorkspaceAccess {
  workspaceId: string;
  userId: string;
  role: WorkspaceRole;
}

export async function findMembership(db: Database, workspaceId: string, userId: string): Promise<WorkspaceAccess | undefined> {
  const [row] = await db
    .select({ workspaceId: workspaceMember.workspaceId, userId: workspaceMember.userId, role: workspaceMember.role })
    .from(workspaceMember)
    .where(and(eq(workspaceMember.workspaceId, workspaceId), eq(workspaceMember.userId, userId)))
    .limit(1);
  return row;
}

export async function listMemberships(db: Database, userId: string): Promise<Membership[]> {
  return db
    .select({ workspaceId: workspace.id, workspaceName: workspace.name, role: workspaceMember.role })
    .from(workspaceMember)
    .innerJoin(workspace, eq(workspace.id, workspaceMember.workspaceId))
    .where(eq(workspaceMember.userId, userId))
    .orderBy(asc(workspaceMember.createdAt), asc(workspace.id));
}

export async function addMember(db: Database, workspaceId: string, userId: string, role: WorkspaceRole): Promise<void> {
  await db.insert(workspaceMember).values({ workspaceId, userId, role });
}

export async function listMembers(db: Database, workspaceId: string): Promise<Member[]> {
  const rows = await db
    .select({ userId: user.id, name: user.name, email: user.email, role: workspaceMember.role, joinedAt: workspaceMember.createdAt })
    .from(workspaceMember)
    .innerJoin(user, eq(user.id, workspaceMember.userId))
    .where(eq(workspaceMember.workspaceId, workspaceId))
    .orderBy(asc(workspaceMember.createdAt), asc(user.id));
  return rows.map((r) => ({ ...r, joinedAt: r.joinedAt.toISOString() }));
}

const forbidden = (message: string) => new AppError(403, errorCodes.forbidden, message);
const handedOverMeanwhile = () =>
  new AppError(409, errorCodes.conflict, 'you are no longer the owner of this workspace: it was handed over meanwhile (reload the members)');

async function lockedMember(tx: Database, workspaceId: string, userId: string) {
  const [row] = await tx
    .select()
    .from(workspaceMember)
    .where(and(eq(workspaceMember.workspaceId, workspaceId), eq(workspaceMember.userId, userId)))
    .for('update');
  if (!row) throw notFound('Member', userId);
  return row;
}

/**
 * Role changes by an admin. The owner is changed by nobody but themselves, and only by
 * handing the workspace to someone else (`role: "owner"`), after which they are an admin.
 */
export async function changeRole(db: Database, actor: WorkspaceAccess, targetUserId: string, role: WorkspaceRole): Promise<Member> {
  await db.transaction(async (tx) => {
    if (role === 'owner') {
      if (actor.role !== 'owner') throw forbidden('only the owner can hand the workspace over');
      // The owner's own row first, under lock: of two hand-overs at once the second waits here
      // and then finds its caller no longer the owner (the role the request was let in with
      // is already stale), instead of running into the one-owner index.
      const self = await lockedMember(tx, actor.workspaceId, actor.userId);
      if (self.role !== 'owner') throw handedOverMeanwhile();
    }
    const target = await lockedMember(tx, actor.workspaceId, targetUserId);
    if (role === 'owner') {
      if (target.userId === actor.userId) return;
      // Demote first: the partial unique index allows one owner at a time.
      await tx
        .update(workspaceMember)
        .set({ role: 'admin', updatedAt: new Date() })
        .where(and(eq(workspaceMember.workspaceId, actor.workspaceId), eq(workspaceMember.userId, actor.userId)));
    } else if (target.role === 'owner') {
      throw forbidden(
        target.userId === actor.userId ? 'the owner stays owner until they hand the workspace to another member' : "the owner's role cannot be changed",
      );
    }
    await tx
      .update(workspaceMember)
      .set({ role, updatedAt: new Date() })
      .where(and(eq(workspaceMember.workspaceId, actor.workspaceId), eq(workspaceMember.userId, targetUserId)));
  });
  const member = (await listMembers(db, actor.workspaceId)).find((m) => m.userId === targetUserId);
  if (!member) throw notFound('Member', targetUserId);
  return member;
}

/**
 * Removes a member (an admin removing someone, or anyone leaving). The owner cannot be
 * removed. Their API keys for the workspace go with the membership; their chats stay
 * stored but out of everyone's reach, as chats are private to their author.
 */
export async function removeMember(db: Database, actor: WorkspaceAccess, targetUserId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const target = await lockedMember(tx, actor.workspaceId, targetUserId);
    if (target.role === 'owner') throw forbidden('the owner cannot be removed; they can hand the workspace over first');
    const self = targetUserId === actor.userId;
    if (!self && actor.role === 'member') throw forbidden('only workspace admins can remove members');
    await tx.delete(apiKey).where(and(eq(apiKey.workspaceId, actor.workspaceId), eq(apiKey.userId, targetUserId)));
    await tx.delete(workspaceMember).where(and(eq(workspaceMember.workspaceId, actor.workspaceId), eq(workspaceMember.userId, targetUserId)));
  });
}
