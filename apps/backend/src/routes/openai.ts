import { BATON_CHAT_ID_HEADER, chatCompletionRequestSchema, responseCreateRequestSchema } from '@baton/schemas';
import { Hono, type Context } from 'hono';
import { describeRoute } from 'hono-openapi';
import type { AppEnv } from '../http/access';
import { limitBody } from '../http/body-limit';
import { apiCors } from '../http/cors';
import { requireApiKey } from '../openai-compat/api-key-auth';
import { chatCompletion, runFailure } from '../openai-compat/completion';
import { completionStreamResponse } from '../openai-compat/completion-stream';
import { handleOpenAiError, invalidBody, OpenAiHttpError, openAiErrorBody } from '../openai-compat/errors';
import { listModelAgents, requireModelAgent, toOpenAiModel } from '../openai-compat/models';
import { startCompletion } from '../openai-compat/start-completion';
import { innermostIssue } from '../openai-compat/request-issues';
import { responseStreamResponse } from '../openai-compat/response-stream';
import { responseObject } from '../openai-compat/response-object';
import { startResponse } from '../openai-compat/start-response';
import { retrieveResponse } from '../openai-compat/stored-response';
import type { AppDeps } from './deps';
import { v1Docs } from './openai-docs';
import type { z } from 'zod';

/** As on /api (app.ts). */
const MAX_BODY_BYTES = 1024 * 1024;

/** `messages.0.content` → `messages[0].content`, as OpenAI names request fields. */
const paramName = (path: PropertyKey[]) =>
  path.reduce<string>((out, p) => (typeof p === 'number' ? `${out}[${p}]` : out ? `${out}.${String(p)}` : String(p)), '');

/** The body parsed with the endpoint's schema; the first problem is a 400 naming its field. */
async function readRequest<T>(c: Context, schema: z.ZodType<T>, { deepUnions = false } = {}): Promise<T> {
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    throw invalidBody('the request body is not valid JSON', null, 'invalid_json');
  }
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = deepUnions ? innermostIssue(parsed.error.issues[0]!) : parsed.error.issues[0]!;
  const param = paramName(issue.path);
  throw invalidBody(param ? `${param}: ${issue.message}` : issue.message, param || null);
}

const chatIdHeader = (c: Context) => c.req.header(BATON_CHAT_ID_HEADER)?.trim() || undefined;

/**
 * Mounted at /v1 (next to /api, not under it): Baton's agents behind OpenAI's Chat
 * Completions API, for OpenAI clients pointed at `<backend>/v1` with a Baton API key.
 * Every call runs as a chat of the key's owner, with server-side delegation.
 */
export function openAiRoutes(deps: AppDeps) {
  const v1 = new Hono<AppEnv>();
  v1.onError(handleOpenAiError);
  // First: a preflight carries no API key, and a browser reads no answer (an error neither) without these headers.
  v1.use('*', apiCors(deps.corsOrigins ?? []));
  v1.use(
    '*',
    limitBody(MAX_BODY_BYTES, (c) => c.json(openAiErrorBody('invalid_request_error', 'payload_too_large', 'the request body is over 1 MiB'), 413)),
  );
  v1.use('*', requireApiKey(deps.db));

  v1.get('/models', describeRoute(v1Docs.models), async (c) => {
    const agents = await listModelAgents(deps.db, c.get('access').workspaceId);
    return c.json({ object: 'list', data: agents.map(toOpenAiModel) });
  });

  v1.get('/models/:id', describeRoute(v1Docs.model), async (c) =>
    c.json(toOpenAiModel(await requireModelAgent(deps.db, c.get('access').workspaceId, c.req.param('id')))),
  );

  v1.post('/chat/completions', describeRoute(v1Docs.chatCompletions), async (c) => {
    const req = await readRequest(c, chatCompletionRequestSchema);
    const { turn, ids, chatId, scope } = await startCompletion(deps, c.get('access'), req, chatIdHeader(c));
    const headers = { [BATON_CHAT_ID_HEADER]: chatId };
    if (req.stream) {
      return completionStreamResponse(turn.local.channel.read(), turn.result, ids, {
        includeUsage: req.stream_options?.include_usage === true,
        headers,
        keepAliveMs: deps.streamKeepAliveMs,
        scope,
      });
    }
    const result = await turn.result;
    c.header(BATON_CHAT_ID_HEADER, chatId);
    const failure = runFailure(result);
    if (failure) throw failure;
    return c.json(chatCompletion(ids, result, scope));
  });

  v1.post('/responses', describeRoute(v1Docs.responses), async (c) => {
    const req = await readRequest(c, responseCreateRequestSchema, { deepUnions: true });
    const started = await startResponse(deps, c.get('access'), req, chatIdHeader(c));
    if (req.stream) {
      const options = { headers: { [BATON_CHAT_ID_HEADER]: started.chatId }, keepAliveMs: deps.streamKeepAliveMs };
      return responseStreamResponse(started.turn.local.channel.read(), started.turn.result, started.responseIds, started.scope, options);
    }
    c.header(BATON_CHAT_ID_HEADER, started.chatId);
    const result = await started.turn.result;
    const failure = runFailure(result);
    if (failure) throw failure;
    return c.json(responseObject(started.responseIds, result, started.scope));
  });

  v1.get('/responses/:id', describeRoute(v1Docs.response), async (c) => c.json(await retrieveResponse(deps.db, c.get('access'), c.req.param('id'))));

  v1.all('*', (c) => {
    throw new OpenAiHttpError(404, 'invalid_request_error', 'unknown_url', `Unknown request URL: ${c.req.method} ${c.req.path}`);
  });
  return v1;
}
