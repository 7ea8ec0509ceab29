import {
  CANCELLED_RESULT,
  NEW_TASK_TOOL,
  newTaskOutputSchema,
  type ChatMessagesRequest,
  type chatStreamRequestSchema,
  type UIMessageInput,
} from '@baton/schemas';
import type { UIMessage } from 'ai';
import type { z } from 'zod';
import { AppError, invalidRequest } from '../errors';
import { findAgent } from '../services/agents';
import {
  cancelRunningSubChat,
  createChatWithFirstMessage,
  findChat,
  findSubChatForCall,
  renameChat,
  requireChat,
  setChatAgent,
  titleFromText,
} from '../services/chats';
import { deleteMessagesAfter, findMessageChatId, loadHistory, upsertMessage } from '../services/messages';
import { validateSubChatStart } from './delegation';
import { generateMessageId, type AgentRow, type ChatRow, type RuntimeDeps, type TurnInput } from './turn';

type StreamRequest = z.output<typeof chatStreamRequestSchema>;
type Part = { type: string; [key: string]: unknown };

const CLIENT_TOOL_PART = `tool-${NEW_TASK_TOOL}`;

function userText(message: UIMessageInput): string {
  const parts = message.parts as Part[];
  const bad = parts.find((p) => p.type !== 'text' || typeof p.text !== 'string');
  if (bad) throw invalidRequest(`message.parts: a user message may only hold text parts (got "${bad.type}")`);
  const text = parts.map((p) => p.text as string).join('\n');
  if (!text.trim()) throw invalidRequest('message: the text must not be empty');
  return text;
}

function toUserMessage(message: UIMessageInput, text: string): UIMessage {
  return { id: message.id, role: 'user', parts: [{ type: 'text', text }] };
}

async function assertNewMessageId(deps: RuntimeDeps, id: string) {
  if (await findMessageChatId(deps.db, id)) {
    throw invalidRequest(`message.id: message "${id}" already exists; history cannot be rewritten`);
  }
}

async function requireAgent(deps: RuntimeDeps, workspaceId: string, id: string): Promise<AgentRow> {
  const agent = await findAgent(deps.db, workspaceId, id);
  if (!agent) throw invalidRequest(`agentId: agent "${id}" does not exist in this workspace`);
  return agent;
}

function assertIdle(deps: RuntimeDeps, chatId: string) {
  if (deps.runs.isRunning(chatId)) {
    throw new AppError(409, 'conflict', 'this chat is already answering: wait for it to finish, or stop it first');
  }
}

/** The agent a turn in an existing chat runs as; a top-level chat may switch agents. */
async function agentForChat(deps: RuntimeDeps, workspaceId: string, chat: ChatRow, requested?: string): Promise<AgentRow> {
  if (requested && requested !== chat.agentId) {
    if (chat.parentChatId) throw invalidRequest('agentId: a sub-chat always runs its sub-agent');
    const agent = await requireAgent(deps, workspaceId, requested);
    await setChatAgent(deps.db, chat.id, agent.id);
    return agent;
  }
  const agent = chat.agentId ? await findAgent(deps.db, workspaceId, chat.agentId) : undefined;
  if (!agent) throw invalidRequest('agentId: this chat has no agent (it may have been deleted); pass agentId');
  return agent;
}

/**
 * Compares what the client sent with the stored assistant message. The only change a
 * client may make is an output for a pending client-side tool call; the result is the
 * stored message with those outputs applied, so the server's copy stays authoritative.
 */
function applyClientToolOutputs(stored: UIMessage, incoming: UIMessageInput): { merged: UIMessage; answered: Part[] } {
  const storedParts = stored.parts as unknown as Part[];
  const incomingParts = incoming.parts as Part[];
  if (storedParts.length !== incomingParts.length) {
    throw invalidRequest('message: an assistant message can only receive tool outputs; its parts cannot be added or removed');
  }
  const answered: Part[] = [];
  const merged = storedParts.map((part, i) => {
    const next = incomingParts[i]!;
    if (part.type !== next.type || part.toolCallId !== next.toolCallId) {
      throw invalidRequest(`message.parts[${i}]: parts cannot be changed, only tool outputs added`);
    }
    if (part.type !== CLIENT_TOOL_PART || part.state !== 'input-available' || next.state === 'input-available') return part;
    if (next.state === 'output-available') {
      const output = newTaskOutputSchema.safeParse(next.output);
      if (!output.success) throw invalidRequest(`message.parts[${i}].output: ${output.error.issues[0]?.message ?? 'invalid'}`, output.error.issues);
      const updated: Part = { ...part, state: 'output-available', output: output.data };
      answered.push(updated);
      return updated;
    }
    if (next.state === 'output-error' && typeof next.errorText === 'string') {
      const updated: Part = { ...part, state: 'output-error', errorText: next.errorText };
      answered.push(updated);
      return updated;
    }
    throw invalidRequest(`message.parts[${i}]: unsupported tool state "${String(next.state)}"`);
  });
  if (answered.length === 0) throw invalidRequest('message: no new tool outputs; to continue, send a user message');
  const pending = merged.find((p) => p.type === CLIENT_TOOL_PART && p.state === 'input-available');
  if (pending) throw invalidRequest(`message: newTask call "${String(pending.toolCallId)}" still has no output`);
  return { merged: { ...stored, parts: merged as unknown as UIMessage['parts'] }, answered };
}

