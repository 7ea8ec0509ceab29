'use client';

import type { FileUIPart } from 'ai';
import { ArrowUp, Info } from 'lucide-react';
import { useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import { MAX_MESSAGE_TEXT_CHARS } from '@baton/schemas';
import { fileParts, sendability } from '@/lib/attachments';
import { AttachButton } from '../chat/attach-button';
import { AttachmentChips } from '../chat/attachment-chips';
import { FileDropZone } from '../chat/file-drop-zone';
import { useAttachments } from '../chat/use-attachments';

/**
 * The box under a running sub-agent's transcript: what is sent here (text, files or both)
 * reaches the sub-agent when its current step ends. Files are attached as in the composer —
 * the Attach button, paste, or a drop on the box — and uploaded at once. Enter sends,
 * Shift+Enter adds a line.
 */
export function SteeringForm({
  workspaceId,
  agentName,
  onSend,
  error,
}: {
  workspaceId: string;
  agentName: string;
  onSend: (text: string, files: FileUIPart[]) => Promise<boolean>;
  error?: string;
}) {
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const { attachments, add, remove, clear, paste } = useAttachments(workspaceId);
  const hintId = useId();
  const errorId = useId();
  const files = sendability(text, attachments);
  const canSend = !sending && files.canSend;

  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    if (!canSend) return;
    setSending(true);
    const ok = await onSend(text.trim(), fileParts(attachments));
    setSending(false);
    if (ok) {
      setText('');
      clear();
    }
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void submit();
    }
  };

  return (
    <FileDropZone onFiles={add} className="shrink-0 border-t border-neutral-200 dark:border-neutral-800">
      <form onSubmit={submit} data-steering-form className="px-4 py-3" aria-label={`Message to ${agentName}`}>
        {error && (
          <p id={errorId} role="alert" className="mb-2 text-sm text-red-700 dark:text-red-400">
            {error}
          </p>
        )}
        <AttachmentChips attachments={attachments} onRemove={remove} />
        <div className="flex items-end gap-2">
          <AttachButton onFiles={add} disabled={sending} />
          <textarea
            value={text}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={onKeyDown}
            onPaste={paste}
            rows={1}
            data-steer-input
            maxLength={MAX_MESSAGE_TEXT_CHARS}
            aria-label={`Message to ${agentName} while it works`}
            aria-describedby={error ? `${hintId} ${errorId}` : hintId}
            placeholder={`Steer ${agentName}: add or change instructions…`}
            className="min-h-11 min-w-0 flex-1 resize-none rounded-xl border border-neutral-300 bg-white px-3 py-2.5 text-sm focus-visible:outline-2 focus-visible:outline-indigo-500 dark:border-neutral-700 dark:bg-neutral-900"
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
        {files.reason && (
          <p className="mt-1 flex items-center gap-1.5 text-xs text-neutral-500" aria-live="polite">
            <Info className="h-3.5 w-3.5 shrink-0" aria-hidden />
            {files.reason}
          </p>
        )}
        <p id={hintId} className="mt-1 text-xs text-neutral-500">
          It reads your message when its current step ends, then carries on until it reports back.
        </p>
      </form>
    </FileDropZone>
  );
}
