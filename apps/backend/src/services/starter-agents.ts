import { DEFAULT_WORKSPACE_ID } from '@baton/schemas';
import { eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { agent } from '../db/schema';
import { violatedUniqueConstraint } from '../db/unique-violation';
import { newId } from '../ids';
import { UNIQUE_AGENT_NAME_INDEX } from './agents';

/**
 * A first start should let people try delegation at once (docs/design.md §2): an Assistant
 * with a Researcher and a Writer. Only an empty workspace is seeded (the default one at
 * start-up, a new one when it is created).
 */
export async function seedStarterAgents(db: Database, workspaceId: string = DEFAULT_WORKSPACE_ID): Promise<boolean> {
  try {
    return await seedIfEmpty(db, workspaceId);
  } catch (err) {
    // Someone created a "Researcher" (or another starter's name) between the emptiness check
    // and the inserts: the workspace is no longer empty, so it is not seeded, and nothing is
    // half-seeded either (the transaction rolled back).
    if (violatedUniqueConstraint(err) === UNIQUE_AGENT_NAME_INDEX) return false;
    throw err;
  }
}

function seedIfEmpty(db: Database, workspaceId: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const existing = await tx.select({ id: agent.id }).from(agent).where(eq(agent.workspaceId, workspaceId)).limit(1);
    if (existing.length > 0) return false;
    const researcher = {
      id: newId('agent'),
      workspaceId,
      name: 'Researcher',
      description: 'Finds facts and sources on a question and reports them concisely.',
      systemPrompt: 'You research the task you are given and report the key facts with sources, briefly.',
    };
    const writer = {
      id: newId('agent'),
      workspaceId,
      name: 'Writer',
      description: 'Turns notes into clear, well-structured prose.',
      systemPrompt: 'You write clear, well-structured text from the notes and instructions you are given.',
    };
    await tx.insert(agent).values([researcher, writer]);
    await tx.insert(agent).values({
      id: newId('agent'),
      workspaceId,
      name: 'Assistant',
      description: 'A general assistant that can hand research and writing to its sub-agents.',
      systemPrompt: 'You are a helpful assistant. Delegate research to the Researcher and writing to the Writer when that helps.',
      subAgentIds: [researcher.id, writer.id],
    });
    return true;
  });
}
