'use client';

import type { BatonUIMessage } from '@baton/schemas';
import type { FileUIPart } from 'ai';
import { Pencil } from 'lucide-react';
import { useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { Button } from '../ui/button';
import { useChatActions } from './chat-actions';
import { MessageFiles } from './message-files';
import { iconButton } from './icon-button';
import { CopyButton } from './message-footer';
import { readableText } from './message-parts';
import { MessageTime } from './message-time';

/**
 * A message of the person: the bubble, and under it when it was sent, Copy, and — on the
 * last one of a live chat — Edit, which rewrites it in place and has it answered again.
 */
export function UserMessage({ message, chatId, canEdit }: { message: BatonUIMessage; chatId: string; canEdit: boolean }) {
  const actions = useChatActions(chatId);
  const text = readableText(message);
  const files = message.parts.filter((p): p is FileUIPart => p.type === 'file');
  const [editing, setEditing] = useState(false);
  const editable = canEdit && actions !== null;

  if (editing && editable) {
    return (
      <li aria-label="You" className="flex justify-end">
        <EditBox
          initial={text}
          disabled={actions.isBusy}
          onCancel={() => setEditing(false)}
          onSave={(next) => {
            setEditing(false);
            if (next !== text) actions.edit(message.id, next);
          }}
        />
      </li>
    );
  }
  return (
    <li aria-label="You" className="group flex flex-col items-end gap-1">
      <MessageFiles parts={files} />
      {text && (
        <div className="max-w-[85%] rounded-2xl rounded-br-md bg-neutral-100 px-4 py-2.5 text-sm leading-relaxed whitespace-pre-wrap break-words dark:bg-neutral-800">
          {text}
        </div>
      )}
      <div className="flex items-center gap-x-1 text-xs text-neutral-500 transition-opacity md:opacity-0 md:group-focus-within:opacity-100 md:group-hover:opacity-100">
        <MessageTime messageId={message.id} />
        {text && <CopyButton text={text} label="Copy message" />}
        {editable && (
          <button
            type="button"
            aria-label="Edit message"
            title="Edit message"
            className={iconButton}
            disabled={actions.isBusy}
            onClick={() => setEditing(true)}
          >
            <Pencil className="h-3.5 w-3.5" aria-hidden />
          </button>
        )}
      </div>
    </li>
  );
}

/** The message's text in a box: Enter (or Save) sends it again, Shift+Enter adds a line, Esc (or Cancel) keeps the original. */
function EditBox({ initial, disabled, onSave, onCancel }: { initial: string; disabled: boolean; onSave: (text: string) => void; onCancel: () => void }) {
  const [value, setValue] = useState(initial);
  const box = useRef<HTMLTextAreaElement>(null);
  const canSave = !disabled && value.trim().length > 0;

  function save(event?: FormEvent) {
    event?.preventDefault();
    if (canSave) onSave(value.trim());
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Escape') {
      event.preventDefault();
      onCancel();
    } else if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) save(event);
  }

  return (
    <form
      onSubmit={save}
      className="flex w-full max-w-[85%] flex-col gap-2 rounded-2xl border border-neutral-300 bg-white p-2 dark:border-neutral-700 dark:bg-neutral-900"
    >
      <label className="sr-only" htmlFor="edit-message-input">
        Edit message
      </label>
      <textarea
        id="edit-message-input"
        ref={box}
        value={value}
        onChange={(e) => setValue(e.target.value)}
        onKeyDown={onKeyDown}
        onFocus={(e) => e.currentTarget.setSelectionRange(e.currentTarget.value.length, e.currentTarget.value.length)}
        // biome-ignore lint/a11y/noAutofocus: the person just asked to edit this text.
        autoFocus
        className="max-h-64 min-h-16 resize-none bg-transparent px-2 py-1.5 text-base text-neutral-900 outline-none md:text-sm dark:text-neutral-100 [field-sizing:content]"
      />
      <div className="flex items-center justify-end gap-2">
        <span className="mr-auto hidden px-2 text-xs text-neutral-500 sm:inline">The answer after it will be replaced.</span>
        <Button type="button" variant="ghost" size="sm" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" size="sm" disabled={!canSave}>
          Send
        </Button>
      </div>
    </form>
  );
}
