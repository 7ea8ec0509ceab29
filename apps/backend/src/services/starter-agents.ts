import { DEFAULT_WORKSPACE_ID } from '@baton/schemas';
import { and, eq, isNull } from 'drizzle-orm';
import type { Database } from '../db/client';
import { agent } from '../db/schema';
import { violatedUniqueConstraint } from '../db/unique-violation';
import { newId } from '../ids';
import { UNIQUE_AGENT_NAME_INDEX } from './agents';

/**
 * A first start should let people try delegation at once (docs/design.md §2): an Assistant
 * with a Researcher and a Writer. Only an empty workspace is seeded (the default one at
 * start-up, a new one when it is created). Their author is the workspace's owner: `authorId`
 * for a new workspace; the default one is seeded before anyone signed up, and its owner adopts
 * them then (`adoptAuthorlessAgents`).
 */
export async function seedStarterAgents(db: Database, workspaceId: string = DEFAULT_WORKSPACE_ID, authorId: string | null = null): Promise<boolean> {
  try {
    return await seedIfEmpty(db, workspaceId, authorId);
  } catch (err) {
    // Someone created a "Researcher" (or another starter's name) between the emptiness check
    // and the inserts: the workspace is no longer empty, so it is not seeded, and nothing is
    // half-seeded either (the transaction rolled back).
    if (violatedUniqueConstraint(err) === UNIQUE_AGENT_NAME_INDEX) return false;
    throw err;
  }
}

function seedIfEmpty(db: Database, workspaceId: string, authorId: string | null): Promise<boolean> {
  return db.transaction(async (tx) => {
    const existing = await tx.select({ id: agent.id }).from(agent).where(eq(agent.workspaceId, workspaceId)).limit(1);
    if (existing.length > 0) return false;
    const researcher = {
      id: newId('agent'),
      workspaceId,
      authorId,
      name: 'Researcher',
      description: 'Finds facts and sources on a question and reports them concisely.',
      systemPrompt: 'You research the task you are given and report the key facts with sources, briefly.',
    };
    const writer = {
      id: newId('agent'),
      workspaceId,
      authorId,
      name: 'Writer',
      description: 'Turns notes into clear, well-structured prose.',
      systemPrompt: 'You write clear, well-structured text from the notes and instructions you are given.',
    };
    await tx.insert(agent).values([researcher, writer]);
    await tx.insert(agent).values({
      id: newId('agent'),
      workspaceId,
      authorId,
      name: 'Assistant',
      description: 'A general assistant that can hand research and writing to its sub-agents.',
      systemPrompt: 'You are a helpful assistant. Delegate research to the Researcher and writing to the Writer when that helps.',
      subAgentIds: [researcher.id, writer.id],
    });
    return true;
  });
}

/**
 * The first account (the owner of the default workspace) becomes the author of the agents that
 * have none there: the starter agents seeded before anyone signed up.
 */
export async function adoptAuthorlessAgents(db: Database, userId: string, workspaceId: string = DEFAULT_WORKSPACE_ID): Promise<void> {
  await db
    .update(agent)
    .set({ authorId: userId })
    .where(and(eq(agent.workspaceId, workspaceId), isNull(agent.authorId)));
}
