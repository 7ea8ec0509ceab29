import { DEFAULT_WORKSPACE_ID, errorCodes } from '@baton/schemas';
import { count, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { user } from '../db/schema';
import { AppError } from '../errors';
import { adoptUnownedChats } from '../services/chat-repository';
import { adoptAuthorlessAgents } from '../services/starter-agents';
import { consumeInvitation, previewInvitation } from '../services/invitations';
import { addMember } from '../services/members';
import { createWorkspace } from '../services/workspaces';

/** What a new account gets: decided before it is created, given right after. */
export type SignUpGrant =
  /** The first account of the instance: owner of the default workspace (and its starter agents). */
  | { kind: 'owner' }
  /** An invitation link: membership of its workspace with its role. */
  | { kind: 'invitation'; token: string }
  /** Open sign-up: a workspace of their own. */
  | { kind: 'own-workspace' };

export async function hasAnyAccount(db: Database): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(user);
  return Number(row?.n ?? 0) > 0;
}

/** Who may sign up: the first person (the owner), invited people, anyone with `BATON_OPEN_SIGNUP`. */
export async function decideSignUp(db: Database, inviteToken: string | undefined, openSignup: boolean): Promise<SignUpGrant> {
  if (!(await hasAnyAccount(db))) return { kind: 'owner' };
  if (inviteToken) {
    await previewInvitation(db, inviteToken);
    return { kind: 'invitation', token: inviteToken };
  }
  if (openSignup) return { kind: 'own-workspace' };
  throw new AppError(403, errorCodes.forbidden, 'sign-up is by invitation: ask a workspace admin for an invite link');
}

/** Gives the new account what was decided, in one transaction (the caller removes the account if it fails). */
export async function applySignUpGrant(db: Database, grant: SignUpGrant, account: { id: string; name: string }): Promise<void> {
  await db.transaction(async (tx) => {
    if (grant.kind === 'owner') {
      await addMember(tx, DEFAULT_WORKSPACE_ID, account.id, 'owner');
      await adoptUnownedChats(tx, account.id);
      await adoptAuthorlessAgents(tx, account.id);
    } else if (grant.kind === 'invitation') {
      const granted = await consumeInvitation(tx, grant.token, account.id);
      await addMember(tx, granted.workspaceId, account.id, granted.role);
    } else {
      await createWorkspace(tx, { name: `${account.name}'s workspace` }, account.id);
    }
  });
}

export async function deleteAccount(db: Database, id: string): Promise<void> {
  await db.delete(user).where(eq(user.id, id));
}

/** Any constant: the advisory lock that makes sign-ups on all replicas take turns. */
const SIGN_UP_LOCK = 7_311_205;

/**
 * Sign-ups take turns: "is this the first account?" and "is this invitation still unused?"
 * must not be answered for two sign-ups at once. Within a process a promise chain orders
 * them; on Postgres an advisory lock also orders them across replicas (held by its own
 * transaction while better-auth works on other connections). PGlite has one process and
 * one connection, so the chain is all it needs — and all it could take without deadlocking.
 */
export function signUpSerializer(db: Database, kind: 'pglite' | 'postgres') {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(work: () => Promise<T>): Promise<T> => {
    const locked =
      kind === 'postgres'
        ? () =>
            db.transaction(async (tx) => {
              await tx.execute(sql`select pg_advisory_xact_lock(${SIGN_UP_LOCK})`);
              return work();
            })
        : work;
    const result = tail.then(locked, locked);
    tail = result.catch(() => {});
    return result;
  };
}
