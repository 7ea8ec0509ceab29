'use client';

import type { FileUIPart } from 'ai';
import { ArrowUp, Info, Square } from 'lucide-react';
import { useImperativeHandle, useRef, useState, type FormEvent, type KeyboardEvent, type Ref } from 'react';
import { fileParts, sendability } from '@/lib/attachments';
import { AttachButton } from './attach-button';
import { AttachmentChips } from './attachment-chips';
import { useAttachments } from './use-attachments';

/** Lets a page put text into the box (the demo notice's example) and files (dropped on the chat). */
export interface ComposerHandle {
  fill: (text: string) => void;
  addFiles: (files: File[]) => void;
}

interface MessageComposerProps {
  /**
   * Called with the trimmed text and the uploaded files' parts (either may be empty, not
   * both); Enter sends, Shift+Enter adds a newline.
   */
  onSend?: (text: string, files: FileUIPart[]) => void;
  /** Where attached files are uploaded; without it the composer takes text only. */
  workspaceId?: string;
  /** An answer is arriving: the send button becomes Stop, and typing ahead stays possible. */
  busy?: boolean;
  onStop?: () => void;
  disabled?: boolean;
  /** Shown under the box while sending is not possible. */
  disabledReason?: string;
  placeholder?: string;
  autoFocus?: boolean;
  ref?: Ref<ComposerHandle>;
}

/** The message box at the bottom of a chat (and of the new-chat page). */
export function MessageComposer({
  onSend,
  workspaceId,
  busy = false,
  onStop,
  disabled = false,
  disabledReason,
  placeholder = 'Message the agent…',
  autoFocus = false,
  ref,
}: MessageComposerProps) {
  const [text, setText] = useState('');
  const input = useRef<HTMLTextAreaElement>(null);
  const { attachments, add, remove, clear, paste } = useAttachments(workspaceId);
  const files = sendability(text, attachments);
  const canSend = !disabled && !busy && Boolean(onSend) && files.canSend;
  const canAttach = Boolean(workspaceId) && !disabled;

  useImperativeHandle(ref, () => ({
    fill: (value) => {
      setText(value);
      const box = input.current;
      if (!box) return;
      box.focus();
      // Caret at the end, so Enter sends the example as it is or the user edits it.
      requestAnimationFrame(() => box.setSelectionRange(value.length, value.length));
    },
    addFiles: (dropped) => {
      if (canAttach) add(dropped);
    },
  }));

  function send(event?: FormEvent) {
    event?.preventDefault();
    if (!canSend) return;
    onSend?.(text.trim(), fileParts(attachments));
    setText('');
    clear();
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) send(event);
  }

  return (
    <form onSubmit={send} className="w-full">
      <div className="rounded-2xl border border-neutral-300 bg-white p-2 shadow-sm focus-within:border-indigo-500 focus-within:ring-2 focus-within:ring-indigo-500/20 dark:border-neutral-700 dark:bg-neutral-900">
        <AttachmentChips attachments={attachments} onRemove={remove} />
        <div className="flex items-end gap-2">
          {workspaceId && <AttachButton onFiles={add} disabled={!canAttach} />}
          <label htmlFor="message-input" className="sr-only">
            Message
          </label>
          <textarea
            id="message-input"
            ref={input}
            value={text}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={onKeyDown}
            onPaste={(event) => canAttach && paste(event)}
            rows={1}
            disabled={disabled}
            // biome-ignore lint/a11y/noAutofocus: a chat page exists to type in; callers opt in (not in the modal's read-only views).
            autoFocus={autoFocus}
            placeholder={placeholder}
            aria-describedby={disabled && disabledReason ? 'message-input-note' : 'message-input-hint'}
            className="max-h-48 min-h-10 flex-1 resize-none bg-transparent px-2 py-2 text-base text-neutral-900 outline-none placeholder:text-neutral-400 disabled:cursor-not-allowed md:text-sm dark:text-neutral-100 [field-sizing:content]"
          />
          <span id="message-input-hint" className="sr-only">
            Enter sends, Shift+Enter adds a new line.
          </span>
          {/*
          Distinct keys: without them React reuses one <button> for both and, when Stop's
          click ends the answer, turns it into the submit button before the browser runs the
          click's default action — which then sent the draft. Stop must only stop.
        */}
          {busy && onStop ? (
            <button
              key="stop"
              type="button"
              aria-label="Stop answering"
              title="Stop answering"
              onClick={(event) => {
                event.preventDefault();
                onStop();
              }}
              className="grid h-11 w-11 shrink-0 cursor-pointer place-items-center rounded-xl md:h-9 md:w-9 bg-neutral-900 text-white transition-colors hover:bg-neutral-700 dark:bg-white dark:text-neutral-900 dark:hover:bg-neutral-200"
            >
              <Square className="h-3.5 w-3.5 fill-current" aria-hidden />
            </button>
          ) : (
            <button
              key="send"
              type="submit"
              aria-label="Send message"
              title="Send (Enter)"
              disabled={!canSend}
              className="grid h-11 w-11 shrink-0 cursor-pointer place-items-center rounded-xl md:h-9 md:w-9 bg-neutral-900 text-white transition-colors hover:bg-neutral-700 disabled:cursor-not-allowed disabled:bg-neutral-300 dark:bg-white dark:text-neutral-900 dark:disabled:bg-neutral-700 dark:disabled:text-neutral-400"
            >
              <ArrowUp className="h-4 w-4" aria-hidden />
            </button>
          )}
        </div>
      </div>
      {!disabled && files.reason && (
        <p className="mt-2 flex items-center justify-center gap-1.5 text-xs text-neutral-500" aria-live="polite">
          <Info className="h-3.5 w-3.5 shrink-0" aria-hidden />
          {files.reason}
        </p>
      )}
      {disabled && disabledReason && (
        <p id="message-input-note" className="mt-2 flex items-center justify-center gap-1.5 text-xs text-neutral-500">
          <Info className="h-3.5 w-3.5 shrink-0" aria-hidden />
          {disabledReason}
        </p>
      )}
    </form>
  );
}
