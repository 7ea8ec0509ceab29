import { apiErrorSchema, chatMessagesRequestSchema, chatTurnResultSchema, steeringMessageListSchema, steeringMessageSchema } from '@baton/schemas';
import { Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import { z } from 'zod';
import { prepareRestTurn } from '../agent/prepare-server-turn';
import { startTurn } from '../agent/runs/execute-run';
import { resumeChatStream } from '../agent/runs/run-control';
import { stopChat } from '../agent/stop-answer';
import { runStreamResponse } from '../http/run-stream-response';
import type { AppEnv } from '../http/access';
import { errorResponses, jsonBody, jsonResponse } from '../http/validation';
import { requireChat } from '../services/chat-repository';
import { toMessage } from '../services/chat-read-model';
import { listSteeringMessages, queueSteeringMessage } from '../services/steering';
import { messagesFrom } from '../services/messages';
import { findRun, toRun } from '../services/runs';
import { invalidRequest } from '../errors';
import type { AppDeps } from './deps';

const tags = ['Chat'];
const stopResultSchema = z.object({ stopped: z.boolean() }).meta({ id: 'StopResult' });
const sseResponse = {
  description: 'text/event-stream of UI message chunks, each with its sequence number as the SSE id',
  content: { 'text/event-stream': { schema: { type: 'string' as const } } },
};

/** `Last-Event-ID` (or `?after=`): the sequence number of the last event the client has. */
function resumeAfter(header: string | undefined, query: string | undefined): number {
  const raw = header ?? query;
  if (raw === undefined || raw === '') return -1;
  const seq = Number(raw);
  if (!Number.isInteger(seq) || seq < -1) throw invalidRequest('Last-Event-ID: must be the sequence number of an event (an integer)');
  return seq;
}

/** Mounted at /api/workspaces/:workspaceId/chats: running turns for REST clients, resuming and stopping them. */
export function chatRunRoutes(deps: AppDeps) {
  return new Hono<AppEnv, {}, '/:workspaceId/chats'>()
    .post(
      '/:chatId/messages',
      describeRoute({
        tags,
        summary: 'Send a message: run the turn to completion on the server, or steer a running sub-agent',
        description:
          'On a sub-chat whose sub-agent is running, the message (text, files or both; the files become files of the sub-chat) is queued (`202`, a `SteeringMessage`) and reaches the sub-agent when its current step ends; the sub-agent then goes on until it calls `taskResult`. On a sub-chat that is not running: `409`. On a top-level chat the server runs `newTask` itself: each sub-agent runs in a stored sub-chat (up to 10 in parallel per step) and its `{ result, status, subChatId }` is the tool output. With `?stream=1` the turn streams as a UI message stream, with sub-agent progress as preliminary tool outputs. When the answer fails (provider error, timeout), the response still carries the stored answer, with the reason in `error` and as a `data-run-error` part. With `editMessageId` (a user message of the chat’s active branch) the text replaces that message and a new branch starts there; the old one stays as a version (`versions` on the message, `POST …/messages/:id/activate`).',
        responses: {
          200: jsonResponse('The messages this turn added, its run, and the error if it failed', chatTurnResultSchema),
          202: jsonResponse('Sub-chat: the message, queued for the running sub-agent', steeringMessageSchema),
          ...errorResponses,
        },
      }),
      ...jsonBody(chatMessagesRequestSchema),
      async (c) => {
        const target = await requireChat(deps.db, c.get('access'), c.req.param('chatId'));
        if (target.parentChatId) {
          const { agentId, text, files } = c.req.valid('json');
          if (agentId) throw invalidRequest('agentId: a sub-chat keeps the sub-agent it was given; send only text and files');
          return c.json(await queueSteeringMessage(deps.db, deps.files, c.get('access'), target.id, { text, files }), 202);
        }
        const input = await prepareRestTurn(deps, c.get('access'), c.req.param('chatId'), c.req.valid('json'));
        const userMessage = input.history.at(-1)!;
        const turn = startTurn(deps, input);
        if (c.req.query('stream') === '1') return runStreamResponse(turn.local.channel.read(), deps.streamKeepAliveMs);
        const result = await turn.result;
        const [rows, run] = await Promise.all([messagesFrom(deps.db, input.chat.id, userMessage.id), findRun(deps.db, input.run.id)]);
        return c.json({
          messages: rows.map((r) => toMessage(r)),
          run: toRun(run ?? input.run),
          ...(result.error ? { error: result.error } : {}),
        });
      },
    )
    .get(
      '/:chatId/steering',
      describeRoute({
        tags,
        summary: 'The messages sent to a sub-agent while it ran, with whether each reached it',
        responses: { 200: jsonResponse('Oldest first', steeringMessageListSchema), 404: errorResponses[404] },
      }),
      async (c) => c.json({ data: await listSteeringMessages(deps.db, c.get('access'), c.req.param('chatId')) }),
    )
    .get(
      '/:chatId/stream',
      describeRoute({
        tags,
        summary: 'Resume the running answer of a chat',
        description:
          "Replays the running turn from its start (or after `Last-Event-ID`) and follows it live until it ends. `204` when the chat has no running turn. Works on any backend replica (events are shared through Redis when `REDIS_URL` is set; `503` when the turn runs on another replica and Redis does not answer, and a stream that loses Redis ends with an `error` chunk). A client that already shows the stored answer truncates that message to the run's `basePartCount` parts first (see `activeRun` on `GET …/chats/:id`).",
        responses: {
          200: sseResponse,
          204: { description: 'No running turn' },
          404: errorResponses[404],
          503: jsonResponse('The turn runs on another replica and Redis does not answer: try again after `Retry-After` seconds', apiErrorSchema),
        },
      }),
      async (c) => {
        const after = resumeAfter(c.req.header('last-event-id'), c.req.query('after'));
        const events = await resumeChatStream(deps, c.get('access'), c.req.param('chatId'), after);
        return events ? runStreamResponse(events, deps.streamKeepAliveMs) : c.body(null, 204);
      },
    )
    .post(
      '/:chatId/stop',
      describeRoute({
        tags,
        summary: 'Stop the running turn of a chat',
        description:
          'Stops the turn on whichever replica runs it and waits until what was generated so far is stored. `stopped` is false when nothing was running.',
        responses: { 200: jsonResponse('Whether a turn was stopped', stopResultSchema), 404: errorResponses[404] },
      }),
      async (c) => c.json({ stopped: await stopChat(deps, c.get('access'), c.req.param('chatId')) }),
    );
}
