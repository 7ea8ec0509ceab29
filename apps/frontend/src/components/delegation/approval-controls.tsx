'use client';

import { MAX_REJECT_REASON_CHARS, type ApprovalDecision } from '@baton/schemas';
import { Check, Pencil, ThumbsDown } from 'lucide-react';
import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { api, ApiError } from '@/lib/api-client';
import { followChat } from '@/lib/chat-sessions';
import { readChat } from '@/lib/queries';
import { Button } from '../ui/button';

type Mode = 'choose' | 'edit' | 'reject';

const field =
  'mt-1 block w-full rounded-lg border border-neutral-300 bg-white px-3 py-2 text-sm text-neutral-900 ' +
  'focus-visible:outline-2 focus-visible:outline-indigo-500 dark:border-neutral-700 dark:bg-neutral-950 dark:text-neutral-100';
// At least 44 px tall on phones (touch targets).
const touch = 'max-sm:h-11';

/**
 * Approve, Edit task (then approve) and Reject (with an optional reason) for a `newTask`
 * call waiting for approval. The server records the decision (and refuses a second one);
 * the parent chat is then read again, so the approved call starts here like any other
 * pending call, and an answer the server resumed (all calls rejected) is followed.
 */
export function ApprovalControls({
  workspaceId,
  parentChatId,
  toolCallId,
  subAgentName,
  task,
}: {
  workspaceId: string;
  parentChatId: string;
  toolCallId: string;
  subAgentName: string;
  task: string;
}) {
  const [mode, setMode] = useState<Mode>('choose');
  const [draft, setDraft] = useState(task);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const editId = useId();
  const reasonId = useId();
  const errorId = useId();
  const chooser = useRef<HTMLDivElement>(null);

  const back = () => {
    setMode('choose');
    setError(null);
    // Focus returns to the buttons that opened the form.
    requestAnimationFrame(() => chooser.current?.querySelector('button')?.focus());
  };

  const decide = async (decision: ApprovalDecision) => {
    setBusy(true);
    setError(null);
    try {
      await api.chats.decideApproval(workspaceId, parentChatId, toolCallId, decision);
      // Read after the decision even when a follow is under way (say, of a decision a moment ago).
      const followed = await followChat(parentChatId, undefined, { fresh: true });
      // A chat without a session here (a paused sub-chat shown in the viewer) is read into the cache instead.
      if (!followed) await readChat(workspaceId, parentChatId, { fresh: true });
      // Normally the block has left "Awaiting approval" by now; should it not have, the buttons come back.
      setBusy(false);
    } catch (err) {
      // Decided meanwhile (another tab): show what the server has.
      if (err instanceof ApiError && err.status === 409) void followChat(parentChatId).catch(() => {});
      setError(err instanceof ApiError ? err.message : 'The decision could not be sent. Check your connection and try again.');
      setBusy(false);
    }
  };

  const approveEdited = () => {
    const edited = draft.trim();
    if (!edited) {
      setError('The task must not be empty.');
      return;
    }
    void decide(edited === task.trim() ? { approve: true } : { approve: true, task: edited });
  };
  const reject = () => void decide(reason.trim() ? { approve: false, reason: reason.trim() } : { approve: false });

  const formKeys = (submit: () => void) => (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      back();
    } else if (e.key === 'Enter' && (e.metaKey || e.ctrlKey)) {
      e.preventDefault();
      submit();
    }
  };

  return (
    <div className="border-t border-neutral-200 px-3 py-2.5 dark:border-neutral-800">
      {mode === 'choose' && (
        <div ref={chooser} className="flex flex-wrap items-center gap-2">
          <p className="w-full text-xs text-neutral-600 sm:mr-auto sm:w-auto dark:text-neutral-400">Nothing runs until you decide.</p>
          <Button
            size="sm"
            className={touch}
            disabled={busy}
            onClick={() => void decide({ approve: true })}
            aria-label={`Approve the task for ${subAgentName}`}
          >
            <Check className="h-4 w-4" aria-hidden />
            Approve
          </Button>
          <Button
            size="sm"
            variant="secondary"
            className={touch}
            disabled={busy}
            onClick={() => {
              setDraft(task);
              setMode('edit');
            }}
          >
            <Pencil className="h-4 w-4" aria-hidden />
            Edit task
          </Button>
          <Button size="sm" variant="secondary" className={touch} disabled={busy} onClick={() => setMode('reject')}>
            <ThumbsDown className="h-4 w-4" aria-hidden />
            Reject
          </Button>
        </div>
      )}
      {mode === 'edit' && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            approveEdited();
          }}
        >
          <label htmlFor={editId} className="text-xs font-medium text-neutral-800 dark:text-neutral-200">
            Task for {subAgentName}
          </label>
          <textarea
            id={editId}
            // biome-ignore lint/a11y/noAutofocus: the person just asked to edit this task
            autoFocus
            rows={4}
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={formKeys(approveEdited)}
            aria-describedby={error ? errorId : undefined}
            className={field}
          />
          <div className="mt-2 flex flex-wrap items-center justify-end gap-2">
            <span className="mr-auto text-xs text-neutral-500">Ctrl+Enter approves · Esc cancels</span>
            <Button size="sm" variant="ghost" className={touch} disabled={busy} onClick={back}>
              Cancel
            </Button>
            <Button type="submit" size="sm" className={touch} disabled={busy}>
              <Check className="h-4 w-4" aria-hidden />
              Approve edited task
            </Button>
          </div>
        </form>
      )}
      {mode === 'reject' && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            reject();
          }}
        >
          <label htmlFor={reasonId} className="text-xs font-medium text-neutral-800 dark:text-neutral-200">
            Reason (optional, the agent reads it)
          </label>
          <textarea
            id={reasonId}
            // biome-ignore lint/a11y/noAutofocus: the person just asked to reject this task
            autoFocus
            rows={2}
            maxLength={MAX_REJECT_REASON_CHARS}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            onKeyDown={formKeys(reject)}
            aria-describedby={error ? errorId : undefined}
            className={field}
          />
          <div className="mt-2 flex flex-wrap items-center justify-end gap-2">
            <span className="mr-auto text-xs text-neutral-500">Ctrl+Enter rejects · Esc cancels</span>
            <Button size="sm" variant="ghost" className={touch} disabled={busy} onClick={back}>
              Cancel
            </Button>
            <Button type="submit" size="sm" variant="danger" className={touch} disabled={busy}>
              <ThumbsDown className="h-4 w-4" aria-hidden />
              Reject
            </Button>
          </div>
        </form>
      )}
      {error && (
        <p id={errorId} role="alert" className="mt-2 text-xs text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}
