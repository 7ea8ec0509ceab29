import { approvalDecisionSchema, approvalResultSchema } from '@baton/schemas';
import { Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import { decideApproval } from '../agent/approvals';
import { startTurn } from '../agent/runs/execute-run';
import type { AppEnv } from '../http/access';
import { errorResponses, jsonBody, jsonResponse } from '../http/validation';
import { toRun } from '../services/runs';
import type { AppDeps } from './deps';

const tags = ['Chat'];

/** Mounted at /api/workspaces/:workspaceId/chats: a person's decision on a delegation waiting for approval. */
export function approvalRoutes(deps: AppDeps) {
  return new Hono<AppEnv, {}, '/:workspaceId/chats'>().post(
    '/:chatId/approvals/:toolCallId',
    describeRoute({
      tags,
      summary: 'Approve (optionally with an edited task) or reject a newTask call waiting for approval',
      description:
        'When the chat\'s root agent has `delegation.requireApproval`, each `newTask` call waits (run status `awaiting_approval`, listed in `pendingApprovals` of `GET …/chats/:id`) before any sub-chat or model call. Approve: the sub-agent receives `task` if given (the stored call shows it as its task). Reject: the delegating agent receives a `newTask` output with `outcome: "rejected"` and the reason. Each call is decided on its own; when the last call of the paused answer is decided the answer continues as a new run (`run`, follow it with `GET …/chats/:id/stream`). 404: no such call in the chat; 409: already decided, not waiting for approval, or the chat is answering.',
      responses: { 200: jsonResponse('The decision, what still waits, and the run that resumed the answer', approvalResultSchema), ...errorResponses },
    }),
    ...jsonBody(approvalDecisionSchema),
    async (c) => {
      const decided = await decideApproval(deps, c.get('access'), c.req.param('chatId'), c.req.param('toolCallId'), c.req.valid('json'));
      // Started once the decision is committed: the run row exists, so a reader can follow it at once.
      if (decided.resume) startTurn(deps, decided.resume);
      const { resume, ...rest } = decided;
      return c.json({ ...rest, run: resume ? toRun(resume.run) : null });
    },
  );
}
