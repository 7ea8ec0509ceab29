import { BATON_CHAT_ID_HEADER, readMessageMetadata, type ChatCompletionRequest } from '@baton/schemas';
import { prepareApiTurn } from '../agent/prepare-api-turn';
import { startTurn } from '../agent/runs/execute-run';
import type { ClientToolSpec, RuntimeDeps, StartedTurn, TurnOverrides } from '../agent/runtime-types';
import { AppError } from '../errors';
import type { WorkspaceAccess } from '../services/members';
import { clientToolSpecs, toolChoiceOf } from './client-tools';
import type { AnswerScope, CompletionIds } from './completion';
import { invalidBody, OpenAiHttpError } from './errors';
import { continuationMessages, fetchImageParts, newChatMessages, titleText } from './messages';
import { requireModelAgent } from './models';

export interface StartedCompletion {
  turn: StartedTurn;
  ids: CompletionIds;
  chatId: string;
  /** The run writing this call's answer (a Responses response is named after it). */
  runId: string;
  /** Where this call's part of the answer starts: a continuation after client tool outputs goes on writing the same message. */
  scope: AnswerScope;
}

/** Sent to the provider as they are: Baton speaks the same protocol to it (agent/call-settings.ts). */
const PROVIDER_FIELDS = ['response_format', 'user', 'safety_identifier', 'parallel_tool_calls', 'reasoning_effort', 'verbosity', 'logit_bias'] as const;

const defined = <T extends object>(o: T) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null)) as Partial<T>;

/** The request's parameters as the turn's settings; every accepted parameter is in one of them (schema: IGNORED_CHAT_COMPLETION_PARAMS aside). */
function overridesOf(req: ChatCompletionRequest, clientTools: ClientToolSpec[]): TurnOverrides {
  const caps = [req.max_tokens, req.max_completion_tokens].filter((n): n is number => typeof n === 'number');
  const providerFields = defined(Object.fromEntries(PROVIDER_FIELDS.map((key) => [key, req[key]])));
  return defined({
    temperature: req.temperature ?? undefined,
    maxOutputTokens: caps.length > 0 ? Math.min(...caps) : undefined,
    topP: req.top_p ?? undefined,
    frequencyPenalty: req.frequency_penalty ?? undefined,
    presencePenalty: req.presence_penalty ?? undefined,
    seed: req.seed ?? undefined,
    stopSequences: typeof req.stop === 'string' ? [req.stop] : (req.stop ?? undefined),
    toolChoice: toolChoiceOf(req.tool_choice),
    providerFields: Object.keys(providerFields).length > 0 ? providerFields : undefined,
    clientTools: clientTools.length > 0 ? clientTools : undefined,
  });
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
  const added = chatId ? continuationMessages(fetched) : { messages: newChatMessages(fetched) };
  const agent = await requireModelAgent(deps.db, access.workspaceId, req.model);
  const overrides = overridesOf(req, clientToolSpecs(req, agent));
  const request = { agent, messages: added.messages, toolOutputs: added.toolOutputs, chatId, titleText: titleText(req.messages), overrides };
  const input = await prepareApiTurn(deps, access, request).catch((err: unknown) => {
    // The only "not found" here is the chat the header names (the agent was found above).
    if (err instanceof AppError && err.status === 404 && chatId) {
      const message = `chat "${chatId}" was not found (${BATON_CHAT_ID_HEADER} names a chat of this API key's user and workspace)`;
      throw new OpenAiHttpError(404, 'invalid_request_error', 'chat_not_found', message);
    }
    throw err;
  });
  const turn = startTurn(deps, input);
  const continued = input.history.at(-1)?.role === 'assistant' ? input.history.at(-1) : undefined;
  return {
    turn,
    chatId: input.chat.id,
    runId: input.run.id,
    ids: { id: `chatcmpl-${input.run.messageId}`, created: Math.floor(Date.now() / 1000), model: agent.id },
    scope: {
      fromPart: input.run.basePartCount,
      earlierUsage: readMessageMetadata(continued?.metadata).usage,
      clientToolNames: new Set(overrides.clientTools?.map((t) => t.name)),
    },
  };
}
