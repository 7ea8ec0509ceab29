import { errorCodes, isAdminRole, type AgentEditableBy } from '@baton/schemas';
import { eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { user } from '../db/schema';
import { AppError } from '../errors';
import type { WorkspaceAccess } from './members';

/**
 * Who may change an agent (issue 24 item 7). Everyone in the workspace uses every agent;
 * changing one changes it for everyone, so:
 * - its author and the workspace's admins (and owner) may edit and delete it;
 * - other members may edit it only when it is shared (`editableBy: "workspace"`), and never
 *   delete it or change who may edit it.
 * An agent without an author (the account is gone) is the admins' alone unless shared.
 */
export type AgentActor = Pick<WorkspaceAccess, 'userId' | 'role'>;

interface AgentAuthorship {
  authorId: string | null;
  editableBy: AgentEditableBy;
}

export type AgentAction = 'edit' | 'delete' | 'share';

const isAuthor = (actor: AgentActor, agent: AgentAuthorship) => agent.authorId !== null && agent.authorId === actor.userId;

export function mayChangeAgent(actor: AgentActor, agent: AgentAuthorship, action: AgentAction): boolean {
  if (isAdminRole(actor.role) || isAuthor(actor, agent)) return true;
  return action === 'edit' && agent.editableBy === 'workspace';
}

const doing: Record<AgentAction, string> = {
  edit: 'edit this agent',
  delete: 'delete this agent',
  share: 'change who may edit this agent',
};

/** The reason a person reads in the API's 403 and in the editor: who can, and how to get there. */
export function refusalReason(agent: AgentAuthorship, authorName: string | null, action: AgentAction): string {
  const who = agent.authorId && authorName ? `${authorName} (the author) or an admin` : 'an admin (the agent has no author any more)';
  const hint = action === 'edit' ? ' (ask them to share editing with the workspace)' : '';
  return `Only ${who} can ${doing[action]}${hint}`;
}

export async function authorNameOf(db: Database, authorId: string | null): Promise<string | null> {
  if (!authorId) return null;
  const [row] = await db.select({ name: user.name }).from(user).where(eq(user.id, authorId)).limit(1);
  return row?.name ?? null;
}

/** 403 `forbidden` with the reason, unless `actor` may do `action` to the agent. */
export async function assertMayChangeAgent(db: Database, actor: AgentActor, agent: AgentAuthorship, action: AgentAction): Promise<void> {
  if (mayChangeAgent(actor, agent, action)) return;
  throw new AppError(403, errorCodes.forbidden, refusalReason(agent, await authorNameOf(db, agent.authorId), action));
}
