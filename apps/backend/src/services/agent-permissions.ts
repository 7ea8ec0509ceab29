import { agentRefusalReason, errorCodes, mayChangeAgent, type AgentAction, type AgentEditableBy } from '@baton/schemas';
import { eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { user } from '../db/schema';
import { AppError } from '../errors';
import type { WorkspaceAccess } from './members';

/** Who changes an agent; the rule itself is `mayChangeAgent` of @baton/schemas, shared with the editor. */
export type AgentActor = Pick<WorkspaceAccess, 'userId' | 'role'>;

export async function authorNameOf(db: Database, authorId: string | null): Promise<string | null> {
  if (!authorId) return null;
  const [row] = await db.select({ name: user.name }).from(user).where(eq(user.id, authorId)).limit(1);
  return row?.name ?? null;
}

/** 403 `forbidden` with the reason (who can), unless `actor` may do `action` to the agent. */
export async function assertMayChangeAgent(
  db: Database,
  actor: AgentActor,
  agent: { authorId: string | null; editableBy: AgentEditableBy },
  action: AgentAction,
): Promise<void> {
  if (mayChangeAgent(actor, agent, action)) return;
  throw new AppError(403, errorCodes.forbidden, agentRefusalReason(agent, await authorNameOf(db, agent.authorId), action));
}
