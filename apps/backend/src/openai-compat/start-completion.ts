import { BATON_CHAT_ID_HEADER, type ChatCompletionRequest } from '@baton/schemas';
import { prepareApiTurn } from '../agent/prepare-api-turn';
import { startTurn } from '../agent/runs/execute-run';
import type { RuntimeDeps, StartedTurn, TurnOverrides } from '../agent/runtime-types';
import { AppError } from '../errors';
import type { WorkspaceAccess } from '../services/members';
import type { CompletionIds } from './completion';
import { invalidBody, OpenAiHttpError } from './errors';
import { continuationMessages, fetchImageParts, newChatMessages, titleText } from './messages';
import { requireModelAgent } from './models';

export interface StartedCompletion {
  turn: StartedTurn;
  ids: CompletionIds;
  chatId: string;
}

function overridesOf(req: ChatCompletionRequest): TurnOverrides {
  const caps = [req.max_tokens, req.max_completion_tokens].filter((n): n is number => typeof n === 'number');
  return {
    ...(typeof req.temperature === 'number' ? { temperature: req.temperature } : {}),
    ...(caps.length > 0 ? { maxOutputTokens: Math.min(...caps) } : {}),
  };
}

/**
 * A chat completion request as a Baton turn: the agent the `model` names, the messages
 * stored (a new chat, or appended to the one `chatId` names) and its run started.
 */
export async function startCompletion(
  deps: RuntimeDeps,
  access: WorkspaceAccess,
  req: ChatCompletionRequest,
  chatId: string | undefined,
): Promise<StartedCompletion> {
  if (chatId?.includes('\u0000')) throw invalidBody(`${BATON_CHAT_ID_HEADER}: not a chat id`);
  const fetched = await fetchImageParts(req.messages, deps.outbound.providerFetch);
  const messages = chatId ? continuationMessages(fetched) : newChatMessages(fetched);
  const agent = await requireModelAgent(deps.db, access.workspaceId, req.model);
  const request = { agent, messages, chatId, titleText: titleText(req.messages), overrides: overridesOf(req) };
  const input = await prepareApiTurn(deps, access, request).catch((err: unknown) => {
    // The only "not found" here is the chat the header names (the agent was found above).
    if (err instanceof AppError && err.status === 404 && chatId) {
      const message = `chat "${chatId}" was not found (${BATON_CHAT_ID_HEADER} names a chat of this API key's user and workspace)`;
      throw new OpenAiHttpError(404, 'invalid_request_error', 'chat_not_found', message);
    }
    throw err;
  });
  const turn = startTurn(deps, input);
  return { turn, chatId: input.chat.id, ids: { id: `chatcmpl-${input.run.messageId}`, created: Math.floor(Date.now() / 1000), model: agent.id } };
}
