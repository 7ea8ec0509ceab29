'use client';

import { type ChatWithMessages, type FeedbackRating, MAX_FEEDBACK_COMMENT_CHARS, type MessageFeedback } from '@baton/schemas';
import { ThumbsDown, ThumbsUp } from 'lucide-react';
import { type FormEvent, type KeyboardEvent, useId, useRef, useState } from 'react';
import { toast } from 'sonner';
import { api } from '@/lib/api-client';
import { useChatQuery } from '@/lib/use-api-query';
import { Button } from '../ui/button';
import { Textarea } from '../ui/input';
import { iconButton } from './icon-button';

const labels: Record<FeedbackRating, { button: string; prompt: string }> = {
  up: { button: 'Good answer', prompt: 'What was good about it? (optional)' },
  down: { button: 'Bad answer', prompt: 'What went wrong? (optional)' },
};

/**
 * Thumbs up / down under an answer, with an optional comment. A click saves the rating at once
 * (the comment box then opens for more); the pressed thumb clicked again clears it. The stored
 * rating is the chat's own (`feedback` on the message, from the query cache); what a request
 * returns is kept here too, for an answer the cache has not read back yet.
 */
export function AnswerFeedback({ workspaceId, chatId, messageId }: { workspaceId: string; chatId: string; messageId: string }) {
  const { data: chat, setData } = useChatQuery(workspaceId, chatId, { enabled: false });
  const stored = chat?.messages.find((m) => m.id === messageId)?.feedback ?? null;
  // undefined: nothing changed here since the chat was read.
  const [local, setLocal] = useState<MessageFeedback | null | undefined>(undefined);
  const current = local !== undefined ? local : stored;
  const [busy, setBusy] = useState(false);
  const [commentFor, setCommentFor] = useState<FeedbackRating | null>(null);
  const buttons = useRef<Partial<Record<FeedbackRating, HTMLButtonElement | null>>>({});

  function keep(feedback: MessageFeedback | null) {
    setLocal(feedback);
    // An updater that returns undefined leaves the cache alone (the chat was not read into it).
    setData((c) => (c ? { ...c, messages: c.messages.map((m) => (m.id === messageId ? { ...m, feedback } : m)) } : (c as ChatWithMessages | null)));
  }

  async function rate(rating: FeedbackRating) {
    if (busy) return;
    setBusy(true);
    try {
      if (current?.rating === rating) {
        await api.chats.clearFeedback(workspaceId, chatId, messageId);
        keep(null);
        setCommentFor(null);
      } else {
        keep(await api.chats.setFeedback(workspaceId, chatId, messageId, { rating }));
        setCommentFor(rating);
      }
    } catch (err) {
      toast.error(`Could not save your feedback: ${(err as Error).message}`);
    } finally {
      setBusy(false);
    }
  }

  function closeComment(focusThumb: boolean) {
    const rating = commentFor;
    setCommentFor(null);
    if (focusThumb && rating) requestAnimationFrame(() => buttons.current[rating]?.focus());
  }

  async function sendComment(comment: string) {
    if (!commentFor) return;
    try {
      keep(await api.chats.setFeedback(workspaceId, chatId, messageId, { rating: commentFor, comment }));
      toast.success('Thanks for your feedback');
      closeComment(true);
    } catch (err) {
      // The box stays open with what was typed; the toast says why.
      toast.error(`Could not save your comment: ${(err as Error).message}`);
    }
  }

  return (
    <>
      {(['up', 'down'] as const).map((rating) => {
        const Icon = rating === 'up' ? ThumbsUp : ThumbsDown;
        const pressed = current?.rating === rating;
        const title = pressed ? `${labels[rating].button} (click again to clear)${current?.comment ? `: “${current.comment}”` : ''}` : labels[rating].button;
        return (
          <button
            key={rating}
            ref={(el) => {
              buttons.current[rating] = el;
            }}
            type="button"
            aria-label={labels[rating].button}
            aria-pressed={pressed}
            title={title}
            // The pressed colour replaces the resting grey (two text colours would leave it to the stylesheet's order).
            className={pressed ? iconButton.replace('text-neutral-500', 'text-indigo-600 dark:text-indigo-400') : iconButton}
            onClick={() => void rate(rating)}
            disabled={busy}
          >
            <Icon className="h-3.5 w-3.5" aria-hidden fill={pressed ? 'currentColor' : 'none'} />
          </button>
        );
      })}
      {commentFor && (
        <CommentBox
          key={commentFor}
          rating={commentFor}
          initial={current?.rating === commentFor ? (current.comment ?? '') : ''}
          onSend={sendComment}
          onClose={() => closeComment(true)}
        />
      )}
    </>
  );
}

function CommentBox({
  rating,
  initial,
  onSend,
  onClose,
}: {
  rating: FeedbackRating;
  initial: string;
  onSend: (comment: string) => Promise<void>;
  onClose: () => void;
}) {
  const [text, setText] = useState(initial);
  const [sending, setSending] = useState(false);
  const id = useId();

  async function submit(event?: FormEvent) {
    event?.preventDefault();
    setSending(true);
    try {
      await onSend(text);
    } finally {
      setSending(false);
    }
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    // As in the message box: Enter sends, Shift+Enter is a new line; Escape closes.
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void submit();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      onClose();
    }
  }

  return (
    <form
      onSubmit={(e) => void submit(e)}
      aria-label="Feedback comment"
      className="mt-1 flex basis-full flex-col gap-2 rounded-lg border border-neutral-200 bg-white p-3 text-sm dark:border-neutral-800 dark:bg-neutral-900"
    >
      <label htmlFor={id} className="font-medium text-neutral-800 dark:text-neutral-200">
        {labels[rating].prompt}
      </label>
      <Textarea
        id={id}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        rows={2}
        maxLength={MAX_FEEDBACK_COMMENT_CHARS}
        // biome-ignore lint/a11y/noAutofocus: the box opens because the person just rated; typing goes here.
        autoFocus
        aria-describedby={`${id}-hint`}
        className="resize-y"
      />
      <p id={`${id}-hint`} className="text-xs text-neutral-500">
        Your rating is saved. The workspace’s admins see it, this comment and the start of the answer.
      </p>
      <div className="flex justify-end gap-2">
        <Button variant="ghost" size="sm" onClick={onClose} disabled={sending}>
          Not now
        </Button>
        <Button type="submit" size="sm" disabled={sending || text.trim() === ''}>
          {sending ? 'Sending…' : 'Send'}
        </Button>
      </div>
    </form>
  );
}
