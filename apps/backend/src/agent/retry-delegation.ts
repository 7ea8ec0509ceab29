// Retrying one delegation of a chat's last answer: a new attempt (a new sub-chat) of the same
// `newTask` call, with the same or another sub-agent and optionally an edited task. The call
// goes back to waiting in the stored answer (what came after its step is dropped), the new
// attempt runs on the server, and when it ends the answer is continued from that step with the
// new output while the siblings' outputs stay as they were.
import { NO_USAGE, isToolCallPart, isUnfinishedCall, newTaskCalls, withCallState, type ToolCallPart } from '@baton/delegation';
import type { BatonUIMessage, BatonUIPart, DelegationRetry, DelegationRetryRequest, NewTaskOutput } from '@baton/schemas';
import type { Database } from '../db/client';
import { logError } from '../error-text';
import { AppError, invalidRequest, notFound } from '../errors';
import { generateMessageId, newId } from '../ids';
import { findAgent } from '../services/agents';
import { findChat, lockChat } from '../services/chat-repository';
import { findSubChatForCall } from '../services/sub-chat-state';
import type { ChatOwner } from '../services/chat-rows';
import { loadHistory, upsertMessage } from '../services/messages';
import { findActiveRun, latestRunForMessage } from '../services/runs';
import { conversationText, type DelegateContext, delegateContext } from './delegate-context';
import { outputForSubChat, planSubAgent, rootSettingsOf, treeOf } from './delegation-tree';
import { startTurn } from './runs/execute-run';
import { admitRun, assertAccepting } from './runs/run-lifecycle';
import { createSubChat } from './sub-chats';
import { clientCallTraceParent } from './runs/run-span';
import { taskAttachments } from './task-files';
import type { RuntimeDeps } from './runtime-types';
import { childMeter, record, rootMeter } from './usage-meter';

const conflict = (message: string) => new AppError(409, 'conflict', message);

/**
 * The answer cut back to the end of the step that made the call, the call waiting again with
 * the input of the new attempt; the other calls of that step keep their outputs.
 */
export function resetCall(message: BatonUIMessage, toolCallId: string, input: { subAgentId: string; task: string }): BatonUIMessage {
  const parts = message.parts;
  const isTheCall = (p: BatonUIPart): p is ToolCallPart => isToolCallPart(p) && p.toolCallId === toolCallId;
  const at = parts.findIndex(isTheCall);
  const nextStep = parts.findIndex((p, i) => i > at && p.type === 'step-start');
  const kept = parts.slice(0, nextStep === -1 ? parts.length : nextStep).map((p, i) => {
    if (i !== at || !isTheCall(p)) return p;
    return withCallState(p, { state: 'input-available', input: { ...p.input, ...input } }, ['output', 'errorText', 'preliminary']);
  });
  return { ...message, parts: kept };
}

function withOutput(message: BatonUIMessage, toolCallId: string, output: NewTaskOutput): BatonUIMessage {
  const parts = message.parts.map((p) => (isToolCallPart(p) && p.toolCallId === toolCallId ? withCallState(p, { state: 'output-available', output }) : p));
  return { ...message, parts };
}

/**
 * Everything a retry must find true of the chat, read with `db`; the chat row is locked when
 * `lock` (the transaction that starts the attempt), and read as it is otherwise.
 */
async function checkRetry(
  db: Database,
  owner: ChatOwner,
  chatId: string,
  toolCallId: string,
  req: DelegationRetryRequest,
  opts: { lock: boolean; maxFiles: number },
) {
  const { lock, maxFiles } = opts;
  const { workspaceId } = owner;
  // Locked like every request that starts a run on this chat: a message or a continuation sent meanwhile waits, then sees this.
  const chat = lock ? await lockChat(db, owner, chatId) : await findChat(db, owner, chatId);
  if (!chat) throw notFound('Chat', chatId);
  if (chat.parentChatId) throw conflict('only the delegations of a top-level chat can be retried; this is a sub-chat');
  const history = await loadHistory(db, chat.id);
  const holder = history.find((m) => m.role === 'assistant' && newTaskCalls(m).some((c) => c.toolCallId === toolCallId));
  if (!holder) throw notFound('Delegation', toolCallId);
  if (holder !== history.at(-1)) throw conflict('only a delegation of the last answer can be retried: the messages after it build on its result');
  if (await findActiveRun(db, chat.id)) throw conflict('this chat is answering: wait for the answer to finish (or stop it) before retrying a delegation');
  const calls = newTaskCalls(holder);
  const call = calls.find((c) => c.toolCallId === toolCallId)!;
  if (isUnfinishedCall(call)) throw conflict('this delegation has not finished yet: wait for it (or cancel it) before retrying it');
  if (calls.some(isUnfinishedCall)) throw conflict('other delegations of this answer are still running: retry when they have finished');
  const agent = chat.agentId ? await findAgent(db, workspaceId, chat.agentId) : undefined;
  if (!agent) throw conflict('the agent of this chat was deleted, so its delegations cannot run again');
  const subAgentId = req.subAgentId ?? call.input.subAgentId;
  const task = req.task ?? call.input.task?.trim();
  if (!subAgentId || !task) throw invalidRequest('the call names no sub-agent or task to run again: pass subAgentId and task');
  // The same rules as the agent's own newTask: a sub-agent it may delegate to, at this depth.
  const tree = await treeOf(db, chat, agent);
  const planned = await planSubAgent(db, workspaceId, agent, tree, subAgentId);
  if ('refused' in planned) throw invalidRequest(`subAgentId: ${planned.refused}`);
  const previous = await findSubChatForCall(db, chat.id, toolCallId);
  const before = history.slice(0, -1);
  // The new attempt is given the files the call gives (still checked: the conversation is the same one).
  const attached = await taskAttachments(db, chat, before, call.input.attachments, maxFiles);
  if ('refused' in attached) throw invalidRequest(`attachments: ${attached.refused}`);
  // What a call that never had a sub-chat is given now (a new attempt gets what the first was given).
  const contextMode = call.input.context ?? tree.root.contextMode;
  return { chat, holder, agent, subAgentId, task, tree, plan: planned.plan, previous, before, contextMode, attachments: attached.files };
}

