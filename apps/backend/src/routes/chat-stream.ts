import { chatStreamRequestSchema } from '@baton/schemas';
import { createUIMessageStreamResponse } from 'ai';
import { Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import { prepareBrowserTurn } from '../agent/prepare-turn';
import { startTurn } from '../agent/turn';
import { STREAM_HEADERS } from '../http/stream-headers';
import { errorResponses, jsonBody } from '../http/validation';
import type { AppDeps } from './deps';

/** Mounted at /api/workspaces/:workspaceId/chat: the browser's streaming endpoint. */
export function chatStreamRoutes(deps: AppDeps) {
  return new Hono<{}, {}, '/:workspaceId/chat'>().post(
    '/',
    describeRoute({
      tags: ['Chat'],
      summary: 'Send the newest message of a chat and stream the answer (AI SDK UI message stream, SSE)',
      description:
        'The server keeps the history. `message` is a new user message, or the pending assistant message with outputs for its client-side `newTask` calls. A new chat (unknown `id`) needs `agentId`; a sub-chat also `parentChatId` and `parentToolCallId`. The turn keeps running and is stored if the client disconnects.',
      responses: {
        200: { description: 'text/event-stream of UI message chunks', content: { 'text/event-stream': { schema: { type: 'string' } } } },
        ...errorResponses,
        409: errorResponses[400],
      },
    }),
    ...jsonBody(chatStreamRequestSchema),
    async (c) => {
      const input = await prepareBrowserTurn(deps, c.req.param('workspaceId'), c.req.valid('json'));
      const turn = await startTurn(deps, input);
      return createUIMessageStreamResponse({ stream: turn.stream, headers: STREAM_HEADERS });
    },
  );
}
