import { BATON_CHAT_ID_HEADER, type ResponseCreateRequest } from '@baton/schemas';
import type { RuntimeDeps } from '../agent/runtime-types';
import type { WorkspaceAccess } from '../services/members';
import { findChat } from '../services/chat-repository';
import { isOnActiveBranch, loadHistory } from '../services/messages';
import { invalidBody } from './errors';
import type { ResponseIds } from './response-object';
import { completionRequestOf, inInputTerms, messagesOfInput, withInstructions } from './responses-input';
import { type StartedCompletion, startCompletion } from './start-completion';
import { findOwnedResponseRun, referencedText } from './stored-response';

export interface StartedResponse extends StartedCompletion {
  responseIds: ResponseIds;
}

/** The system texts a chat of the key's user holds (its callers' instructions so far). */
async function storedInstructions(deps: RuntimeDeps, access: WorkspaceAccess, chatId: string | undefined): Promise<Set<string>> {
  if (!chatId || chatId.includes('\u0000') || !(await findChat(deps.db, access, chatId))) return new Set();
  const history = await loadHistory(deps.db, chatId);
  return new Set(history.filter((m) => m.role === 'system').flatMap((m) => m.parts.flatMap((p) => (p.type === 'text' ? [p.text] : []))));
}

/**
 * A Responses request as a Chat Completions turn (start-completion.ts): `previous_response_id`
 * names the chat to continue (as `X-Baton-Chat-Id` does, which is taken too), the input items
 * become messages, the parameters their Chat Completions counterparts.
 */
export async function startResponse(
  deps: RuntimeDeps,
  access: WorkspaceAccess,
  req: ResponseCreateRequest,
  headerChatId: string | undefined,
): Promise<StartedResponse> {
  const previous = req.previous_response_id ? await findOwnedResponseRun(deps.db, access, req.previous_response_id, 'previous_response_id') : undefined;
  if (previous && headerChatId && headerChatId !== previous.chat.id) {
    throw invalidBody(`previous_response_id: the response belongs to another chat than ${BATON_CHAT_ID_HEADER} names`, 'previous_response_id');
  }
  // A response on a branch that is no longer active (a message before it was edited or answered
  // again): the chat would go on from its active branch, not from that response.
  if (previous && !(await isOnActiveBranch(deps.db, previous.chat.id, previous.run.messageId))) {
    throw invalidBody(
      'previous_response_id: this response is on a branch of its chat that is no longer active (a message before it was edited or regenerated); continue from the latest response, or switch back to its version first (POST /api/workspaces/:ws/chats/:id/messages/:messageId/activate)',
      'previous_response_id',
    );
  }
  const chatId = previous?.chat.id ?? headerChatId;
  const input = await messagesOfInput(req.input, (id, param) => referencedText(deps.db, access, id, param));
  const { messages, params } = withInstructions(input, req.instructions, await storedInstructions(deps, access, chatId));
  const started = await startCompletion(deps, access, completionRequestOf(req, messages), chatId).catch((err: unknown) => {
    throw inInputTerms(err, params);
  });
  const echo = {
    instructions: req.instructions ?? null,
    temperature: req.temperature ?? null,
    top_p: req.top_p ?? null,
    max_output_tokens: req.max_output_tokens ?? null,
    tool_choice: req.tool_choice ?? 'auto',
    tools: req.tools ?? [],
    ...(req.text?.format ? { text: { format: req.text.format } } : {}),
  };
  const responseIds = {
    runId: started.runId,
    createdAt: started.ids.created,
    model: started.ids.model,
    previousResponseId: req.previous_response_id ?? null,
    echo,
  };
  return { ...started, responseIds };
}