/** Starts the new attempt (`202`); the answer is continued in the background when it ends. */
export async function retryDelegation(
  deps: RuntimeDeps,
  owner: ChatOwner,
  chatId: string,
  toolCallId: string,
  req: DelegationRetryRequest,
): Promise<DelegationRetry> {
  assertAccepting(deps);
  const { workspaceId } = owner;
  // A summary is a model call that takes as long as the provider likes: written before the
  // chat is locked (so the chat's other requests go on meanwhile), then checked under the lock
  // against what it was written from.
  const maxFiles = deps.files.limits.maxPerMessage;
  const draft = await checkRetry(deps.db, owner, chatId, toolCallId, req, { lock: false, maxFiles });
  const fresh = draft.previous ? undefined : await delegateContext(deps, workspaceId, draft.agent, draft.contextMode, draft.before);
  const started = await deps.db.transaction(async (tx) => {
    const checked = await checkRetry(tx, owner, chatId, toolCallId, req, { lock: true, maxFiles });
    const { chat, holder, previous, plan, tree, subAgentId, task, attachments } = checked;
    let context: DelegateContext;
    if (previous) context = { mode: previous.contextMode ?? 'task_only', text: previous.delegateContext, usage: NO_USAGE };
    else if (fresh && checked.contextMode === fresh.mode && conversationText(checked.before) === conversationText(draft.before)) context = fresh;
    else throw conflict('the chat changed while the context for the sub-agent was being written: retry again');
    const mode = (await latestRunForMessage(tx, chat.id, holder.id))?.mode ?? 'server';
    await upsertMessage(tx, chat.id, resetCall(holder, toolCallId, { subAgentId, task }));
    const attempt = (previous?.attempt ?? 0) + 1;
    const born = await createSubChat(tx, {
      workspaceId,
      parentChat: chat,
      toolCallId,
      subAgent: plan.agent,
      depth: plan.depth,
      effectiveToolIds: plan.effectiveToolIds,
      context,
      task,
      attachments,
      chatId: newId('chat'),
      firstMessageId: generateMessageId(),
      mode: 'server',
      owner: deps.runs.owner,
      attempt,
      // The same call: the new attempt's runs join the trace of the first.
      traceParent: previous?.traceParent ?? (await clientCallTraceParent(tx, chat.id, toolCallId)),
    });
    return { born, plan, tree, context, mode, messageId: holder.id, attempt, subAgentId, task: born.task };
  });

  const meter = childMeter(rootMeter(), started.tree.root);
  record(meter, started.context.usage);
  const turn = startTurn(deps, { ...started.born.input, meter });
  // The request may be gone by then: the answer is continued by the server, not by the caller.
  void turn.result
    .then(() => continueAfterRetry(deps, owner, chatId, { messageId: started.messageId, toolCallId, mode: started.mode }))
    .catch((err) => logError('continuing an answer after a retried delegation failed', err));
  const taskText = (started.born.task.parts[0] as { text: string }).text;
  return { toolCallId, subChatId: started.born.input.chat.id, attempt: started.attempt, subAgentId: started.subAgentId, task: taskText };
}

/**
 * The retried call's new output goes into the answer and the answer continues from there,
 * unless someone got there first: a browser that delivered the output itself (its
 * continuation is then running or done), or a new message.
 */
export async function continueAfterRetry(
  deps: RuntimeDeps,
  owner: ChatOwner,
  chatId: string,
  at: { messageId: string; toolCallId: string; mode: 'client' | 'server' },
): Promise<void> {
  const input = await admitRun(deps, { chat: { owner, id: chatId }, by: 'server' }, async ({ tx, chat, assertIdle, admit }) => {
    await assertIdle();
    const history = await loadHistory(tx, chat.id);
    const last = history.at(-1);
    const call = last?.id === at.messageId ? newTaskCalls(last).find((c) => c.toolCallId === at.toolCallId) : undefined;
    if (!last || !call || !isUnfinishedCall(call)) return undefined;
    const output = await outputOfLatestAttempt(tx, chat.id, chat.workspaceId, at.toolCallId);
    if (!output) return undefined;
    const merged = withOutput(last, at.toolCallId, output);
    await upsertMessage(tx, chat.id, merged);
    const agent = chat.agentId ? await findAgent(tx, chat.workspaceId, chat.agentId) : undefined;
    if (!agent) return undefined;
    // A continuation of the answer, from the retried call's step.
    return admit({ agent, history: [...history.slice(0, -1), merged], mode: at.mode });
  });
  if (input) await startTurn(deps, input).result;
}

async function outputOfLatestAttempt(db: Database, chatId: string, workspaceId: string, toolCallId: string) {
  const sub = await findSubChatForCall(db, chatId, toolCallId);
  return sub ? outputForSubChat(db, sub, await rootSettingsOf(db, workspaceId, chatId)) : undefined;
}
