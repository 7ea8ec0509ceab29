'use client';

import { ArrowUp, Info } from 'lucide-react';
import { useState, type FormEvent, type KeyboardEvent } from 'react';

interface MessageComposerProps {
  /** Called with the trimmed text; Enter sends, Shift+Enter adds a newline. */
  onSend?: (text: string) => void;
  disabled?: boolean;
  /** Shown under the box while sending is not possible. */
  disabledReason?: string;
  placeholder?: string;
}

/** The message box at the bottom of a chat (and of the new-chat page). */
export function MessageComposer({ onSend, disabled = false, disabledReason, placeholder = 'Message the agent…' }: MessageComposerProps) {
  const [text, setText] = useState('');
  const canSend = !disabled && Boolean(onSend) && text.trim().length > 0;

  function send(event?: FormEvent) {
    event?.preventDefault();
    if (!canSend) return;
    onSend?.(text.trim());
    setText('');
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) send(event);
  }

  return (
    <form onSubmit={send} className="w-full">
      <div className="flex items-end gap-2 rounded-2xl border border-neutral-300 bg-white p-2 shadow-sm focus-within:border-indigo-500 focus-within:ring-2 focus-within:ring-indigo-500/20 dark:border-neutral-700 dark:bg-neutral-900">
        <label htmlFor="message-input" className="sr-only">
          Message
        </label>
        <textarea
          id="message-input"
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
          rows={1}
          disabled={disabled}
          placeholder={placeholder}
          aria-describedby={disabled && disabledReason ? 'message-input-note' : undefined}
          className="max-h-48 min-h-10 flex-1 resize-none bg-transparent px-2 py-2 text-sm text-neutral-900 outline-none placeholder:text-neutral-400 disabled:cursor-not-allowed dark:text-neutral-100 [field-sizing:content]"
        />
        <button
          type="submit"
          aria-label="Send message"
          disabled={!canSend}
          className="grid h-9 w-9 shrink-0 cursor-pointer place-items-center rounded-xl bg-neutral-900 text-white transition-colors hover:bg-neutral-700 disabled:cursor-not-allowed disabled:bg-neutral-300 dark:bg-white dark:text-neutral-900 dark:disabled:bg-neutral-700 dark:disabled:text-neutral-400"
        >
          <ArrowUp className="h-4 w-4" aria-hidden />
        </button>
      </div>
      {disabled && disabledReason && (
        <p id="message-input-note" className="mt-2 flex items-center justify-center gap-1.5 text-xs text-neutral-500">
          <Info className="h-3.5 w-3.5 shrink-0" aria-hidden />
          {disabledReason}
        </p>
      )}
    </form>
  );
}
