'use client';

import { ArrowUp } from 'lucide-react';
import { useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import { MAX_MESSAGE_TEXT_CHARS } from '@baton/schemas';

/**
 * The box under a running sub-agent's transcript: what is sent here reaches the sub-agent
 * when its current step ends. Enter sends, Shift+Enter adds a line.
 */
export function SteeringForm({ agentName, onSend, error }: { agentName: string; onSend: (text: string) => Promise<boolean>; error?: string }) {
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const hintId = useId();
  const errorId = useId();
  const canSend = !sending && text.trim().length > 0;

  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    if (!canSend) return;
    setSending(true);
    const ok = await onSend(text.trim());
    setSending(false);
    if (ok) setText('');
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void submit();
    }
  };

  return (
    <form
      onSubmit={submit}
      data-steering-form
      className="shrink-0 border-t border-neutral-200 px-4 py-3 dark:border-neutral-800"
      aria-label={`Message to ${agentName}`}
    >
      {error && (
        <p id={errorId} role="alert" className="mb-2 text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
      <div className="flex items-end gap-2">
        <textarea
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
          rows={1}
          data-steer-input
          maxLength={MAX_MESSAGE_TEXT_CHARS}
          aria-label={`Message to ${agentName} while it works`}
          aria-describedby={error ? `${hintId} ${errorId}` : hintId}
          placeholder={`Steer ${agentName}: add or change instructions…`}
          className="min-h-11 flex-1 resize-none rounded-xl border border-neutral-300 bg-white px-3 py-2.5 text-sm focus-visible:outline-2 focus-visible:outline-indigo-500 dark:border-neutral-700 dark:bg-neutral-900"
        />
        <button
          type="submit"
          disabled={!canSend}
          aria-label="Send to the sub-agent"
          className="inline-flex h-11 w-11 shrink-0 items-center justify-center rounded-xl bg-neutral-900 text-white hover:bg-neutral-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 disabled:opacity-40 dark:bg-white dark:text-neutral-900"
        >
          <ArrowUp className="h-4 w-4" aria-hidden />
        </button>
      </div>
      <p id={hintId} className="mt-1 text-xs text-neutral-500">
        It reads your message when its current step ends, then carries on until it reports back.
      </p>
    </form>
  );
}
