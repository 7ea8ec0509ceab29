import { titleFromText, type BatonUIMessage } from '@baton/schemas';
import { newId } from '../ids';
import { chatOrigin } from '../services/chat-origin';
import { createChatWithFirstMessage, type ChatOwner } from '../services/chats';
import { putInChat } from '../services/files';
import { storeMessageFiles } from '../services/message-files';
import { writeMessage } from '../services/messages';
import { admitServerTurn } from './prepare-turn';
import { admitRunInNewChat, assertAccepting } from './runs/run-lifecycle';
import type { AgentRow, RuntimeDeps, TurnInput, TurnOverrides } from './runtime-types';

/**
 * A turn asked for through the OpenAI-compatible API: always server-side delegation (the
 * caller cannot run sub-agents), in a new chat or appended to one of the caller's chats.
 */
export interface ApiTurnRequest {
  agent: AgentRow;
  /** New: the whole conversation; continuing: only the messages to append. Ends with a user message. */
  messages: BatonUIMessage[];
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
  return deps.db.transaction(async (tx) => {
    const values = { id: newId('chat'), workspaceId, userId, agentId: req.agent.id, title: titleFromText(req.titleText), ...chatOrigin(owner) };
    // Images and files are stored as files first, then put into the chat once it exists.
    const { messages, files } = await storeMessageFiles(tx, deps.files, owner, values.id, req.messages);
    const [first, ...rest] = messages;
    const chat = await createChatWithFirstMessage(tx, values, first!);
    // In order: each write appends after the chat's last message.
    for (const message of rest) await writeMessage(tx, chat.id, message);
    await putInChat(tx, chat.id, files);
    return admitRunInNewChat(tx, deps.runs.owner, chat, { agent: req.agent, history: messages, mode: 'server', overrides: req.overrides });
  });
}
