import { CANCELLED_RESULT, newTaskCalls, readNewTaskOutput, type NewTaskPart } from '@baton/delegation';
import { parseFileUrl, titleFromText, type BatonFile, type chatStreamRequestSchema, type UIMessageInput, type BatonUIMessage } from '@baton/schemas';
import type { z } from 'zod';
import type { Database } from '../db/client';
import { AppError, invalidRequest } from '../errors';
import { findAgent } from '../services/agents';
import { chatOrigin } from '../services/chat-origin';
import { cancelRunningSubChat, findSubChatForCall, findSubChatsForCalls, isSubChatRunning } from '../services/sub-chat-state';
import { findChat, lockChat, renameChat } from '../services/chat-repository';
import type { ChatOwner } from '../services/chat-rows';
import { subtreeUsage } from '../services/chat-usage';
import { findMessageChatId, loadHistory, upsertMessage } from '../services/messages';
import { putInChat } from '../services/files';
import { readUserParts, removingCreatedOnFailure, resolveMessageFiles, type UserParts } from '../services/message-files';
import { findActiveRun, latestRunForMessage, type RunRow } from '../services/runs';
import { branchAt, userMessageText, userMessageToAnswer } from './answer-again';
import { settlePendingClientCalls } from './api-tool-outputs';
import { assertEarlierMatch } from './client-history';
import { applyClientToolOutputs } from './client-tool-outputs';
import { delegateContext } from './delegate-context';
import { SUB_CHAT_WAIT_MS, validateSubChatStart } from './delegation';
import { outputForSubChat, rootSettingsOf } from './delegation-tree';
import { admitFirstRun, admitRun, assertAccepting, chatBusy, transitionRuns } from './runs/run-lifecycle';
import { createSubChat } from './sub-chats';
import { clientCallTraceParent } from './runs/run-span';
import { childMeter, record, rootMeter } from './usage-meter';
import type { AgentRow, ChatRow, RuntimeDeps, TurnInput } from './runtime-types';
import { agentForChat, assertNoPendingApprovals, assertNoRunningDelegations, existingAgent, requireAgent } from './turn-checks';

type StreamRequest = z.output<typeof chatStreamRequestSchema>;

/**
 * What a chat request leads to: a new run to execute (with work to do once its
 * transaction committed), or an existing run whose stream the request joins (a second tab
 * that sent the same continuation).
 */
export type PreparedTurn = { kind: 'run'; input: TurnInput; afterCommit: RunRow[] } | { kind: 'join'; run: RunRow };

/**
 * A new user message as it is stored: its text parts joined, its files made references to
 * Baton files of the chat (stored from `data:` URLs, checked, locked) — put into the chat by
 * `putInChat` once the chat row exists, in the same transaction.
 */
async function userMessageOf(
  tx: Database,
  deps: RuntimeDeps,
  owner: ChatOwner,
  chatId: string,
  message: UIMessageInput,
  read: UserParts,
  track: (created: readonly BatonFile[]) => void = () => {},
): Promise<{ user: BatonUIMessage; files: BatonFile[] }> {
  if (read.files.length === 0) return { user: { id: message.id, role: 'user', parts: [{ type: 'text', text: read.text }] }, files: [] };
  const { parts, files, created } = await resolveMessageFiles(tx, deps.files, owner, chatId, read);
  track(created);
  return { user: { id: message.id, role: 'user', parts }, files };
}

/** A chat's title from its first message: its text, else the names of its files. */
const titleOf = (read: UserParts) => titleFromText(read.text.trim() ? read.text : read.files.map((f) => f.filename ?? 'file').join(', '));

/**
 * `newTask` outputs name the sub-chat of their call; an error output for a sub-chat that
 * still runs (the person cancelled it) cancels it — its run is stopped once this
 * request's transaction has committed, so a request that fails later cancels nothing.
 * The outcome is the server's to decide: a call whose sub-chat has ended gets the
 * server's own output (outcome, result capped by the root, usage of the sub-chat's subtree)
 * in place of the browser's.
 */
