import { INTERRUPTED_SUB_AGENT_RESULT, isToolCallPart, unfinishedCalls } from '@baton/delegation';
import type { BatonUIMessage, RunErrorData, RunStatus, TokenUsage, BatonUIMessageChunk } from '@baton/schemas';
import type { Database } from '../../db/client';
import { findSubChatsForCalls, isSubChatRunning, recordTurnEnd } from '../../services/sub-chat-state';
import { findMessage, upsertMessage, type RunSpent } from '../../services/messages';
import { findActiveRun, type RunRow } from '../../services/runs';
import { outputForSubChat, rootSettingsOf } from '../delegation-tree';
import type { SubChatEnd } from '../sub-chat-end';
import { endRun, transitionRuns } from './run-lifecycle';
import type { SnapshotWriter } from './snapshot-writer';
import { interruptedError, settleUnfinishedCalls, withRunError, type CallSubChat } from './unfinished-calls';

const hasContent = (m: BatonUIMessage) => m.parts.some((p) => p.type !== 'step-start');

/** A mid-answer snapshot, written only while the run is still this process's to write (batched with other runs'). */
export async function storeSnapshot(writer: SnapshotWriter, run: RunRow, message: BatonUIMessage | undefined, spent: RunSpent): Promise<void> {
  if (!message || !hasContent(message)) return;
  await writer.write({ runId: run.id, chatId: run.chatId, message, spent });
}

async function subChatsOfUnfinishedCalls(db: Database, run: RunRow, message: BatonUIMessage): Promise<Map<string, CallSubChat>> {
  const ids = unfinishedCalls(message).map((c) => c.toolCallId);
  if (ids.length === 0) return new Map();
  const rows = await findSubChatsForCalls(db, run.chatId, ids);
  if (rows.length === 0) return new Map();
  const root = await rootSettingsOf(db, run.workspaceId, run.chatId);
  const entries = await Promise.all(rows.map(async (row) => [row.parentToolCallId!, { id: row.id, output: await outputForSubChat(db, row, root) }] as const));
  return new Map(entries);
}

/** The chunks that give an ending answer's unfinished calls their final outputs (see settleUnfinishedCalls). */
export async function settlingChunks(db: Database, run: RunRow, message: BatonUIMessage): Promise<BatonUIMessageChunk[]> {
  const subChats = await subChatsOfUnfinishedCalls(db, run, message);
  const settled = settleUnfinishedCalls(message, { mode: run.mode, subChats });
  if (settled === message) return [];
  return settled.parts.flatMap((part, i): BatonUIMessageChunk[] => {
    if (part === message.parts[i] || !isToolCallPart(part) || !part.toolCallId) return [];
    if (part.state === 'output-available') return [{ type: 'tool-output-available', toolCallId: part.toolCallId, output: part.output }];
    return [{ type: 'tool-output-error', toolCallId: part.toolCallId, errorText: part.errorText ?? '' }];
  });
}

/**
 * The end of a run, in one statement (see endRun): its status (only if it is still
 * `running`: the first to end it wins), its final message, the chat's usage and a sub-chat's outcome.
 */
export async function settleAndStoreRunEnd(
  db: Database,
  run: RunRow,
  end: {
    status: Exclude<RunStatus, 'running'>;
    error?: RunErrorData;
    message?: BatonUIMessage;
    usage?: TokenUsage;
    outcome?: SubChatEnd;
    steps: number;
  },
): Promise<boolean> {
  const added = await endRun(
    db,
    run.id,
    { status: end.status, error: end.error?.message, inputTokens: end.usage?.inputTokens ?? 0, outputTokens: end.usage?.outputTokens ?? 0, steps: end.steps },
    { chatId: run.chatId, message: end.message && hasContent(end.message) ? end.message : undefined, outcome: end.outcome },
  );
  return added !== undefined;
}

/**
 * Recovery of a run whose process died (being marked `interrupted` in the same
 * transaction): its last snapshot gets the visible "interrupted" error and final outputs
 * for its unfinished calls, and a sub-chat ends `error` so its parent receives the reason.
 */
export async function settleInterruptedRun(tx: Database, run: RunRow): Promise<void> {
  const stored = await findMessage(tx, run.chatId, run.messageId);
  const base: BatonUIMessage = stored ?? { id: run.messageId, role: 'assistant', parts: [] };
  await interruptPausedSubChats(tx, run, base);
  const subChats = await subChatsOfUnfinishedCalls(tx, run, base);
  const message = withRunError(settleUnfinishedCalls(base, { mode: run.mode, subChats }), interruptedError);
  await upsertMessage(tx, run.chatId, message);
  if (run.kind === 'sub_agent') {
    await recordTurnEnd(tx, run.chatId, {
      inputTokens: 0,
      outputTokens: 0,
      outcome: { outcome: 'interrupted', result: INTERRUPTED_SUB_AGENT_RESULT },
      onlyIfRunning: true,
    });
  }
}

/**
 * A sub-chat paused for approval below a run that died (nested delegation waits inside its
 * parent's `newTask`, in that process): nothing would take its result any more, so it
 * ends `interrupted` with the run above, and its pending calls are no longer listed.
 */
async function interruptPausedSubChats(tx: Database, run: RunRow, message: BatonUIMessage): Promise<void> {
  const ids = unfinishedCalls(message).map((c) => c.toolCallId);
  if (ids.length === 0) return;
  for (const row of await findSubChatsForCalls(tx, run.chatId, ids)) {
    if (!isSubChatRunning(row) || (await findActiveRun(tx, row.id))) continue;
    await recordTurnEnd(tx, row.id, {
      inputTokens: 0,
      outputTokens: 0,
      outcome: { outcome: 'interrupted', result: INTERRUPTED_SUB_AGENT_RESULT },
      onlyIfRunning: true,
    });
    await transitionRuns(tx, { chatId: row.id }, 'awaiting_approval', 'succeeded');
  }
}
