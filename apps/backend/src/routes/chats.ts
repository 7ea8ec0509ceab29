import {
  chatCreateSchema,
  chatPageSchema,
  chatSchema,
  chatSearchQuerySchema,
  chatSearchResultSchema,
  chatTraceSchema,
  chatUpdateSchema,
  chatWithMessagesSchema,
  apiErrorSchema,
  chatListQuerySchema,
  subChatListSchema,
} from '@baton/schemas';
import { Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import type { AppEnv } from '../http/access';
import { errorResponses, jsonBody, jsonResponse, queryParams } from '../http/validation';
import { deleteChatStoppingRuns } from '../agent/runs/run-control';
import { switchToVersion } from '../agent/switch-version';
import { createChat, updateChat } from '../services/chat-repository';
import { getChatWithMessages, listSubChats, listTopLevelChats, toChat } from '../services/chat-read-model';
import { searchChats } from '../services/chat-search';
import { chatTrace } from '../services/trace';
import type { AppDeps } from './deps';

const tags = ['Chats'];

/** Mounted at /api/workspaces/:workspaceId/chats. */
export function chatRoutes(deps: AppDeps) {
  const { db } = deps;
  return new Hono<AppEnv, {}, '/:workspaceId/chats'>()
    .get(
      '/',
      describeRoute({
        tags,
        summary: 'List your top-level chats, most recently active first (chats are private to their author)',
        responses: { 200: jsonResponse('A page of chats', chatPageSchema), 400: errorResponses[400], 404: errorResponses[404] },
      }),
      queryParams(chatListQuerySchema),
      async (c) => c.json(await listTopLevelChats(db, c.get('access'), c.req.valid('query'))),
    )
    .get(
      // Before '/:id', which would otherwise take "search" for a chat id.
      '/search',
      describeRoute({
        tags,
        summary:
          'Search your top-level chats by title and message text (their sub-chats included): every word must occur, as the start of a word; most recently active first, each with a snippet around the best match',
        responses: { 200: jsonResponse('Matching chats', chatSearchResultSchema), 400: errorResponses[400], 404: errorResponses[404] },
      }),
      queryParams(chatSearchQuerySchema),
      async (c) => c.json({ data: await searchChats(db, c.get('access'), c.req.valid('query')) }),
    )
    .post(
      '/',
      describeRoute({
        tags,
        summary: 'Create a top-level chat (sub-chats are created by delegation)',
        responses: { 201: jsonResponse('The new chat', chatSchema), ...errorResponses },
      }),
      ...jsonBody(chatCreateSchema),
      async (c) => c.json(toChat(await createChat(db, c.get('access'), c.req.valid('json'))), 201),
    )
    .get(
      '/:id',
      describeRoute({
        tags,
        summary: 'Get a chat with its messages in order, and its token usage: its own runs, its whole delegation tree below it, and both',
        responses: { 200: jsonResponse('The chat', chatWithMessagesSchema), 404: errorResponses[404] },
      }),
      async (c) => c.json(await getChatWithMessages(db, c.get('access'), c.req.param('id'))),
    )
    .patch(
      '/:id',
      describeRoute({
        tags,
        summary:
          'Rename, pin or archive a chat (archiving unpins; at most 50 pinned, else 409), or switch its agent (`agentId`, an agent of the workspace, else 404) or model (`modelOverride`, for agents that allow it) from the next turn on: 409 while an answer is under way, 400 for a sub-chat',
        responses: { 200: jsonResponse('The chat', chatSchema), ...errorResponses },
      }),
      ...jsonBody(chatUpdateSchema),
      async (c) => c.json(toChat(await updateChat(db, c.get('access'), c.req.param('id'), c.req.valid('json')))),
    )
    .delete(
      '/:id',
      describeRoute({
        tags,
        summary: 'Delete a chat with its sub-chats and messages (its running turns are stopped first)',
        responses: { 204: { description: 'Deleted' }, 404: errorResponses[404] },
      }),
      async (c) => {
        await deleteChatStoppingRuns(deps, c.get('access'), c.req.param('id'));
        return c.body(null, 204);
      },
    )
    .post(
      '/:id/messages/:messageId/activate',
      describeRoute({
        tags,
        summary: 'Switch to a version of a message (`versions.ids` of a message): the conversation below it follows the branch chosen there before',
        description:
          'Editing a user message (sending its id with new text) or regenerating an answer keeps the earlier version; every version stays stored, and this makes one of them part of the active branch, which `GET …/chats/:id`, the next turn, search and `/v1` see. `409` while the chat answers, waits for an approval or has sub-agents at work; `404` for a message of another chat.',
        responses: {
          200: jsonResponse('The chat with its new active branch', chatWithMessagesSchema),
          404: errorResponses[404],
          409: jsonResponse('The chat is answering, waits for an approval or has sub-agents at work', apiErrorSchema),
        },
      }),
      async (c) => c.json(await switchToVersion(db, c.get('access'), c.req.param('id'), c.req.param('messageId'))),
    )
    .get(
      '/:id/sub-chats',
      describeRoute({
        tags,
        summary: 'The sub-chats a chat delegated to',
        responses: { 200: jsonResponse('Sub-chats, oldest first', subChatListSchema), 404: errorResponses[404] },
      }),
      async (c) => c.json({ data: await listSubChats(db, c.get('access'), c.req.param('id')) }),
    )
    .get(
      '/:id/trace',
      describeRoute({
        tags,
        summary:
          'The delegation trace: the chat and every sub-chat below it (any depth) as a tree, with agent, task, status, outcome, timing, steps and tokens',
        responses: { 200: jsonResponse('The tree, children in the order they were started', chatTraceSchema), 404: errorResponses[404] },
      }),
      async (c) => c.json(await chatTrace(db, c.get('access'), c.req.param('id'))),
    );
}