async function checkNewTaskOutputs(tx: Database, parent: ChatRow, answered: NewTaskPart[]): Promise<RunRow[]> {
  const toStop: RunRow[] = [];
  let root: Awaited<ReturnType<typeof rootSettingsOf>> | undefined;
  for (const part of answered) {
    const output = readNewTaskOutput(part.output);
    const subChat = await findSubChatForCall(tx, parent.id, part.toolCallId);
    if (output?.subChatId && output.subChatId !== subChat?.id) {
      throw invalidRequest(`output.subChatId: "${output.subChatId}" is not the sub-chat of call "${part.toolCallId}"`);
    }
    if (!subChat) continue;
    let ended = subChat;
    if (isSubChatRunning(subChat)) {
      if (part.state !== 'output-error' && output?.outcome === 'success') continue;
      await cancelRunningSubChat(tx, subChat.id, CANCELLED_RESULT);
      const run = await findActiveRun(tx, subChat.id);
      if (run) toStop.push(run);
      // A sub-agent paused for approval (its own call waits) has no run to stop: its pause ends here.
      else await transitionRuns(tx, { chatId: subChat.id }, 'awaiting_approval', 'succeeded');
      ended = { ...subChat, outcome: 'cancelled', delegateResult: CANCELLED_RESULT };
    }
    root ??= await rootSettingsOf(tx, parent.workspaceId, parent.id);
    const own = await outputForSubChat(tx, ended, root);
    if (own) {
      // The answered part belongs to the merged message this request builds: replacing its output here is what gets stored.
      Object.assign(part, { state: 'output-available', output: own, errorText: undefined });
    }
  }
  return toStop;
}

/**
 * The files a browser sends with a sub-chat's first message (so its modal shows them at once)
 * must be among the call's attachments: the stored message carries those, and nothing else
 * may be smuggled into the sub-chat.
 */
function assertSentFilesAttached(read: UserParts, attachments: readonly BatonFile[], toolCallId: string) {
  for (const part of read.files) {
    const id = parseFileUrl(part.url)?.fileId;
    if (!id || !attachments.some((f) => f.id === id)) {
      throw invalidRequest(
        `message.parts: ${part.filename ?? id ?? 'a data: URL'} is not an attachment of call "${toolCallId}"; a sub-chat's first message carries the call's task and attachments only`,
      );
    }
  }
}

/**
 * A sub-chat started by the browser (depth 1 only): born through the delegation rules,
 * its first message is the stored task, its context was prepared before the transaction.
 */
async function startSubChat(deps: RuntimeDeps, owner: ChatOwner, req: StreamRequest, agentId: string, read: UserParts): Promise<PreparedTurn> {
  const { workspaceId } = owner;
  const start = { parentChatId: req.parentChatId!, parentToolCallId: req.parentToolCallId, agentId };
  const maxFiles = deps.files.limits.maxPerMessage;
  // Waiting (for the parent's step to be stored) and the summary's model call happen
  // outside the transaction; the transaction checks again, so nothing changed in between slips through.
  const first = await validateSubChatStart(deps.db, owner, start, { maxFiles, waitMs: SUB_CHAT_WAIT_MS });
  assertSentFilesAttached(read, first.attachments, start.parentToolCallId!);
  const context = await delegateContext(
    deps,
    workspaceId,
    first.parentAgent,
    first.task.context ?? first.tree.root.contextMode,
    first.parentHistory.slice(0, first.parentHistory.indexOf(first.callMessage)),
  );
  return deps.db.transaction(async (tx) => {
    // The parent's lock orders this start with a continuation delivering the same call's output.
    await lockChat(tx, owner, start.parentChatId);
    const { parent, plan, task, tree, callMessage, attachments } = await validateSubChatStart(tx, owner, start, { maxFiles });
    const batch = await findSubChatsForCalls(
      tx,
      parent.id,
      newTaskCalls(callMessage).map((c) => c.toolCallId),
    );
    // The browser queues what does not fit; this is the server's guard.
    const running = batch.filter(isSubChatRunning).length;
    if (running >= tree.root.maxConcurrent) {
      throw new AppError(
        409,
        'conflict',
        `${running} sub-agents of this answer are already running (at most ${tree.root.maxConcurrent} at once): start this one when one of them ends`,
      );
    }
    const treeUsed = await subtreeUsage(
      tx,
      batch.map((c) => c.id),
    );
    const born = await createSubChat(tx, {
      workspaceId,
      parentChat: parent,
      toolCallId: start.parentToolCallId!,
      subAgent: plan.agent,
      depth: plan.depth,
      effectiveToolIds: plan.effectiveToolIds,
      context,
      task: task.task,
      attachments,
      chatId: req.id,
      firstMessageId: req.message.id,
      mode: 'client',
      owner: deps.runs.owner,
      traceParent: await clientCallTraceParent(tx, parent.id, start.parentToolCallId!),
    });
    const treeMeter = rootMeter();
    Object.assign(treeMeter.tree, treeUsed);
    const meter = childMeter(treeMeter, tree.root);
    record(meter, context.usage);
    return { kind: 'run', input: { ...born.input, meter }, afterCommit: [] };
  });
}

