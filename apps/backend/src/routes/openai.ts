import { BATON_CHAT_ID_HEADER, chatCompletionRequestSchema, type ChatCompletionRequest } from '@baton/schemas';
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { prepareApiTurn } from '../agent/prepare-api-turn';
import { startTurn } from '../agent/runs/execute-run';
import type { TurnOverrides } from '../agent/turn';
import { AppError } from '../errors';
import type { AppEnv } from '../http/access';
import { requireApiKey } from '../openai-compat/api-key-auth';
import { chatCompletion, runFailure } from '../openai-compat/completion';
import { completionStreamResponse } from '../openai-compat/completion-stream';
import { handleOpenAiError, invalidBody, OpenAiHttpError, openAiErrorBody } from '../openai-compat/errors';
import { continuationMessages, newChatMessages, titleText } from '../openai-compat/messages';
import { listModelAgents, requireModelAgent, toOpenAiModel } from '../openai-compat/models';
import type { AppDeps } from './deps';

const MAX_BODY_BYTES = 1024 * 1024;

/** `messages.0.content` → `messages[0].content`, as OpenAI names request fields. */
const paramName = (path: PropertyKey[]) =>
  path.reduce<string>((out, p) => (typeof p === 'number' ? `${out}[${p}]` : out ? `${out}.${String(p)}` : String(p)), '');

async function readRequest(c: Context): Promise<ChatCompletionRequest> {
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    throw invalidBody('the request body is not valid JSON', null, 'invalid_json');
  }
  const parsed = chatCompletionRequestSchema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const param = paramName(issue.path);
  throw invalidBody(param ? `${param}: ${issue.message}` : issue.message, param || null);
}

function overridesOf(req: ChatCompletionRequest): TurnOverrides {
  const caps = [req.max_tokens, req.max_completion_tokens].filter((n): n is number => typeof n === 'number');
  return {
    ...(typeof req.temperature === 'number' ? { temperature: req.temperature } : {}),
    ...(caps.length > 0 ? { maxOutputTokens: Math.min(...caps) } : {}),
  };
}

/**
 * Mounted at /v1 (next to /api, not under it): Baton's agents behind OpenAI's Chat
 * Completions API, for OpenAI clients pointed at `<backend>/v1` with a Baton API key.
 * Every call runs as a chat of the key's owner, with server-side delegation.
 */
export function openAiRoutes(deps: AppDeps) {
  const v1 = new Hono<AppEnv>();
  v1.onError(handleOpenAiError);
  v1.use(
    '*',
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: (c) => {
        c.header('Connection', 'close');
        return c.json(openAiErrorBody('invalid_request_error', 'payload_too_large', 'the request body is over 1 MiB'), 413);
      },
    }),
  );
  v1.use('*', requireApiKey(deps.db));

  v1.get('/models', async (c) => {
    const agents = await listModelAgents(deps.db, c.get('access').workspaceId);
    return c.json({ object: 'list', data: agents.map(toOpenAiModel) });
  });

  v1.get('/models/:id', async (c) => c.json(toOpenAiModel(await requireModelAgent(deps.db, c.get('access').workspaceId, c.req.param('id')))));

  v1.post('/chat/completions', async (c) => {
    const req = await readRequest(c);
    const access = c.get('access');
    const chatId = c.req.header(BATON_CHAT_ID_HEADER)?.trim() || undefined;
    if (chatId?.includes('\u0000')) throw invalidBody(`${BATON_CHAT_ID_HEADER}: not a chat id`);
    const messages = chatId ? continuationMessages(req.messages) : newChatMessages(req.messages);
    const agent = await requireModelAgent(deps.db, access.workspaceId, req.model);
    const input = await prepareApiTurn(deps, access, { agent, messages, chatId, titleText: titleText(req.messages), overrides: overridesOf(req) }).catch(
      (err: unknown) => {
        // The only "not found" here is the chat the header names (the agent was found above).
        if (err instanceof AppError && err.status === 404 && chatId) {
          throw new OpenAiHttpError(
            404,
            'invalid_request_error',
            'chat_not_found',
            `chat "${chatId}" was not found (${BATON_CHAT_ID_HEADER} names a chat of this API key's user and workspace)`,
          );
        }
        throw err;
      },
    );
    const turn = startTurn(deps, input);
    const ids = { id: `chatcmpl-${input.run.messageId}`, created: Math.floor(Date.now() / 1000), model: agent.id };
    const headers = { [BATON_CHAT_ID_HEADER]: input.chat.id };
    if (req.stream) {
      return completionStreamResponse(turn.local.channel.read(), turn.result, ids, { includeUsage: req.stream_options?.include_usage === true, headers });
    }
    const result = await turn.result;
    for (const [name, value] of Object.entries(headers)) c.header(name, value);
    const failure = runFailure(result);
    if (failure) throw failure;
    return c.json(chatCompletion(ids, result));
  });

  v1.all('*', (c) => {
    throw new OpenAiHttpError(404, 'invalid_request_error', 'unknown_url', `Unknown request URL: ${c.req.method} ${c.req.path}`);
  });
  return v1;
}
