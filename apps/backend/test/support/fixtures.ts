import { eq } from 'drizzle-orm';
import { chat } from '../../src/db/schema';
import { beforeAll } from 'vitest';
import type { Database } from '../../src/db/client';
import { json, type TestApp } from './test-app';
import { subChatStatus } from '../../src/services/sub-chat-state';

/** A stored chat row with the status the API derives from its outcome, for tests that read rows and compare statuses. */
export const withStatus = <R extends { parentChatId: string | null; outcome: (typeof chat.$inferSelect)['outcome'] }>(row: R) => ({
  ...row,
  status: subChatStatus(row),
});

/**
 * A sub-chat row written directly, for tests about listing and deleting. The API only
 * creates sub-chats through delegation (and tests of that go through the API).
 */
export async function insertSubChat(db: Database, parent: { id: string; workspaceId: string }, toolCallId: string, status: 'running' | 'success' = 'success') {
  const [owner] = await db.select({ userId: chat.userId }).from(chat).where(eq(chat.id, parent.id));
  const [row] = await db
    .insert(chat)
    .values({
      id: `chat_sub_${toolCallId}_${Date.now().toString(36)}`,
      workspaceId: parent.workspaceId,
      userId: owner?.userId,
      parentChatId: parent.id,
      parentToolCallId: toolCallId,
      // The outcome is the stored truth: none while the sub-chat runs.
      outcome: status === 'running' ? null : status,
      title: 'Sub',
    })
    .returning();
  return row!;
}

/**
 * The team several delegation tests share, created through the API before the file's
 * tests: a Researcher and a Writer, and a Lead whose sub-agents they are.
 */
export function useLeadTeam(t: Pick<TestApp, 'request'>, ws = '/api/workspaces/default') {
  const agents: Record<'Lead' | 'Researcher' | 'Writer', { id: string }> = {} as never;
  beforeAll(async () => {
    for (const name of ['Researcher', 'Writer'] as const) {
      agents[name] = await json(await t.request(`${ws}/agents`, { json: { name, description: `${name} agent` } }));
    }
    agents.Lead = await json(await t.request(`${ws}/agents`, { json: { name: 'Lead', subAgentIds: [agents.Researcher.id, agents.Writer.id] } }));
  });
  return agents;
}
