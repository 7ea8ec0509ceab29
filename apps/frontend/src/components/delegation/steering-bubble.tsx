import type { FileUIPart } from 'ai';
import { CheckCheck, Clock, CircleSlash } from 'lucide-react';
import { MessageFiles } from '../chat/message-files';

export type SteeringBubbleStatus = 'sending' | 'queued' | 'delivered' | 'not_delivered';

const LOOKS: Record<SteeringBubbleStatus, { label: string; icon: typeof Clock; tone: string }> = {
  sending: { label: 'Sending…', icon: Clock, tone: 'text-neutral-500 dark:text-neutral-400' },
  queued: { label: 'Queued — it reaches the sub-agent when its current step ends', icon: Clock, tone: 'text-amber-700 dark:text-amber-400' },
  delivered: { label: 'Delivered to the sub-agent', icon: CheckCheck, tone: 'text-emerald-700 dark:text-emerald-400' },
  not_delivered: { label: 'Not delivered: the sub-agent finished first', icon: CircleSlash, tone: 'text-red-700 dark:text-red-400' },
};

/** A message the person wrote to a running sub-agent (its files above its text, as in a chat), with where it stands. */
export function SteeringBubble({ text, files = [], status }: { text: string; files?: readonly FileUIPart[]; status: SteeringBubbleStatus }) {
  const look = LOOKS[status];
  const Icon = look.icon;
  return (
    <div className="flex flex-col items-end gap-1 self-end" data-testid="steering-message" data-status={status}>
      <MessageFiles parts={files} />
      {text && (
        <div className="max-w-[85%] rounded-2xl rounded-br-md bg-indigo-50 px-4 py-2.5 text-sm leading-relaxed whitespace-pre-wrap break-words text-neutral-900 dark:bg-indigo-950 dark:text-neutral-100">
          <span className="sr-only">You wrote to the sub-agent: </span>
          {text}
        </div>
      )}
      <span className={`inline-flex items-center gap-1 text-xs ${look.tone}`}>
        <Icon className="h-3.5 w-3.5" aria-hidden />
        {look.label}
      </span>
    </div>
  );
}

/** The messages sent to a sub-agent that its transcript does not show yet, below the transcript. */
export function PendingSteeringList({
  pending,
}: {
  pending: readonly { id: string; text: string; files: readonly FileUIPart[]; status: SteeringBubbleStatus }[];
}) {
  if (pending.length === 0) return null;
  return (
    <ul className="flex flex-col gap-3" aria-label="Your messages to the sub-agent">
      {pending.map((m) => (
        <li key={m.id} className="flex flex-col">
          <SteeringBubble text={m.text} files={m.files} status={m.status} />
        </li>
      ))}
    </ul>
  );
}