async function startNewChat(deps: RuntimeDeps, owner: ChatOwner, req: StreamRequest, lookedUp?: { agent: AgentRow | undefined }): Promise<PreparedTurn> {
  const { workspaceId } = owner;
  if (req.message.role !== 'user') throw invalidRequest('message: a new chat starts with a user message');
  if (!req.agentId) throw invalidRequest('agentId: required to start a new chat');
  if (req.parentToolCallId && !req.parentChatId) throw invalidRequest('parentToolCallId is only allowed together with parentChatId');
  assertEarlierMatch([], req.message.id, req.earlier);
  const read = readUserParts(req.message, deps.files.limits);
  // A sub-chat's first message is its call's task and attachments, whatever text was sent.
  if (req.parentChatId) return startSubChat(deps, owner, req, req.agentId, read);
  const agent = lookedUp ? existingAgent(lookedUp.agent, req.agentId) : await requireAgent(deps.db, workspaceId, req.agentId);
  const values = { id: req.id, workspaceId, userId: owner.userId, agentId: agent.id, title: titleOf(read), ...chatOrigin(owner) };
  if (read.files.length === 0) {
    const { user } = await userMessageOf(deps.db, deps, owner, req.id, req.message, read);
    return { kind: 'run', input: await admitFirstRun(deps, values, user, { agent, mode: 'client' }), afterCommit: [] };
  }
  // With files, the chat, its message, its run and its files are written in one transaction.
  return removingCreatedOnFailure(deps.files.store, (track) =>
    deps.db.transaction(async (tx) => {
      const { user, files } = await userMessageOf(tx, deps, owner, req.id, req.message, read, track);
      const input = await admitFirstRun({ ...deps, db: tx }, values, user, { agent, mode: 'client' });
      await putInChat(tx, req.id, files);
      return { kind: 'run' as const, input, afterCommit: [] };
    }),
  );
}

/**
 * Checks and stores the browser's newest message and admits its run, all in one
 * transaction on the locked chat: of two requests at once, one runs and the other is
 * refused (409) having written nothing — or, sending the same continuation, joins it.
 */
export async function prepareBrowserTurn(deps: RuntimeDeps, owner: ChatOwner, req: StreamRequest): Promise<PreparedTurn> {
  assertAccepting(deps);
  const { workspaceId } = owner;
  // What would start a new top-level chat looks its agent up alongside the chat: on
  // Postgres the two queries run at once, one round trip less before the model call.
  const agentLookup = req.agentId && !req.parentChatId && req.message.role === 'user' ? findAgent(deps.db, workspaceId, req.agentId) : undefined;
  const [existing, agent] = await Promise.all([findChat(deps.db, owner, req.id), agentLookup]);
  if (!existing) return startNewChat(deps, owner, req, agentLookup && { agent });
  // A message's data: URLs stored before something refuses it leave no object behind.
  return removingCreatedOnFailure(deps.files.store, (track) => admitBrowserTurn(deps, owner, req, track));
}

