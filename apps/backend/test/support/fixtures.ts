import { eq } from 'drizzle-orm';
import { chat } from '../../src/db/schema';
import type { Database } from '../../src/db/client';

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
      status,
      title: 'Sub',
    })
    .returning();
  return row!;
}