/** A `newTask` output names a sub-chat of this chat for that call; an error output cancels a still-running sub-chat. */
async function checkNewTaskOutputs(deps: RuntimeDeps, parent: ChatRow, answered: Part[]) {
  for (const part of answered) {
    const output = part.output as { subChatId: string | null; status: string } | undefined;
    const subChat = await findSubChatForCall(deps.db, parent.id, String(part.toolCallId));
    if (output?.subChatId && output.subChatId !== subChat?.id) {
      throw invalidRequest(`output.subChatId: "${output.subChatId}" is not the sub-chat of call "${String(part.toolCallId)}"`);
    }
    if (subChat?.status === 'running' && (part.state === 'output-error' || output?.status === 'error')) {
      await deps.runs.stop(subChat.id);
      await cancelRunningSubChat(deps.db, subChat.id, CANCELLED_RESULT);
    }
  }
}

async function startNewChat(deps: RuntimeDeps, workspaceId: string, req: StreamRequest): Promise<TurnInput> {
  if (req.message.role !== 'user') throw invalidRequest('message: a new chat starts with a user message');
  if (!req.agentId) throw invalidRequest('agentId: required to start a new chat');
  const text = userText(req.message);
  const agent = await requireAgent(deps, workspaceId, req.agentId);
  if (req.parentToolCallId && !req.parentChatId) throw invalidRequest('parentToolCallId is only allowed together with parentChatId');
  const task = req.parentChatId
    ? await validateSubChatStart(deps.db, workspaceId, { parentChatId: req.parentChatId, parentToolCallId: req.parentToolCallId, agentId: agent.id })
    : undefined;
  const user = toUserMessage(req.message, text);
  // The first message of a new chat: inserted directly (seq 1), its id checked by the
  // insert itself. Every query saved here is time to first token.
  const chat = await createChatWithFirstMessage(
    deps.db,
    {
      id: req.id,
      workspaceId,
      agentId: agent.id,
      title: task ? titleFromText(`${agent.name}: ${task.task}`) : titleFromText(text),
      parentChatId: req.parentChatId ?? null,
      parentToolCallId: req.parentToolCallId ?? null,
      delegateTask: task?.task ?? null,
      status: task ? 'running' : null,
    },
    user,
  );
  return { workspaceId, chat, agent, history: [user], mode: 'client' };
}

/** Checks and stores the browser's newest message; returns what the model should answer. */
export async function prepareBrowserTurn(deps: RuntimeDeps, workspaceId: string, req: StreamRequest): Promise<TurnInput> {
  const chat = await findChat(deps.db, workspaceId, req.id);
  if (!chat) return startNewChat(deps, workspaceId, req);
  assertIdle(deps, chat.id);
  if (req.parentChatId && req.parentChatId !== chat.parentChatId) throw invalidRequest('parentChatId does not match the chat');
  const agent = await agentForChat(deps, workspaceId, chat, req.agentId);
  const history = await loadHistory(deps.db, chat.id);

  if (req.trigger === 'regenerate-message') {
    const lastUser = history.findLast((m) => m.role === 'user');
    if (chat.parentChatId || !lastUser || lastUser.id !== req.message.id) {
      throw invalidRequest('message: only the last user message of a top-level chat can be answered again');
    }
    await deleteMessagesAfter(deps.db, chat.id, lastUser.id);
    return { workspaceId, chat, agent, history: history.slice(0, history.indexOf(lastUser) + 1), mode: 'client' };
  }
  if (req.message.role === 'user') {
    if (chat.parentChatId) throw invalidRequest('message: a sub-chat only works on its delegated task');
    const text = userText(req.message);
    await assertNewMessageId(deps, req.message.id);
    const user = toUserMessage(req.message, text);
    await upsertMessage(deps.db, chat.id, user);
    return { workspaceId, chat, agent, history: [...history, user], mode: 'client' };
  }
  const stored = history.at(-1);
  if (!stored || stored.role !== 'assistant' || stored.id !== req.message.id) {
    throw invalidRequest('message: only the last assistant message can receive tool outputs');
  }
  const { merged, answered } = applyClientToolOutputs(stored, req.message);
  await checkNewTaskOutputs(deps, chat, answered);
  await upsertMessage(deps.db, chat.id, merged);
  return { workspaceId, chat, agent, history: [...history.slice(0, -1), merged], mode: 'client' };
}

/** REST: a text message to an existing top-level chat; the server runs delegation itself. */
export async function prepareRestTurn(
  deps: RuntimeDeps,
  workspaceId: string,
  chatId: string,
  req: ChatMessagesRequest,
): Promise<TurnInput> {
  const chat = await requireChat(deps.db, workspaceId, chatId);
  if (chat.parentChatId) throw invalidRequest('a sub-chat only works on its delegated task');
  assertIdle(deps, chat.id);
  const agent = await agentForChat(deps, workspaceId, chat, req.agentId);
  const history = await loadHistory(deps.db, chat.id);
  const user: UIMessage = { id: generateMessageId(), role: 'user', parts: [{ type: 'text', text: req.text }] };
  await upsertMessage(deps.db, chat.id, user);
  if (history.length === 0 && chat.title === 'New chat') {
    await renameChat(deps.db, workspaceId, chat.id, titleFromText(req.text));
  }
  return { workspaceId, chat, agent, history: [...history, user], mode: 'server' };
}
