import {
  BATON_CHAT_ID_HEADER,
  chatCompletionRequestSchema,
  chatCompletionSchema,
  openAiErrorSchema,
  openAiModelListSchema,
  openAiModelSchema,
  responseCreateRequestSchema,
  responseObjectSchema,
} from '@baton/schemas';
import type { DescribeRouteOptions } from 'hono-openapi';
import { resolver } from 'hono-openapi';
import type { z } from 'zod';

/*
 * The OpenAI-compatible /v1 in Baton's OpenAPI document (`GET /api/openapi.json`): what each
 * route takes and returns, from the same zod schemas that check the requests. Errors here are
 * OpenAI's shape, not /api's. docs/api.md tells the details (parameters passed on, refused).
 */

const tags = ['OpenAI-compatible API (/v1)'];
const security = [{ apiKey: [] }];
const json = (description: string, schema: z.ZodType) => ({ description, content: { 'application/json': { schema: resolver(schema) } } });
const body = (schema: z.ZodType) => ({ required: true, content: { 'application/json': { schema: resolver(schema) } } });
const chatIdHeader = {
  name: BATON_CHAT_ID_HEADER,
  in: 'header' as const,
  required: false,
  description: 'Continue this chat of yours (every answer names its chat in the same header); without it a new chat is started.',
  schema: { type: 'string' as const },
};
const errors = {
  400: json('A field the API refuses or cannot read, named in `error.param`', openAiErrorSchema),
  401: json('No API key, or one that is not valid (revoked)', openAiErrorSchema),
  404: json('No agent (model), chat or response of yours with that id', openAiErrorSchema),
  409: json('The chat is answering already (`x-should-retry: false`)', openAiErrorSchema),
  500: json('The answer failed (the stored chat names the reason)', openAiErrorSchema),
};

export const v1Docs = {
  models: {
    tags,
    security,
    summary: 'List the workspace’s agents as models (id = agent id, owned_by = agent name)',
    responses: { 200: json('The agents', openAiModelListSchema), 401: errors[401] },
  },
  model: {
    tags,
    security,
    summary: 'One agent as a model, by id or name',
    responses: { 200: json('The agent', openAiModelSchema), 401: errors[401], 404: errors[404] },
  },
  chatCompletions: {
    tags,
    security,
    summary: 'Chat Completions: run an agent as a chat of yours, with server-side delegation, client tools and files',
    description:
      'OpenAI’s Chat Completions request; `model` is an agent id or name. With `stream: true` the answer is server-sent `chat.completion.chunk` events ending with `data: [DONE]`.',
    parameters: [chatIdHeader],
    requestBody: body(chatCompletionRequestSchema),
    responses: { 200: json('The completion (or, streamed, its chunks as text/event-stream)', chatCompletionSchema), ...errors },
  },
  responses: {
    tags,
    security,
    summary: 'Responses: run an agent as a chat of yours (`previous_response_id` continues it)',
    description:
      'OpenAI’s Responses request. With `stream: true` the answer is the Responses API’s server-sent events (`response.created` … `response.completed`).',
    parameters: [chatIdHeader],
    requestBody: body(responseCreateRequestSchema),
    responses: { 200: json('The response (or, streamed, its events as text/event-stream)', responseObjectSchema), ...errors },
  },
  response: {
    tags,
    security,
    summary: 'A stored response of yours, by id',
    responses: { 200: json('The response', responseObjectSchema), 401: errors[401], 404: errors[404] },
  },
} satisfies Record<string, DescribeRouteOptions>;
