import { RUN_ERROR_PART, type BatonUIMessage, type ResponseObject, type RunErrorData } from '@baton/schemas';
import type { TurnResult } from '../agent/runtime-types';
import type { Database } from '../db/client';
import { findAgent } from '../services/agents';
import { findChat } from '../services/chat-repository';
import type { ChatRow } from '../services/chat-rows';
import type { WorkspaceAccess } from '../services/members';
import { findMessage } from '../services/messages';
import { findRun, previousTurnRun, type RunRow, turnRunsOfMessage } from '../services/runs';
import { storedClientToolCalls } from './client-tools';
import { type AnswerScope, answerText } from './completion';
import { OpenAiHttpError } from './errors';
import { responseIdOf, responseObject, runIdOfMessageItem, runIdOfResponse } from './response-object';

const notFound = (what: string, id: string, param: string | null) =>
  new OpenAiHttpError(
    404,
    'invalid_request_error',
    'not_found',
    `${what} "${id}" was not found (it names a response of this API key's user and workspace)`,
    param,
  );

/** A response's run and chat, when the chat is one of the key's user in the key's workspace (else 404, as for a chat of another). */
export async function findOwnedResponseRun(
  db: Database,
  access: WorkspaceAccess,
  responseId: string,
  param: string | null = null,
): Promise<{ run: RunRow; chat: ChatRow }> {
  const runId = runIdOfResponse(responseId);
  const run = runId && !runId.includes('\u0000') ? await findRun(db, runId) : undefined;
  const chat = run?.kind === 'turn' ? await findChat(db, access, run.chatId) : undefined;
  if (!run || !chat) throw notFound('response', responseId, param);
  return { run, chat };
}

/** Where a response's part of its message ends: where the next run of the same message (a client tool loop's next call) began. */
async function scopeOf(db: Database, run: RunRow): Promise<{ scope: AnswerScope; toPart?: number; alone: boolean }> {
  const runs = await turnRunsOfMessage(db, run.chatId, run.messageId);
  const next = runs.find((r) => r.basePartCount > run.basePartCount);
  return { scope: { fromPart: run.basePartCount, clientToolNames: new Set() }, toPart: next?.basePartCount, alone: runs.length <= 1 };
}

/** The stored run as the result a live call would have had (its failure from the note the message keeps). */
function storedResult(run: RunRow, message: BatonUIMessage | undefined): TurnResult | undefined {
  if (run.status === 'running') return undefined;
  const note = message?.parts.findLast((p) => p.type === RUN_ERROR_PART) as { data?: RunErrorData } | undefined;
  const error = note?.data ?? (run.error ? { code: 'internal_error' as const, message: run.error } : undefined);
  return { status: run.status, responseMessage: message, error, steps: run.steps };
}

/**
 * `GET /v1/responses/:id`: the response as the chat holds it now — the run's part of its
 * message, `in_progress` while it runs. Usage: the message's, delegated tokens included; a
 * response of a client tool loop (one message written by several runs) counts its run's own tokens.
 */
export async function retrieveResponse(db: Database, access: WorkspaceAccess, responseId: string): Promise<ResponseObject> {
  const { run, chat } = await findOwnedResponseRun(db, access, responseId);
  const stored = await findMessage(db, chat.id, run.messageId);
  const { scope, toPart, alone } = await scopeOf(db, run);
  const message = stored && toPart !== undefined ? { ...stored, parts: stored.parts.slice(0, toPart) } : stored;
  const previous = await previousTurnRun(db, chat.id, run.startedAt);
  const ids = {
    runId: run.id,
    createdAt: Math.floor(run.startedAt.getTime() / 1000),
    model: chat.agentId ?? '',
    previousResponseId: previous ? responseIdOf(previous.id) : null,
  };
  // Its calls of the caller's tools, answered since or not (a later call may have given their outputs).
  const agent = chat.agentId ? await findAgent(db, access.workspaceId, chat.agentId) : undefined;
  const calls = storedClientToolCalls(message, scope.fromPart, agent);
  const response = responseObject(ids, storedResult(run, message), scope, calls);
  if (!alone && response.usage) {
    const own = { inputTokens: run.inputTokens, outputTokens: run.outputTokens };
    const total = run.inputTokens + run.outputTokens;
    response.usage = {
      ...response.usage,
      input_tokens: run.inputTokens,
      output_tokens: run.outputTokens,
      total_tokens: total,
      baton: { own, delegated: { inputTokens: 0, outputTokens: 0 } },
    };
  }
  return response;
}

/**
 * An `item_reference` to an earlier response's message item (`msg_<run id>`), as the AI SDK
 * sends the assistant's text back: that response's text, when it is the key's user's.
 */
export async function referencedText(db: Database, access: WorkspaceAccess, itemId: string, param: string): Promise<string> {
  const runId = runIdOfMessageItem(itemId);
  if (!runId)
    throw new OpenAiHttpError(
      400,
      'invalid_request_error',
      'invalid_request',
      `${param}: only message items of Baton's responses (msg_…) can be referenced`,
      param,
    );
  const { run, chat } = await findOwnedResponseRun(db, access, responseIdOf(runId), param);
  const stored = await findMessage(db, chat.id, run.messageId);
  const { toPart } = await scopeOf(db, run);
  const text = answerText(stored && { ...stored, parts: stored.parts.slice(0, toPart) }, run.basePartCount);
  if (!text) throw notFound('message item', itemId, param);
  return text;
}
