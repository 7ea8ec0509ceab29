import { agentFeedbackPageSchema, agentFeedbackQuerySchema, feedbackInputSchema, messageFeedbackSchema } from '@baton/schemas';
import { Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import { type AppEnv, requireAdmin } from '../http/access';
import { errorResponses, jsonBody, jsonResponse, queryParams } from '../http/validation';
import { clearFeedback, listAgentFeedback, setFeedback } from '../services/feedback';
import type { AppDeps } from './deps';

const tags = ['Feedback'];

/** Mounted at /api/workspaces/:workspaceId: ratings of answers in a person's chats, and (admins) per agent. */
export function feedbackRoutes({ db }: AppDeps) {
  return new Hono<AppEnv, {}, '/:workspaceId'>()
    .put(
      '/chats/:chatId/messages/:messageId/feedback',
      describeRoute({
        tags,
        summary: 'Rate an answer: thumbs up or down, with an optional comment (replaces your earlier rating of it)',
        description:
          'Only assistant messages of your own chats (400 for a user message; 404 for a message or chat you cannot see). Returned on the message as `feedback` by `GET …/chats/:id` (your own rating only). Admins read ratings per agent, with the start of the rated answer and the comment, under `GET …/agents/:id/feedback`.',
        responses: { 200: jsonResponse('Your rating of the message', messageFeedbackSchema), ...errorResponses },
      }),
      ...jsonBody(feedbackInputSchema),
      async (c) => c.json(await setFeedback(db, c.get('access'), c.req.param('chatId'), c.req.param('messageId'), c.req.valid('json'))),
    )
    .delete(
      '/chats/:chatId/messages/:messageId/feedback',
      describeRoute({
        tags,
        summary: 'Clear your rating of an answer (204 also when there was none)',
        responses: { 204: { description: 'Cleared' }, 400: errorResponses[400], 404: errorResponses[404] },
      }),
      async (c) => {
        await clearFeedback(db, c.get('access'), c.req.param('chatId'), c.req.param('messageId'));
        return c.body(null, 204);
      },
    )
    .get(
      '/agents/:agentId/feedback',
      describeRoute({
        tags,
        summary: 'Ratings of an agent’s answers, newest first, with its totals (admins)',
        description:
          'Each with who rated, the rating, the comment, the chat (id and title: chats stay private to their author) and the start of the rated answer. `rating` filters; totals count every rating of the agent.',
        responses: { 200: jsonResponse('A page of ratings and the totals', agentFeedbackPageSchema), ...errorResponses },
      }),
      requireAdmin,
      queryParams(agentFeedbackQuerySchema),
      async (c) => c.json(await listAgentFeedback(db, c.req.param('workspaceId'), c.req.param('agentId'), c.req.valid('query'))),
    );
}
