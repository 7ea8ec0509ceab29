import { and, desc, eq, gt, isNull, or } from 'drizzle-orm';
import { errorCodes, MAX_SHARE_LIFETIME_DAYS, type Share, type ShareCreate, type ShareCreated, sharedChatPath } from '@baton/schemas';
import type { Database } from '../db/client';
import { chat, chatShare, workspaceMember } from '../db/schema';
import { AppError, invalidRequest, notFound } from '../errors';
import { newId } from '../ids';
import type { ChatOwner } from './chat-rows';
import { hashSecretToken, newSecretToken } from './secret-tokens';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Share links: a token (256 random bits, shown once, only its SHA-256 stored) that lets
 * anyone read one chat and its sub-chats without signing in. Only someone who may read the
 * chat may share it (its author: chats are private), and the link reads it as them: when
 * they leave the workspace, or the chat is deleted, the link stops working.
 */
export async function createShare(
  db: Database,
  owner: ChatOwner,
  chatId: string,
  input: ShareCreate,
  publicUrl: string,
  now = new Date(),
): Promise<ShareCreated> {
  const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;
  if (expiresAt && expiresAt.getTime() <= now.getTime())
    throw invalidRequest('expiresAt must be in the future', [{ path: ['expiresAt'], message: 'must be in the future' }]);
  if (expiresAt && expiresAt.getTime() > now.getTime() + MAX_SHARE_LIFETIME_DAYS * DAY_MS)
    throw invalidRequest(`expiresAt must be within ${MAX_SHARE_LIFETIME_DAYS} days`, [
      { path: ['expiresAt'], message: `must be within ${MAX_SHARE_LIFETIME_DAYS} days` },
    ]);
  const token = newSecretToken();
  const row = await db.transaction(async (tx) => {
    // Held FOR KEY SHARE until the link is written: a delete of the chat meanwhile waits, then takes the link with it.
    const [owned] = await tx
      .select({ id: chat.id })
      .from(chat)
      .where(and(eq(chat.id, chatId), eq(chat.workspaceId, owner.workspaceId), eq(chat.userId, owner.userId)))
      .for('key share');
    if (!owned) throw notFound('Chat', chatId);
    const [inserted] = await tx
      .insert(chatShare)
      .values({ id: newId('share'), workspaceId: owner.workspaceId, userId: owner.userId, chatId, tokenHash: hashSecretToken(token), expiresAt })
      .returning();
    return inserted!;
  });
  return {
    id: row.id,
    token,
    url: new URL(sharedChatPath(token), publicUrl).toString(),
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt?.toISOString() ?? null,
  };
}

/** The caller's share links in this workspace, newest first, with their chats' titles (expired ones too, until revoked). */
export async function listShares(db: Database, owner: ChatOwner, now = new Date()): Promise<Share[]> {
  const rows = await db
    .select({ id: chatShare.id, chatId: chatShare.chatId, chatTitle: chat.title, createdAt: chatShare.createdAt, expiresAt: chatShare.expiresAt })
    .from(chatShare)
    .innerJoin(chat, eq(chat.id, chatShare.chatId))
    .where(and(eq(chatShare.workspaceId, owner.workspaceId), eq(chatShare.userId, owner.userId)))
    .orderBy(desc(chatShare.createdAt), desc(chatShare.id));
  return rows.map((r) => ({
    id: r.id,
    chatId: r.chatId,
    chatTitle: r.chatTitle,
    createdAt: r.createdAt.toISOString(),
    expiresAt: r.expiresAt?.toISOString() ?? null,
    expired: r.expiresAt !== null && r.expiresAt.getTime() <= now.getTime(),
  }));
}

/** Revoking deletes the row: the link is 404 from then on, like one that never existed. */
export async function revokeShare(db: Database, owner: ChatOwner, shareId: string): Promise<void> {
  const deleted = await db
    .delete(chatShare)
    .where(and(eq(chatShare.id, shareId), eq(chatShare.workspaceId, owner.workspaceId), eq(chatShare.userId, owner.userId)))
    .returning({ id: chatShare.id });
  if (deleted.length === 0) throw notFound('Share', shareId);
}

/** A live share link's chat and author: unexpired, and its author still a member who owns the chat. */
export interface ShareGrant {
  chatId: string;
  owner: ChatOwner;
  expiresAt: Date | null;
}

/** What a token grants, or a 404 that says nothing about why (unknown, revoked and expired read alike). */
export async function resolveShareToken(db: Database, token: string, now = new Date()): Promise<ShareGrant> {
  const [row] = await db
    .select({ chatId: chatShare.chatId, workspaceId: chatShare.workspaceId, userId: chatShare.userId, expiresAt: chatShare.expiresAt })
    .from(chatShare)
    .innerJoin(chat, and(eq(chat.id, chatShare.chatId), eq(chat.workspaceId, chatShare.workspaceId), eq(chat.userId, chatShare.userId)))
    .innerJoin(workspaceMember, and(eq(workspaceMember.workspaceId, chatShare.workspaceId), eq(workspaceMember.userId, chatShare.userId)))
    .where(and(eq(chatShare.tokenHash, hashSecretToken(token)), or(isNull(chatShare.expiresAt), gt(chatShare.expiresAt, now))))
    .limit(1);
  if (!row) throw new AppError(404, errorCodes.notFound, 'this share link does not exist: it may have been revoked, or it has expired');
  return { chatId: row.chatId, owner: { workspaceId: row.workspaceId, userId: row.userId }, expiresAt: row.expiresAt };
}
