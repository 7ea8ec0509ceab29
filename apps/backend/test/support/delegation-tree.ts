import type { DelegationOutcome } from '@baton/schemas';
import { eq } from 'drizzle-orm';
import type { Database } from '../../src/db/client';
import { chat, run, type RunStatus } from '../../src/db/schema';
import { newId } from '../../src/ids';
import type { ChatRow } from '../../src/services/chat-rows';
import { createChatWithFirstMessage } from '../../src/services/chats-by-id';
import { recordTurnEnd } from '../../src/services/sub-chat-state';
import { endRun } from '../../src/agent/runs/run-lifecycle';

export interface RunSpec {
  status: RunStatus;
  startedAt: Date;
  endedAt?: Date;
  steps: number;
  inputTokens: number;
  outputTokens: number;
}

export interface SubChatSpec {
  agentId: string;
  task: string;
  runs: RunSpec[];
  /** How the delegation ended (left null while it runs). */
  outcome?: DelegationOutcome;
  /** Default: when its first run started. */
  createdAt?: Date;
}

let calls = 0;

/**
 * A sub-chat below `parent`, written with the services the runtime uses (the chat with its
 * task, its runs' ends; the runs themselves are fixture rows), for trees whose times, steps and tokens a test must know
 * exactly. What the runtime records at a run's end — its steps and the sub-chat's
 * outcome — and fixed clock times (so durations can be checked exactly) are then set on
 * the rows directly.
 */
export async function addSubChat(db: Database, parent: ChatRow, spec: SubChatSpec): Promise<ChatRow> {
  const toolCallId = `call_tree_${++calls}`;
  const row = await createChatWithFirstMessage(
    db,
    {
      id: newId('chat'),
      workspaceId: parent.workspaceId,
      userId: parent.userId,
      agentId: spec.agentId,
      title: spec.task,
      parentChatId: parent.id,
      parentToolCallId: toolCallId,
      delegateTask: spec.task,
      depth: parent.depth + 1,
      createdAt: spec.createdAt ?? spec.runs[0]?.startedAt,
    },
    { id: newId('msg'), role: 'user', parts: [{ type: 'text', text: spec.task }] },
  );
  for (const r of spec.runs) {
    const id = newId('run');
    await db
      .insert(run)
      .values({ id, chatId: row.id, workspaceId: row.workspaceId, kind: 'sub_agent', mode: 'server', messageId: newId('msg'), owner: 'tests' });
    if (r.status !== 'running') {
      await endRun(db, id, { status: r.status, inputTokens: r.inputTokens, outputTokens: r.outputTokens });
      await recordTurnEnd(db, row.id, { inputTokens: r.inputTokens, outputTokens: r.outputTokens });
    }
    await db
      .update(run)
      .set({ startedAt: r.startedAt, endedAt: r.endedAt ?? null, steps: r.steps })
      .where(eq(run.id, id));
  }
  if (!spec.outcome) return row;
  const [updated] = await db.update(chat).set({ outcome: spec.outcome }).where(eq(chat.id, row.id)).returning();
  return updated!;
}

/** A time `ms` after a fixed instant, so durations are exact. */
export const at = (ms: number) => new Date(Date.UTC(2030, 0, 1) + ms);
