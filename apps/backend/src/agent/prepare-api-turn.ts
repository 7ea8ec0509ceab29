import { titleFromText, type BatonUIMessage } from '@baton/schemas';
import { newId } from '../ids';
import { chatOrigin } from '../services/chat-origin';
import { createChatWithFirstMessage } from '../services/chats-by-id';
import type { ChatOwner } from '../services/chat-rows';
import { putInChat } from '../services/files';
import { removingCreatedOnFailure, storeMessageFiles } from '../services/message-files';
import { writeMessage } from '../services/messages';
import { loadHistory, upsertMessage } from '../services/messages';
import { invalidRequest } from '../errors';
import { applyApiToolOutputs, type ApiToolOutput } from './api-tool-outputs';
import { admitServerTurn } from './prepare-server-turn';
import { agentForChat, assertNoPendingApprovals } from './turn-checks';
import { admitRun, admitRunInNewChat, assertAccepting } from './runs/run-lifecycle';
import type { AgentRow, RuntimeDeps, TurnInput, TurnOverrides } from './runtime-types';

/**
 * A turn asked for through the OpenAI-compatible API: always server-side delegation (the
 * caller cannot run sub-agents), in a new chat or appended to one of the caller's chats.
 */
export interface ApiTurnRequest {
  agent: AgentRow;
  /**
   * New: the whole conversation (ending with a user message, or with an assistant message
   * whose client tool calls have their outputs, which the answer continues); continuing: only
   * the messages to append, ending with a user message.
   */
  messages: BatonUIMessage[];
  /** Continuing (`chatId`) with the outputs of the client tool calls the chat's last answer waits for, instead of messages. */
  toolOutputs?: ApiToolOutput[];
  /** Continue this chat (`X-Baton-Chat-Id`). */
  chatId?: string;
  /** Titles a new chat. */
  titleText: string;
  overrides?: TurnOverrides;
}

/** Stores the messages and admits the run in one transaction, like every other turn. */
export async function prepareApiTurn(deps: RuntimeDeps, owner: ChatOwner, req: ApiTurnRequest): Promise<TurnInput> {
  assertAccepting(deps);
  if (!req.chatId) return startChat(deps, owner, req);
  if (req.toolOutputs) return continueWithToolOutputs(deps, owner, req.chatId, req, req.toolOutputs);
  return admitServerTurn(deps, owner, req.chatId, {
    messages: req.messages,
    agentId: req.agent.id,
    titleText: req.titleText,
    overrides: req.overrides,
    subChatRefusal: `chat "${req.chatId}" is a sub-chat: it only works on its delegated task; continue its top-level chat`,
  });
}

function startChat(deps: RuntimeDeps, owner: ChatOwner, req: ApiTurnRequest): Promise<TurnInput> {
  const { workspaceId, userId } = owner;
  return removingCreatedOnFailure(deps.files.store, (track) =>
    deps.db.transaction(async (tx) => {
      const values = { id: newId('chat'), workspaceId, userId, agentId: req.agent.id, title: titleFromText(req.titleText), ...chatOrigin(owner) };
      // Images and files are stored as files first, then put into the chat once it exists.
      const { messages, files, created } = await storeMessageFiles(tx, deps.files, owner, values.id, req.messages);
      track(created);
      const [first, ...rest] = messages;
      const chat = await createChatWithFirstMessage(tx, values, first!);
      // In order: each write appends after the chat's last message.
      for (const message of rest) await writeMessage(tx, chat.id, message);
      await putInChat(tx, chat.id, files);
      return admitRunInNewChat(tx, deps.runs.owner, chat, { agent: req.agent, history: messages, mode: 'server', overrides: req.overrides });
    }),
  );
}

/**
 * The caller's outputs for the client tool calls its last answer ended with: given to those
 * calls in the stored message, whose answer then goes on (a continuation of the same message,
 * like the browser's tool outputs), on the locked chat.
 */
function continueWithToolOutputs(deps: RuntimeDeps, owner: ChatOwner, chatId: string, req: ApiTurnRequest, outputs: ApiToolOutput[]): Promise<TurnInput> {
  return admitRun(deps, { chat: { owner, id: chatId }, by: 'request' }, async ({ tx, chat, assertIdle, admit }) => {
    if (chat.parentChatId) throw invalidRequest(`chat "${chatId}" is a sub-chat: it only works on its delegated task; continue its top-level chat`);
    await assertIdle();
    const agent = await agentForChat(tx, owner.workspaceId, chat, req.agent.id);
    const history = await loadHistory(tx, chat.id);
    // A delegation of the same answer waiting for a person's decision goes first (the answer goes on after it).
    assertNoPendingApprovals(history);
    const merged = applyApiToolOutputs(history.at(-1), outputs);
    await upsertMessage(tx, chat.id, merged);
    return admit({ agent, history: [...history.slice(0, -1), merged], mode: 'server', overrides: req.overrides });
  });
}
