'use client';

import { apiKeyCreateSchema, type ApiKeyCreated } from '@baton/schemas';
import { TriangleAlert } from 'lucide-react';
import { useEffect, useState, type FormEvent } from 'react';
import { api } from '@/lib/api-client';
import { Alert } from '../ui/alert';
import { Button } from '../ui/button';
import { CopyField } from '../ui/copy-field';
import { Dialog } from '../ui/dialog';
import { controlProps, Field } from '../ui/field';
import { Input } from '../ui/input';

/**
 * Name a new key, then see it — once. The key stays in this dialog's memory only until it
 * closes; the server keeps nothing but its hash.
 */
export function CreateKeyDialog({
  workspaceId,
  workspaceName,
  open,
  onOpenChange,
  onCreated,
}: {
  workspaceId: string;
  workspaceName: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCreated: (key: ApiKeyCreated) => void;
}) {
  const [name, setName] = useState('');
  const [created, setCreated] = useState<ApiKeyCreated>();
  const [error, setError] = useState<{ field?: string; form?: string }>({});
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (open) return;
    setName('');
    setCreated(undefined);
    setError({});
  }, [open]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = apiKeyCreateSchema.safeParse({ name });
    if (!parsed.success) return setError({ field: `Name ${parsed.error.issues[0]!.message}` });
    setBusy(true);
    setError({});
    try {
      const key = await api.apiKeys.create(workspaceId, parsed.data);
      setCreated(key);
      onCreated(key);
    } catch (err) {
      setError({ form: (err as Error).message });
    } finally {
      setBusy(false);
    }
  }

  if (created) {
    const origin = typeof window === 'undefined' ? '' : window.location.origin;
    return (
      <Dialog
        open={open}
        onOpenChange={onOpenChange}
        size="md"
        title={`API key “${created.name}”`}
        description={`It acts as you in ${workspaceName}, and only there.`}
      >
        <div className="flex flex-col gap-4">
          <CopyField id="new-api-key" label="API key" value={created.key} />
          <div
            role="note"
            className="flex items-start gap-2 rounded-lg border border-amber-200 bg-amber-50 px-3 py-2.5 text-sm text-amber-900 dark:border-amber-900/60 dark:bg-amber-950/40 dark:text-amber-200"
          >
            <TriangleAlert className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
            <p>Copy the key now: you won’t see it again. Baton stores only a fingerprint of it. Lost it? Revoke it and create a new one.</p>
          </div>
          <div className="text-sm text-neutral-600 dark:text-neutral-400">
            <p className="mb-1.5">Send it as a bearer token:</p>
            <pre className="overflow-x-auto rounded-lg bg-neutral-100 p-3 font-mono text-xs text-neutral-800 dark:bg-neutral-800 dark:text-neutral-200">
              {`curl ${origin}/api/workspaces/${encodeURIComponent(workspaceId)}/agents \\\n  -H "Authorization: Bearer $BATON_API_KEY"`}
            </pre>
          </div>
          <div className="flex justify-end">
            <Button onClick={() => onOpenChange(false)}>Done</Button>
          </div>
        </div>
      </Dialog>
    );
  }

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Create API key"
      description={`For scripts and other programs calling Baton's API as you, in ${workspaceName}.`}
    >
      <form onSubmit={(ev) => void submit(ev)} noValidate className="flex flex-col gap-4">
        {error.form && <Alert>{error.form}</Alert>}
        <Field id="api-key-name" label="Name" hint="What uses it, so you can tell keys apart." error={error.field}>
          <Input
            {...controlProps('api-key-name', { hint: true, error: error.field })}
            value={name}
            onChange={(ev) => setName(ev.target.value)}
            placeholder="e.g. Nightly report script"
            autoComplete="off"
            autoFocus
          />
        </Field>
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" disabled={busy}>
            {busy ? 'Creating…' : 'Create key'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
