import { MessagesSquare } from 'lucide-react';
import { EmptyState } from '../ui/empty-state';

/** A chat without messages yet: what to do next. */
export function EmptyChat({ agentName }: { agentName?: string }) {
  return (
    <EmptyState icon={MessagesSquare} title="No messages yet">
      Write a message below to start{agentName ? ` talking with ${agentName}` : ''}. Enter sends, Shift+Enter adds a new line. If the agent has sub-agents, it
      can hand parts of the work to them; you can follow each one as it works.
    </EmptyState>
  );
}
