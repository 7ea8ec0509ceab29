'use client';

import { type ShareCreated, sharedChatPath } from '@baton/schemas';
import { Link2 } from 'lucide-react';
import Link from 'next/link';
import { useEffect, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { api } from '@/lib/api-client';
import { getQueryClient } from '@/lib/query-client';
import { queryKeys } from '@/lib/queries';
import { useCopyToClipboard } from '@/lib/use-copy-to-clipboard';
import { Alert } from '../ui/alert';
import { Button } from '../ui/button';
import { CopyField } from '../ui/copy-field';
import { Dialog } from '../ui/dialog';
import { Field } from '../ui/field';
import { Select } from '../ui/input';

const DAY_MS = 24 * 60 * 60 * 1000;
const LIFETIMES = [
  { value: 'never', label: 'Never (until you revoke it)' },
  { value: '1', label: 'In 1 day' },
  { value: '7', label: 'In 7 days' },
  { value: '30', label: 'In 30 days' },
] as const;

/** The page a link opens, on this origin (the server's `url` is the configured public address, which may differ in development). */
export const shareLinkOf = (token: string) => `${window.location.origin}${sharedChatPath(token)}`;

/**
 * Share a chat: choose when the link expires, create it, and it is copied. The link is shown
 * in this dialog only (the server keeps a hash of it); the account's Shared links page lists
 * it for revoking.
 */
export function ShareDialog({
  workspaceId,
  chatId,
  open,
  onOpenChange,
}: {
  workspaceId: string;
  chatId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const [lifetime, setLifetime] = useState<(typeof LIFETIMES)[number]['value']>('never');
  const [created, setCreated] = useState<ShareCreated>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const { copy } = useCopyToClipboard();

  useEffect(() => {
    if (open) return;
    setCreated(undefined);
    setError(undefined);
    setLifetime('never');
  }, [open]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const expiresAt = lifetime === 'never' ? null : new Date(Date.now() + Number(lifetime) * DAY_MS).toISOString();
      const share = await api.chats.share(workspaceId, chatId, { expiresAt });
      setCreated(share);
      void getQueryClient().invalidateQueries({ queryKey: queryKeys.shares(workspaceId) });
      if (await copy(shareLinkOf(share.token))) toast.success('Link copied: anyone who has it can read this chat');
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  }

  const sharesPage = `/w/${encodeURIComponent(workspaceId)}/settings/shared-links`;
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      size="md"
      title="Share this chat"
      description="Anyone with the link can read this conversation, with its delegations and the sub-agents’ conversations, without signing in. They cannot write in it."
    >
      {created ? (
        <div className="flex flex-col gap-4">
          <CopyField id="share-link" label="Share link" value={shareLinkOf(created.token)} />
          <p className="text-sm text-neutral-600 dark:text-neutral-400">
            {created.expiresAt ? `It stops working on ${new Date(created.expiresAt).toLocaleString()}. ` : 'It works until you revoke it. '}
            This is the only time the link is shown; revoke it under{' '}
            <Link href={sharesPage} className="font-medium text-indigo-600 hover:underline dark:text-indigo-400" onClick={() => onOpenChange(false)}>
              Shared links
            </Link>
            .
          </p>
          <div className="flex justify-end">
            <Button onClick={() => onOpenChange(false)}>Done</Button>
          </div>
        </div>
      ) : (
        <form onSubmit={(ev) => void submit(ev)} className="flex flex-col gap-4">
          {error && <Alert>Could not create the link: {error}</Alert>}
          <Field id="share-expiry" label="Link expires">
            <Select id="share-expiry" value={lifetime} onChange={(ev) => setLifetime(ev.target.value as typeof lifetime)}>
              {LIFETIMES.map((l) => (
                <option key={l.value} value={l.value}>
                  {l.label}
                </option>
              ))}
            </Select>
          </Field>
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy}>
              <Link2 className="h-4 w-4" aria-hidden />
              {busy ? 'Creating…' : 'Create and copy link'}
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
