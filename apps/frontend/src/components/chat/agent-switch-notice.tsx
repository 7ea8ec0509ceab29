import { readMessageMetadata, type BatonUIMessage } from '@baton/schemas';
import { ArrowRightLeft } from 'lucide-react';

/**
 * Where a chat's agent was switched: the line goes before the question the new agent answered
 * first (where the person switched, and where the pending line stood), or before its answer
 * when no question came between. Keyed by that message's id, with the new agent's name as it
 * was then. Answers that do not say who wrote them (stored before Baton recorded it) start
 * nothing and end nothing; a shared chat's answers name their agent without its id (a link
 * gives away no ids), so the name stands in for it there.
 */
export function agentSwitches(messages: BatonUIMessage[]): Map<string, string> {
  const switches = new Map<string, string>();
  let previous: string | undefined;
  let question: string | undefined;
  for (const m of messages) {
    if (m.role === 'user') question ??= m.id;
    if (m.role !== 'assistant') continue;
    const asked = question;
    question = undefined;
    const { agentId, agentName } = readMessageMetadata(m.metadata);
    const writer = agentId ?? agentName;
    if (!writer || !agentName) continue;
    if (previous && previous !== writer) switches.set(asked ?? m.id, agentName);
    previous = writer;
  }
  return switches;
}

/**
 * A line across the transcript: "Switched to Writer" where the new agent took over (see agentSwitches),
 * or, at the end, for a switch the next message will act on (`pending`).
 */
export function AgentSwitchNotice({ agentName, pending = false }: { agentName: string; pending?: boolean }) {
  const Line = pending ? 'div' : 'li';
  return (
    <Line role="note" data-testid={pending ? 'agent-switch-pending' : 'agent-switch-notice'} className="flex items-center gap-3 text-xs text-neutral-500">
      <span className="h-px flex-1 bg-neutral-200 dark:bg-neutral-800" aria-hidden />
      <span className="inline-flex items-center gap-1.5 text-center">
        <ArrowRightLeft className="h-3.5 w-3.5 shrink-0" aria-hidden />
        {pending ? `Switched to ${agentName}: it answers your next message` : `Switched to ${agentName}`}
      </span>
      <span className="h-px flex-1 bg-neutral-200 dark:bg-neutral-800" aria-hidden />
    </Line>
  );
}

/** The agent of the newest answer that says who wrote it (undefined: none does). */
export function lastAnswerAgentId(messages: BatonUIMessage[]): string | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role !== 'assistant') continue;
    const { agentId } = readMessageMetadata(m.metadata);
    if (agentId) return agentId;
  }
  return undefined;
}
