'use client';

import { chatTitleSchema, type Chat } from '@baton/schemas';
import { useEffect, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { renameChat } from '@/lib/chat-list';
import { Alert } from '../ui/alert';
import { Button } from '../ui/button';
import { Dialog } from '../ui/dialog';
import { controlProps, Field } from '../ui/field';
import { Input } from '../ui/input';

export function RenameChatDialog({ open, onOpenChange, chat }: { open: boolean; onOpenChange: (open: boolean) => void; chat: Chat }) {
  const [title, setTitle] = useState(chat.title);
  const [error, setError] = useState<string>();
  const [formError, setFormError] = useState<string>();
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!open) return;
    setTitle(chat.title);
    setError(undefined);
    setFormError(undefined);
  }, [open, chat.title]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = chatTitleSchema.safeParse(title);
    if (!parsed.success) {
      setError(`Title ${parsed.error.issues[0]?.message ?? 'is invalid'}`);
      return;
    }
    setBusy(true);
    setFormError(undefined);
    try {
      await renameChat(chat.workspaceId, chat.id, parsed.data);
      toast.success('Chat renamed');
      onOpenChange(false);
    } catch (err) {
      setFormError((err as Error).message);
    } finally {
      setBusy(false);
    }
  }

  const inputId = `rename-${chat.id}`;
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Rename chat" description="Give this chat a title you will recognise in the sidebar.">
      <form onSubmit={(e) => void submit(e)} className="flex flex-col gap-4" noValidate>
        {formError && <Alert>{formError}</Alert>}
        <Field id={inputId} label="Chat title" error={error}>
          <Input
            {...controlProps(inputId, { error })}
            value={title}
            onChange={(e) => {
              setTitle(e.target.value);
              setError(undefined);
            }}
            maxLength={200}
            autoFocus
          />
        </Field>
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" disabled={busy}>
            {busy ? 'Saving…' : 'Save'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
