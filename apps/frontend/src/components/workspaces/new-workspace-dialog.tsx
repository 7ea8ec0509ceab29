'use client';

import { workspaceCreateSchema } from '@baton/schemas';
import { useRouter } from 'next/navigation';
import { useEffect, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { api } from '@/lib/api-client';
import { useSession } from '@/lib/session';
import { Alert } from '../ui/alert';
import { Button } from '../ui/button';
import { Dialog } from '../ui/dialog';
import { controlProps, Field } from '../ui/field';
import { Input } from '../ui/input';

/** A new workspace: the person creating it owns it, and it starts with the starter agents. */
export function NewWorkspaceDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const router = useRouter();
  const reloadSession = useSession((s) => s.reload);
  const [name, setName] = useState('');
  const [error, setError] = useState<{ field?: string; form?: string }>({});
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!open) return;
    setName('');
    setError({});
  }, [open]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = workspaceCreateSchema.safeParse({ name });
    if (!parsed.success) return setError({ field: `Name ${parsed.error.issues[0]!.message}` });
    setBusy(true);
    setError({});
    try {
      const workspace = await api.workspaces.create(parsed.data);
      await reloadSession();
      toast.success(`Created workspace “${workspace.name}”`);
      onOpenChange(false);
      router.push(`/w/${encodeURIComponent(workspace.id)}`);
    } catch (err) {
      setError({ form: (err as Error).message });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="New workspace"
      description="A workspace has its own agents, providers, chats and members. You will be its owner; it starts with the starter agents."
    >
      <form onSubmit={(ev) => void submit(ev)} noValidate className="flex flex-col gap-4">
        {error.form && <Alert>{error.form}</Alert>}
        <Field id="workspace-name" label="Name" error={error.field}>
          <Input
            {...controlProps('workspace-name', { error: error.field })}
            value={name}
            onChange={(ev) => setName(ev.target.value)}
            placeholder="e.g. Research team"
            autoComplete="off"
            autoFocus
          />
        </Field>
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" disabled={busy}>
            {busy ? 'Creating…' : 'Create workspace'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
