import { Ban, CircleCheck, CircleX, Gauge, Hand, Hourglass, LoaderCircle, Repeat, ThumbsDown, Unplug, type LucideIcon } from 'lucide-react';
import type { DelegationStatus } from '@/stores/delegation-store';

interface StatusLook {
  label: string;
  icon: LucideIcon;
  /** Icon and text colour. */
  tone: string;
  /** Pill background for the badge form. */
  pill: string;
  spin?: boolean;
}

/** How each phase and each outcome (as the server decided it) looks: the label never comes from the result text. */
export const STATUS_LOOKS: Record<DelegationStatus, StatusLook> = {
  queued: {
    label: 'Queued',
    icon: Hourglass,
    tone: 'text-neutral-500 dark:text-neutral-400',
    pill: 'bg-neutral-100 dark:bg-neutral-800',
  },
  starting: {
    label: 'Starting',
    icon: LoaderCircle,
    tone: 'text-neutral-500 dark:text-neutral-400',
    pill: 'bg-neutral-100 dark:bg-neutral-800',
    spin: true,
  },
  awaiting_approval: {
    label: 'Awaiting approval',
    icon: Hand,
    tone: 'text-sky-700 dark:text-sky-300',
    pill: 'bg-sky-50 dark:bg-sky-950',
  },
  running: {
    label: 'Running',
    icon: LoaderCircle,
    tone: 'text-indigo-600 dark:text-indigo-400',
    pill: 'bg-indigo-50 dark:bg-indigo-950',
    spin: true,
  },
  success: {
    label: 'Done',
    icon: CircleCheck,
    tone: 'text-emerald-700 dark:text-emerald-400',
    pill: 'bg-emerald-50 dark:bg-emerald-950',
  },
  error: {
    label: 'Failed',
    icon: CircleX,
    tone: 'text-red-700 dark:text-red-400',
    pill: 'bg-red-50 dark:bg-red-950',
  },
  cancelled: {
    label: 'Cancelled',
    icon: Ban,
    tone: 'text-amber-700 dark:text-amber-400',
    pill: 'bg-amber-50 dark:bg-amber-950',
  },
  step_limit: {
    label: 'Step limit reached',
    icon: Repeat,
    tone: 'text-amber-700 dark:text-amber-400',
    pill: 'bg-amber-50 dark:bg-amber-950',
  },
  budget_exhausted: {
    label: 'Budget used up',
    icon: Gauge,
    tone: 'text-amber-700 dark:text-amber-400',
    pill: 'bg-amber-50 dark:bg-amber-950',
  },
  interrupted: {
    label: 'Interrupted',
    icon: Unplug,
    tone: 'text-red-700 dark:text-red-400',
    pill: 'bg-red-50 dark:bg-red-950',
  },
  rejected: {
    label: 'Rejected',
    icon: ThumbsDown,
    tone: 'text-neutral-700 dark:text-neutral-300',
    pill: 'bg-neutral-100 dark:bg-neutral-800',
  },
};

/** The status icon alone; `label` makes it an image for screen readers (e.g. inside a tab). */
export function StatusIcon({ status, label, className = 'h-4 w-4' }: { status: DelegationStatus; label?: string; className?: string }) {
  const look = STATUS_LOOKS[status];
  const Icon = look.icon;
  return (
    <Icon
      className={`${className} shrink-0 ${look.tone} ${look.spin ? 'animate-spin motion-reduce:animate-none' : ''}`}
      {...(label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': true })}
    />
  );
}

/** Icon and word in a coloured pill: "Queued", "Running", "Done", "Budget used up"… */
export function StatusBadge({ status }: { status: DelegationStatus }) {
  const look = STATUS_LOOKS[status];
  return (
    <span className={`inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-medium ${look.pill} ${look.tone}`}>
      <StatusIcon status={status} className="h-3.5 w-3.5" />
      {look.label}
    </span>
  );
}
