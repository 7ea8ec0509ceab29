import { titleFromText } from '@baton/schemas';
import type { UIMessage } from 'ai';
import { invalidRequest, notFound } from '../errors';
import { generateMessageId, newId } from '../ids';
import { createChatWithFirstMessage, lockChat, renameChat, type ChatOwner } from '../services/chats';
import { loadHistory, upsertMessage, writeMessage } from '../services/messages';
import { findActiveRun } from '../services/runs';
import { agentForChat, assertAccepting, assertNoPendingApprovals, assertNoRunningDelegations, busy, startRun } from './prepare-turn';
import type { AgentRow, RuntimeDeps, TurnInput, TurnOverrides } from './runtime-types';

/**
 * A turn asked for through the OpenAI-compatible API: always server-side delegation (the
 * caller cannot run sub-agents), in a new chat or appended to one of the caller's chats.
 */
export interface ApiTurnRequest {
  agent: AgentRow;
  /** New: the whole conversation; continuing: only the messages to append. Ends with a user message. */
  messages: UIMessage[];
  /** Continue this chat (`X-Baton-Chat-Id`). */
  chatId?: string;
  /** Titles a new chat. */
  titleText: string;
  overrides?: TurnOverrides;
}

/** Stores the messages and starts the run in one transaction, like every other turn. */
export async function prepareApiTurn(deps: RuntimeDeps, owner: ChatOwner, req: ApiTurnRequest): Promise<TurnInput> {
  assertAccepting(deps);
  return req.chatId ? continueChat(deps, owner, req, req.chatId) : startChat(deps, owner, req);
}

function startChat(deps: RuntimeDeps, owner: ChatOwner, req: ApiTurnRequest): Promise<TurnInput> {
  const { workspaceId, userId } = owner;
  const [first, ...rest] = req.messages;
  return deps.db.transaction(async (tx) => {
    const values = { id: newId('chat'), workspaceId, userId, agentId: req.agent.id, title: titleFromText(req.titleText) };
    const chat = await createChatWithFirstMessage(tx, values, first!);
    // In order: each write appends after the chat's last message.
    for (const message of rest) await writeMessage(tx, chat.id, message);
    const run = await startRun(tx, deps, chat, 'server', generateMessageId(), 0);
    return { workspaceId, chat, agent: req.agent, history: req.messages, mode: 'server', run, overrides: req.overrides };
  });
}

function continueChat(deps: RuntimeDeps, owner: ChatOwner, req: ApiTurnRequest, chatId: string): Promise<TurnInput> {
  const { workspaceId } = owner;
  return deps.db.transaction(async (tx) => {
    const chat = await lockChat(tx, owner, chatId);
    if (!chat) throw notFound('Chat', chatId);
    if (chat.parentChatId) throw invalidRequest(`chat "${chatId}" is a sub-chat: it only works on its delegated task; continue its top-level chat`);
    if (await findActiveRun(tx, chat.id)) throw busy();
    const agent = await agentForChat(tx, workspaceId, chat, req.agent.id);
    const history = await loadHistory(tx, chat.id);
    assertNoPendingApprovals(history);
    await assertNoRunningDelegations(tx, chat.id);
    for (const message of req.messages) await upsertMessage(tx, chat.id, message);
    if (history.length === 0 && chat.title === 'New chat') await renameChat(tx, owner, chat.id, titleFromText(req.titleText));
    const run = await startRun(tx, deps, chat, 'server', generateMessageId(), 0);
    return { workspaceId, chat, agent, history: [...history, ...req.messages], mode: 'server', run, overrides: req.overrides };
  });
}
