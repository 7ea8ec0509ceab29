import { delegationRetryRequestSchema, delegationRetrySchema } from '@baton/schemas';
import { Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import { retryDelegation } from '../agent/retry-delegation';
import type { AppEnv } from '../http/access';
import { errorResponses, jsonBody, jsonResponse } from '../http/validation';
import type { AppDeps } from './deps';

/** Mounted at /api/workspaces/:workspaceId/chats: the person's controls over one delegation. */
export function delegationRoutes(deps: AppDeps) {
  return new Hono<AppEnv, {}, '/:workspaceId/chats'>().post(
    '/:chatId/delegations/:toolCallId/retry',
    describeRoute({
      tags: ['Chat'],
      summary: 'Run a finished delegation of the last answer again',
      description:
        "A new attempt of the `newTask` call (a new sub-chat; earlier attempts stay, numbered by `attempt`), with the same or another sub-agent (`subAgentId`, one the chat's agent may delegate to) and the same or an edited `task`. The answer is cut back to the end of the call's step and, when the new attempt ends, continued from there with its output; the other calls of that step keep their results. Only the last answer of a top-level chat, only when nothing runs: otherwise `409`.",
      responses: { 202: jsonResponse('The new attempt, running', delegationRetrySchema), ...errorResponses },
    }),
    ...jsonBody(delegationRetryRequestSchema),
    async (c) => c.json(await retryDelegation(deps, c.get('access'), c.req.param('chatId'), c.req.param('toolCallId'), c.req.valid('json')), 202),
  );
}
