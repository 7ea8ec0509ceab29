import { aiTelemetry } from '../ops/tracing';
import { NO_USAGE, SUMMARY_SYSTEM_PROMPT } from '@baton/delegation';
import type { BatonUIMessage, ContextMode, TokenUsage } from '@baton/schemas';
import { generateText } from 'ai';
import type { AgentRow } from '../services/agents';
import { lastTokensOf, outputReserve } from './context-fit';
import { resolveModel } from './models';
import { tokenUsage } from './usage-estimate';
import type { RuntimeDeps } from './runtime-types';

export interface DelegateContext {
  mode: ContextMode;
  /** What the sub-agent is given before its task (null for task_only). */
  text: string | null;
  /** The summary's model call, counted as the sub-chat's own usage. */
  usage: TokenUsage;
}

/** The delegating conversation as plain text: user and assistant text (and a `/v1` caller's instructions), in order (no tool calls, no system prompt). */
export function conversationText(history: readonly BatonUIMessage[]): string {
  return history
    .flatMap((m) => {
      const text = m.parts
        .flatMap((p) => (p.type === 'text' ? [p.text] : []))
        .join('\n')
        .trim();
      const who = m.role === 'user' ? 'User' : m.role === 'system' ? 'Instructions' : 'Assistant';
      return text ? [`${who}: ${text}`] : [];
    })
    .join('\n\n');
}

/** The model-message text that puts the context before the task. */
export const contextPreamble = (text: string) => `Context from the conversation that delegated this task:\n\n${text}`;

/**
 * What a sub-agent is given of the conversation that delegated to it, decided before the
 * sub-chat is born (both flows): nothing, the conversation's text, or a summary written by
 * one call to the delegating agent's model, without tools.
 */
export async function delegateContext(
  deps: RuntimeDeps,
  workspaceId: string,
  delegator: AgentRow,
  mode: ContextMode,
  history: readonly BatonUIMessage[],
  abortSignal?: AbortSignal,
): Promise<DelegateContext> {
  if (mode === 'task_only') return { mode, text: null, usage: NO_USAGE };
  const conversation = conversationText(history);
  if (mode === 'full') return { mode, text: conversation, usage: NO_USAGE };
  const { model, contextWindow } = await resolveModel(deps, workspaceId, delegator);
  // A conversation longer than the model's window is summarised from its most recent part.
  const fitting = lastTokensOf(conversation, Math.floor((contextWindow - outputReserve(contextWindow)) * 0.8));
  const result = await generateText({
    model,
    system: SUMMARY_SYSTEM_PROMPT,
    messages: [{ role: 'user', content: fitting || '(nothing was said yet)' }],
    abortSignal,
    telemetry: aiTelemetry('baton.context_summary'),
  });
  return {
    mode,
    text: result.text.trim(),
    usage: tokenUsage(result.usage),
  };
}
