import { titleFromText, type BatonUIMessage, type ChatMessagesRequest } from '@baton/schemas';
import { invalidRequest } from '../errors';
import { generateMessageId } from '../ids';
import { renameChat } from '../services/chat-repository';
import type { ChatOwner } from '../services/chat-rows';
import { putInChat } from '../services/files';
import { removingCreatedOnFailure, storeMessageFiles } from '../services/message-files';
import { loadHistory, upsertMessage } from '../services/messages';
import { branchAt, userMessageText, userMessageToAnswer } from './answer-again';
import { settlePendingClientCalls } from './api-tool-outputs';
import { admitRun } from './runs/run-lifecycle';
import type { RuntimeDeps, TurnInput, TurnOverrides } from './runtime-types';
import { agentForChat, assertNoPendingApprovals, assertNoRunningDelegations } from './turn-checks';

/**
 * New user messages for an existing top-level chat, answered with server-side delegation
 * (REST and the OpenAI-compatible API): stored and their run admitted on the locked chat.
 */
export function admitServerTurn(
  deps: RuntimeDeps,
  owner: ChatOwner,
  chatId: string,
  turn: { messages: BatonUIMessage[]; agentId?: string; titleText: string; overrides?: TurnOverrides; subChatRefusal: string; edit?: boolean },
): Promise<TurnInput> {
  return removingCreatedOnFailure(deps.files.store, (track) =>
    admitRun(deps, { chat: { owner, id: chatId }, by: 'request' }, async ({ tx, chat, assertIdle, admit }) => {
      if (chat.parentChatId) throw invalidRequest(turn.subChatRefusal);
      await assertIdle();
      const agent = await agentForChat(tx, owner.workspaceId, chat, turn.agentId);
      const history = await loadHistory(tx, chat.id);
      await assertNoRunningDelegations(tx, chat.id);
      if (turn.edit) {
        // REST's edit (`editMessageId`): one user message replacing a user message of the active branch, as the browser's edit does.
        const question = userMessageToAnswer(chat, history, turn.messages[0]!.id, 'edited');
        const { messages, files, created } = await storeMessageFiles(tx, deps.files, owner, chat.id, turn.messages);
        track(created);
        const replaced = await branchAt(tx, chat, history, question, messages[0]);
        await putInChat(tx, chat.id, files);
        if (history[0] === question && chat.title === titleFromText(userMessageText(question)))
          await renameChat(tx, owner, chat.id, titleFromText(turn.titleText));
        return admit({ agent, history: replaced.history, mode: 'server', overrides: turn.overrides });
      }
      assertNoPendingApprovals(history);
      // Client tool calls the API caller never answered end here, with an error output the model reads.
      const settled = settlePendingClientCalls(history.at(-1));
      if (settled) {
        await upsertMessage(tx, chat.id, settled);
        history[history.length - 1] = settled;
      }
      const { messages, files, created } = await storeMessageFiles(tx, deps.files, owner, chat.id, turn.messages);
      track(created);
      for (const message of messages) await upsertMessage(tx, chat.id, message);
      await putInChat(tx, chat.id, files);
      if (history.length === 0 && chat.title === 'New chat') await renameChat(tx, owner, chat.id, titleFromText(turn.titleText));
      return admit({ agent, history: [...history, ...messages], mode: 'server', overrides: turn.overrides });
    }),
  );
}

/**
 * REST: a message to an existing top-level chat — its files first, then its text, as the web
 * app sends them — stored with its files like a `/v1` message; the server runs delegation itself.
 * With `editMessageId` it replaces that user message, starting a branch.
 */
export function prepareRestTurn(deps: RuntimeDeps, owner: ChatOwner, chatId: string, req: ChatMessagesRequest): Promise<TurnInput> {
  const files = req.files.map(({ mediaType, filename, url }) => ({ type: 'file' as const, mediaType, url, ...(filename === undefined ? {} : { filename }) }));
  const parts: BatonUIMessage['parts'] = [...files, ...(req.text ? [{ type: 'text' as const, text: req.text }] : [])];
  const user: BatonUIMessage = { id: req.editMessageId ?? generateMessageId(), role: 'user', parts };
  return admitServerTurn(deps, owner, chatId, {
    messages: [user],
    edit: req.editMessageId !== undefined,
    agentId: req.agentId,
    titleText: req.text || req.files.map((f) => f.filename ?? 'file').join(', '),
    subChatRefusal: 'a sub-chat only works on its delegated task',
  });
}
