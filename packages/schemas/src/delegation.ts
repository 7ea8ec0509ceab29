import { z } from 'zod';

/** At most this many `newTask` calls of one step run; later ones get an error output. */
export const DELEGATION_BATCH_LIMIT = 10;
/** A sub-agent stops when it calls `taskResult`, or after this many steps. */
export const SUB_AGENT_MAX_STEPS = 100;

export const NEW_TASK_TOOL = 'newTask';
export const TASK_RESULT_TOOL = 'taskResult';

/** The result a `newTask` call past the batch limit gets, in both flows. */
export const BATCH_LIMIT_RESULT = `Not run: at most ${DELEGATION_BATCH_LIMIT} sub-agent tasks can run in parallel in one step. Delegate the rest in a later step.`;
/** The result of a sub-agent the user cancelled. */
export const CANCELLED_RESULT = 'Cancelled by user';
/** The result of a sub-agent whose server stopped (restart or crash) before it reported. */
export const INTERRUPTED_SUB_AGENT_RESULT =
  'The sub-agent was interrupted: the server stopped (a restart or a crash) before it reported a result. Try the task again.';

export const newTaskInputSchema = z.object({
  subAgentId: z.string().describe('The id of the sub-agent to hand the task to'),
  task: z.string().describe('A complete, self-contained description of the task, with all the context the sub-agent needs'),
});
export type NewTaskInput = z.infer<typeof newTaskInputSchema>;

export const taskStatusSchema = z.enum(['success', 'error']);
export type TaskStatus = z.infer<typeof taskStatusSchema>;

export const taskResultInputSchema = z.object({
  result: z.string().describe('The result of the task: everything the delegating agent needs'),
  status: taskStatusSchema.describe('"success" when the task was done, "error" when it could not be'),
});
export type TaskResultInput = z.infer<typeof taskResultInputSchema>;

/** What the delegating agent receives as the output of its `newTask` call, in both flows. */
export const newTaskOutputSchema = z
  .object({
    result: z.string(),
    status: taskStatusSchema,
    subChatId: z.string().nullable(),
  })
  .meta({ id: 'NewTaskOutput' });
export type NewTaskOutput = z.infer<typeof newTaskOutputSchema>;