function admitBrowserTurn(deps: RuntimeDeps, owner: ChatOwner, req: StreamRequest, track: (created: readonly BatonFile[]) => void): Promise<PreparedTurn> {
  const { workspaceId } = owner;
  return admitRun(deps, { chat: { owner, id: req.id }, by: 'request' }, async ({ tx, chat, admit }): Promise<PreparedTurn> => {
    if (req.parentChatId && req.parentChatId !== chat.parentChatId) throw invalidRequest('parentChatId does not match the chat');
    const active = await findActiveRun(tx, chat.id);
    if (active) {
      if (req.message.role === 'assistant' && active.messageId === req.message.id) return { kind: 'join', run: active };
      throw chatBusy();
    }
    const history = await loadHistory(tx, chat.id);
    assertEarlierMatch(history, req.message.id, req.earlier);

    if (req.trigger === 'regenerate-message') {
      const question = userMessageToAnswer(chat, history, req.message.id, 'answered again');
      const agent = await agentForChat(tx, workspaceId, chat, req.agentId);
      const replaced = await branchAt(tx, chat, history, question);
      return { kind: 'run', input: await admit({ agent, history: replaced.history, mode: 'client' }), afterCommit: replaced.orphaned };
    }
    if (req.message.role === 'user') {
      if (chat.parentChatId) throw invalidRequest('message: a sub-chat only works on its delegated task');
      const read = readUserParts(req.message, deps.files.limits);
      const { user, files } = await userMessageOf(tx, deps, owner, chat.id, req.message, read, track);
      await putInChat(tx, chat.id, files);
      if (history.some((m) => m.id === req.message.id)) {
        // A stored id with new text is an edit (the AI SDK's sendMessage with a messageId): a new
        // branch starts there, the old text and what followed it kept as a version.
        const question = userMessageToAnswer(chat, history, req.message.id, 'edited');
        const agent = await agentForChat(tx, workspaceId, chat, req.agentId);
        const replaced = await branchAt(tx, chat, history, question, user);
        // A title the first message gave follows its edit; one the person chose stays.
        if (history[0] === question && chat.title === titleFromText(userMessageText(question))) await renameChat(tx, owner, chat.id, titleOf(read));
        return { kind: 'run', input: await admit({ agent, history: replaced.history, mode: 'client' }), afterCommit: replaced.orphaned };
      }
      // A new message waits for the decisions; an edit (above) replaces the waiting answer, as Regenerate does.
      assertNoPendingApprovals(history);
      await assertNoRunningDelegations(tx, chat.id);
      if (await findMessageChatId(tx, req.message.id)) {
        throw invalidRequest(`message.id: message "${req.message.id}" already exists; history cannot be rewritten`);
      }
      const agent = await agentForChat(tx, workspaceId, chat, req.agentId);
      // An API caller's client tool calls left unanswered end here (see admitServerTurn).
      const settled = settlePendingClientCalls(history.at(-1));
      if (settled) await upsertMessage(tx, chat.id, settled);
      await upsertMessage(tx, chat.id, user);
      const earlier = settled ? [...history.slice(0, -1), settled] : history;
      return { kind: 'run', input: await admit({ agent, history: [...earlier, user], mode: 'client' }), afterCommit: [] };
    }
    const stored = history.at(-1);
    const target = history.find((m) => m.id === req.message.id);
    if (!target || target.role !== 'assistant') throw invalidRequest('message: only the last assistant message can receive tool outputs');
    const outputs = applyClientToolOutputs(target, req.message);
    if (outputs.kind === 'already-answered') {
      // Another tab delivered these outputs first: follow the run that answered them.
      const answered = await latestRunForMessage(tx, chat.id, target.id);
      if (answered && answered.basePartCount > 0) return { kind: 'join', run: answered };
      throw new AppError(409, 'conflict', 'these tool outputs were already delivered: reload the chat to see the answer');
    }
    if (target !== stored) throw invalidRequest('message: only the last assistant message can receive tool outputs');
    const agent = await agentForChat(tx, workspaceId, chat, req.agentId);
    const toStop = await checkNewTaskOutputs(tx, chat, outputs.answered);
    await upsertMessage(tx, chat.id, outputs.merged);
    // A continuation: the run goes on writing the merged assistant message.
    const input = await admit({ agent, history: [...history.slice(0, -1), outputs.merged], mode: 'client' });
    return { kind: 'run', input, afterCommit: toStop };
  });
}
