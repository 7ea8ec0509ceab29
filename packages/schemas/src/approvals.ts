import { z } from 'zod';
import { storableString, timestampSchema } from './common';
import { MAX_MESSAGE_TEXT_CHARS } from './chat-stream';
import { runSchema } from './runs';

// Approval before spawning (the root agent's `delegation.requireApproval`): a `newTask`
// call waits in the AI SDK's `approval-requested` state until a person decides it.

export const MAX_REJECT_REASON_CHARS = 2_000;

/** A `newTask` call waiting for a person's decision, as `GET …/chats/:id` lists it. */
export const pendingApprovalSchema = z
  .object({
    /** The chat whose call it is: this chat, or — for a sub-agent's own call — the sub-chat to POST the decision to. */
    chatId: z.string(),
    toolCallId: z.string(),
    subAgentId: z.string(),
    /** The sub-agent's name now (the id itself when it no longer exists). */
    subAgentName: z.string(),
    task: z.string(),
    /** When the answer holding the call paused. */
    requestedAt: timestampSchema,
  })
  .meta({ id: 'PendingApproval' });
export type PendingApproval = z.infer<typeof pendingApprovalSchema>;

/** `POST …/chats/:id/approvals/:toolCallId`: approve (optionally with an edited task) or reject (optionally with a reason). */
export const approvalDecisionSchema = z
  .strictObject({
    approve: z.boolean(),
    task: storableString
      .trim()
      .min(1, 'must not be empty')
      .max(MAX_MESSAGE_TEXT_CHARS)
      .optional()
      .describe('Approve only: the task the sub-agent receives instead of the one the model wrote (the stored call shows it as its task)'),
    reason: storableString.trim().max(MAX_REJECT_REASON_CHARS).optional().describe('Reject only: why, for the delegating agent'),
  })
  .refine((d) => d.approve || d.task === undefined, { path: ['task'], message: 'an edited task is only accepted with approve: true' })
  .refine((d) => !d.approve || d.reason === undefined, { path: ['reason'], message: 'a reason is only accepted with approve: false' })
  .meta({ id: 'ApprovalDecision' });
export type ApprovalDecision = z.infer<typeof approvalDecisionSchema>;

export const approvalResultSchema = z
  .object({
    toolCallId: z.string(),
    decision: z.enum(['approved', 'rejected']),
    /** The task the sub-agent receives (the edited one, if any). */
    task: z.string(),
    /** Calls of the same answer still waiting: the answer resumes once none is left. */
    pendingApprovals: z.array(pendingApprovalSchema),
    /** The run that resumed the answer (follow it with `GET …/chats/:id/stream`); null while others wait, or when the browser runs the sub-agent. */
    run: runSchema.nullable(),
  })
  .meta({ id: 'ApprovalResult' });
export type ApprovalResult = z.infer<typeof approvalResultSchema>;
