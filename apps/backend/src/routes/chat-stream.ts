import { chatStreamRequestSchema } from '@baton/schemas';
import { Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import { prepareBrowserTurn } from '../agent/prepare-turn';
import { startTurn } from '../agent/runs/execute-run';
import { readRun, stopRuns } from '../agent/runs/run-control';
import { AppError } from '../errors';
import { runStreamResponse } from '../http/run-stream-response';
import type { AppEnv } from '../http/access';
import { errorResponses, jsonBody } from '../http/validation';
import type { AppDeps } from './deps';

/** Mounted at /api/workspaces/:workspaceId/chat: the browser's streaming endpoint. */
export function chatStreamRoutes(deps: AppDeps) {
  return new Hono<AppEnv, {}, '/:workspaceId/chat'>().post(
    '/',
    describeRoute({
      tags: ['Chat'],
      summary: 'Send the newest message of a chat and stream the answer (AI SDK UI message stream, SSE)',
      description:
        "The server keeps the history. `message` is a new user message, or the pending assistant message with outputs for its client-side `newTask` calls. A new chat (unknown `id`) needs `agentId`; a sub-chat also `parentChatId` and `parentToolCallId` (its first message is the call's task, whatever text is sent). The turn is a run that keeps going and is stored if the client disconnects; `GET …/chats/:id/stream` resumes it. A second request while the chat is answering is 409, except the same continuation, which joins the running answer.",
      responses: {
        200: { description: 'text/event-stream of UI message chunks', content: { 'text/event-stream': { schema: { type: 'string' } } } },
        ...errorResponses,
        409: errorResponses[400],
      },
    }),
    ...jsonBody(chatStreamRequestSchema),
    async (c) => {
      const prepared = await prepareBrowserTurn(deps, c.get('access'), c.req.valid('json'));
      if (prepared.kind === 'join') {
        const events = readRun(deps, prepared.run, -1);
        if (!events) throw new AppError(409, 'conflict', 'this answer was already given: reload the chat to see it');
        return runStreamResponse(events, deps.streamKeepAliveMs);
      }
      await stopRuns(deps, prepared.afterCommit);
      const turn = startTurn(deps, prepared.input);
      return runStreamResponse(turn.local.channel.read(), deps.streamKeepAliveMs);
    },
  );
}
