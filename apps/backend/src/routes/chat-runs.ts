import { chatMessagesRequestSchema, messageSchema } from '@baton/schemas';
import { createUIMessageStreamResponse } from 'ai';
import { Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import { z } from 'zod';
import { prepareRestTurn } from '../agent/prepare-turn';
import { startTurn } from '../agent/turn';
import { STREAM_HEADERS } from '../http/stream-headers';
import { errorResponses, jsonBody, jsonResponse } from '../http/validation';
import { requireChat, toMessage } from '../services/chats';
import { messagesFrom } from '../services/messages';
import type { AppDeps } from './deps';

const tags = ['Chat'];
const newMessagesSchema = z.object({ messages: z.array(messageSchema) }).meta({ id: 'NewMessages' });
const stopResultSchema = z.object({ stopped: z.boolean() }).meta({ id: 'StopResult' });

/** Mounted at /api/workspaces/:workspaceId/chats: running turns for REST clients, and Stop. */
export function chatRunRoutes(deps: AppDeps) {
  return new Hono<{}, {}, '/:workspaceId/chats'>()
    .post(
      '/:chatId/messages',
      describeRoute({
        tags,
        summary: 'Send a message and run the turn to completion on the server',
        description:
          'The server runs `newTask` itself: each sub-agent runs in a stored sub-chat (up to 10 in parallel per step) and its `{ result, status, subChatId }` is the tool output. With `?stream=1` the turn streams as a UI message stream, with sub-agent progress as preliminary tool outputs.',
        responses: { 200: jsonResponse('The messages this turn added', newMessagesSchema), ...errorResponses },
      }),
      ...jsonBody(chatMessagesRequestSchema),
      async (c) => {
        const workspaceId = c.req.param('workspaceId');
        const input = await prepareRestTurn(deps, workspaceId, c.req.param('chatId'), c.req.valid('json'));
        const userMessage = input.history.at(-1)!;
        const turn = await startTurn(deps, input);
        if (c.req.query('stream') === '1') return createUIMessageStreamResponse({ stream: turn.stream, headers: STREAM_HEADERS });
        await turn.stream.cancel();
        await turn.result;
        const rows = await messagesFrom(deps.db, input.chat.id, userMessage.id);
        return c.json({ messages: rows.map(toMessage) });
      },
    )
    .post(
      '/:chatId/stop',
      describeRoute({
        tags,
        summary: 'Stop the running turn of a chat',
        description: 'Aborts the model call on the server and stores what was generated so far. `stopped` is false when nothing was running.',
        responses: { 200: jsonResponse('Whether a turn was stopped', stopResultSchema), 404: errorResponses[404] },
      }),
      async (c) => {
        const chat = await requireChat(deps.db, c.req.param('workspaceId'), c.req.param('chatId'));
        return c.json({ stopped: await deps.runs.stop(chat.id) });
      },
    );
}
