import type { ConversationFile } from '@baton/delegation';
import { DELEGATION_BATCH_LIMIT, NEW_TASK_TOOL, NOTE_TOOL, TASK_RESULT_TOOL, type BatonUIMessage } from '@baton/schemas';

export interface SubAgentListing {
  id: string;
  name: string;
  description: string;
}

/**
 * One line per sub-agent, `- Name (id: …): description`. The demo model parses exactly
 * this shape, and real models read it as plain prose.
 */
export function subAgentLines(subAgents: SubAgentListing[]): string {
  return subAgents.map((a) => `- ${a.name} (id: ${a.id}): ${a.description || 'no description'}`).join('\n');
}

/**
 * One line per file of the conversation, `- name (type, file id: …)`, with `[latest message]`
 * on those of the message being answered. The demo model parses exactly this shape.
 */
export function fileLines(files: readonly ConversationFile[]): string {
  return files.map((f) => `- ${f.name} (${f.mediaType}, file id: ${f.id})${f.inLatestMessage ? ' [latest message]' : ''}`).join('\n');
}

export function delegatorSection(subAgents: SubAgentListing[]): string {
  return [
    '## Sub-agents',
    `You can hand tasks to these sub-agents with the \`${NEW_TASK_TOOL}\` tool:`,
    subAgentLines(subAgents),
    '',
    'A sub-agent starts with a fresh context: it sees only the task you write, not this conversation.',
    'Write each task completely and self-contained: the goal, all the context and constraints it needs, and what the result should contain.',
    `Independent tasks can be delegated in parallel by calling \`${NEW_TASK_TOOL}\` several times in one step (at most ${DELEGATION_BATCH_LIMIT}).`,
    'Each call returns `{ result, status, subChatId, outcome, usage, truncated }`; when outcome is not "success", decide whether to retry, work around it, or tell the user.',
    'Pass `context: "summary"` or `"full"` when the sub-agent needs this conversation; by default it gets only the task.',
  ].join('\n');
}

export function subAgentSection(): string {
  return [
    '## You are a sub-agent',
    'Another agent delegated the task in the user message to you. Work on it with your own tools.',
    `When you are done, you MUST finish by calling the \`${TASK_RESULT_TOOL}\` tool with the complete result ` +
      '(the delegating agent sees only that result) and status "success"; if you cannot do the task, call it with status "error" and explain why.',
    `Write your findings and progress down with the \`${NOTE_TOOL}\` tool as you go: if you run out of steps or tokens, your notes are returned with your partial result.`,
  ].join('\n');
}

/**
 * The chat's stored system messages (a `/v1` caller's `system` / `developer` messages), in
 * order. They join the system prompt after the agent's own sections instead of staying in
 * their place: many models' chat templates take one system message, and only first.
 */
export function callerInstructions(history: readonly BatonUIMessage[]): string[] {
  return history.flatMap((m) => (m.role === 'system' ? m.parts.flatMap((p) => (p.type === 'text' && p.text.trim() ? [p.text.trim()] : [])) : []));
}

/** The conversation the model reads as messages: the system messages are in the system prompt. */
export const withoutSystemMessages = (history: BatonUIMessage[]) => history.filter((m) => m.role !== 'system');

export function buildSystemPrompt(opts: { agentPrompt: string; subAgents: SubAgentListing[]; isSubChat: boolean; instructions?: string[] }): string {
  const sections = [opts.agentPrompt.trim()];
  if (opts.isSubChat) sections.push(subAgentSection());
  // A sub-agent that may delegate further gets both: how to delegate, and how to finish.
  if (opts.subAgents.length > 0) sections.push(delegatorSection(opts.subAgents));
  sections.push(...(opts.instructions ?? []));
  return sections.filter(Boolean).join('\n\n');
}
