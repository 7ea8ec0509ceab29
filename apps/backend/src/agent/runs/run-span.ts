import { NEW_TASK_TOOL, type BatonUIMessageChunk, type TokenUsage } from '@baton/schemas';
import type { Span } from '@opentelemetry/api';
import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { toolCallTrace } from '../../db/schema';
import { contextOf, endSpan, SpanKind, traceparentOf, startSpan, tracingEnabled, withSpan } from '../../ops/tracing';
import type { TurnInput } from '../runtime-types';

/*
 * A run's span, and the span of a `newTask` call the browser runs: what makes a delegation
 * tree one trace. Ids, kinds, counts and statuses only; never a prompt or an answer.
 */

/**
 * Runs `execute` inside the run's span. A sub-chat's run is a child of its parent's `newTask`
 * call (the context stored with the sub-chat, so it holds on any replica and for every later
 * run of the sub-chat); another run, of whatever started it (a request's span).
 */
export function inRunSpan<T>(input: TurnInput, execute: (span: Span | undefined) => Promise<T>): Promise<T> {
  if (!tracingEnabled()) return execute(undefined);
  const { run, chat, agent } = input;
  const span = startSpan(
    'run',
    {
      kind: SpanKind.INTERNAL,
      attributes: {
        'gen_ai.operation.name': 'invoke_agent',
        'gen_ai.agent.id': agent.id,
        'gen_ai.agent.name': agent.name,
        'baton.run.id': run.id,
        'baton.run.kind': run.kind,
        'baton.run.mode': run.mode,
        'baton.chat.id': chat.id,
        'baton.workspace.id': run.workspaceId,
        'baton.chat.depth': chat.depth,
        ...(chat.parentChatId ? { 'baton.parent_chat.id': chat.parentChatId, 'baton.parent_tool_call.id': chat.parentToolCallId ?? '' } : {}),
      },
    },
    contextOf(chat.parentChatId ? chat.traceParent : undefined),
  );
  // Only a failing database makes a run throw (execute-run.ts): its span ends too.
  return withSpan(span, () => execute(span)).catch((err) => {
    endSpan(span, 'the run could not store its end');
    throw err;
  });
}

/** What a run's span says of its end: status, steps and tokens (GenAI usage attributes). */
export function endRunSpan(span: Span | undefined, end: { status: string; steps: number; usage: TokenUsage | undefined; errorCode?: string }) {
  if (!span) return;
  span.setAttributes({
    'baton.run.status': end.status,
    'baton.run.steps': end.steps,
    'gen_ai.usage.input_tokens': end.usage?.inputTokens ?? 0,
    'gen_ai.usage.output_tokens': end.usage?.outputTokens ?? 0,
    ...(end.errorCode ? { 'error.type': end.errorCode } : {}),
  });
  endSpan(span, end.status === 'failed' ? (end.errorCode ?? 'failed') : undefined);
}

/**
 * A `newTask` call of a browser-flow answer: the browser runs it, so the AI SDK makes no
 * span for it. Its span is made here, in the run's, and stored before the call reaches the
 * browser, so the sub-chat a later request starts (on any replica) finds its parent.
 */
export async function traceClientCall(db: Database, input: TurnInput, chunk: BatonUIMessageChunk): Promise<void> {
  if (!tracingEnabled() || chunk.type !== 'tool-input-available' || chunk.toolName !== NEW_TASK_TOOL) return;
  if (input.mode !== 'client' || input.chat.parentChatId) return;
  const span = startSpan(`execute_tool ${NEW_TASK_TOOL}`, {
    kind: SpanKind.INTERNAL,
    attributes: {
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': NEW_TASK_TOOL,
      'gen_ai.tool.call.id': chunk.toolCallId,
      'gen_ai.tool.type': 'function',
      'baton.tool.executor': 'browser',
    },
  });
  const traceParent = withSpan(span, () => traceparentOf());
  span.end();
  if (traceParent) await db.insert(toolCallTrace).values({ chatId: input.chat.id, toolCallId: chunk.toolCallId, traceParent }).onConflictDoNothing();
}

/** The span stored for a browser-run `newTask` call (traceClientCall), if any. */
export async function clientCallTraceParent(db: Database, chatId: string, toolCallId: string): Promise<string | null> {
  if (!tracingEnabled()) return null;
  const [row] = await db
    .select({ traceParent: toolCallTrace.traceParent })
    .from(toolCallTrace)
    .where(and(eq(toolCallTrace.chatId, chatId), eq(toolCallTrace.toolCallId, toolCallId)));
  return row?.traceParent ?? null;
}
