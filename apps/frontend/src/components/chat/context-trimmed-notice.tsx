import type { ContextTrimmed } from '@baton/schemas';
import { ListCollapse } from 'lucide-react';

const count = new Intl.NumberFormat('en-US');

/**
 * The conversation was longer than the model's context window, so the oldest messages were
 * left out of what the model read for this answer (the backend's agent/context-fit.ts).
 */
export function ContextTrimmedNotice({ trimmed }: { trimmed: ContextTrimmed }) {
  return (
    <p
      className="flex items-start gap-1.5 text-xs text-neutral-500 dark:text-neutral-400"
      data-testid="context-trimmed"
      title={`The model reads at most ${count.format(trimmed.contextWindow)} tokens. Its context window is set per model in Settings → Providers.`}
    >
      <ListCollapse className="mt-px h-3.5 w-3.5 shrink-0" aria-hidden />
      <span>
        Earlier messages were left out to fit the model’s context window ({count.format(trimmed.sentMessages)} of {count.format(trimmed.totalMessages)} messages
        sent).
      </span>
    </p>
  );
}
