'use client';

import { isAdminRole, type Provider } from '@baton/schemas';
import { KeyRound, Pencil, PlugZap, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { api } from '@/lib/api-client';
import { useApiQuery } from '@/lib/use-api-query';
import { queryKeys } from '@/lib/queries';
import { useMembership } from '@/lib/session';
import { ConfirmDialog } from '../confirm-dialog';
import { AdminsOnly } from '../ui/admins-only';
import { RetryAlert } from '../ui/alert';
import { Button } from '../ui/button';
import { EmptyState } from '../ui/empty-state';
import { PageContainer } from '../ui/page-container';
import { PageHeader } from '../ui/page-header';
import { Spinner } from '../ui/spinner';
import { ProviderFormDialog } from './provider-form-dialog';

/**
 * The workspace's model providers: admins add, edit (the key is write-only) and remove
 * them; members see the list, read-only.
 */
export function ProviderSettings({ workspaceId }: { workspaceId: string }) {
  const role = useMembership(workspaceId)?.role;
  const canManage = role !== undefined && isAdminRole(role);
  const { data: providers, error, reload, setData } = useApiQuery(queryKeys.providers(workspaceId), () => api.providers.listAll(workspaceId));
  const [editing, setEditing] = useState<Provider | 'new' | null>(null);
  const [removing, setRemoving] = useState<Provider | null>(null);

  function saved(provider: Provider) {
    setData((list = []) => (list.some((p) => p.id === provider.id) ? list.map((p) => (p.id === provider.id ? provider : p)) : [...list, provider]));
  }

  async function remove(provider: Provider) {
    await api.providers.remove(workspaceId, provider.id);
    setData((list = []) => list.filter((p) => p.id !== provider.id));
    toast.success(`Removed provider “${provider.name}”`);
  }

  const addButton = (
    <Button onClick={() => setEditing('new')}>
      <Plus className="h-4 w-4" aria-hidden />
      Add provider
    </Button>
  );

  return (
    <PageContainer>
      <PageHeader
        title="Providers"
        description="OpenAI-compatible model servers your agents can use. Agents without a provider use the default model."
        actions={canManage ? addButton : undefined}
      />
      {!canManage && (
        <div className="mb-4">
          <AdminsOnly>Workspace admins add, change and remove providers. You can pick these providers and their models for your agents.</AdminsOnly>
        </div>
      )}
      {error && <RetryAlert onRetry={() => void reload()}>Could not load providers: {error.message}</RetryAlert>}
      {!providers && !error && <Spinner label="Loading providers…" />}
      {providers?.length === 0 && (
        <EmptyState icon={PlugZap} title="No providers yet" action={canManage ? addButton : undefined}>
          Agents use the default model until {canManage ? 'you add' : 'an admin adds'} a provider: the offline demo model, or the OpenAI-compatible server set
          with <code className="text-xs">OPENAI_API_KEY</code>.
          {canManage && ' Add OpenAI, OpenRouter, Ollama, vLLM or LM Studio here to give agents more models.'}
        </EmptyState>
      )}
      {providers && providers.length > 0 && (
        <ul aria-label="Providers" className="grid gap-3">
          {providers.map((p) => (
            <ProviderRow key={p.id} provider={p} actions={canManage ? { onEdit: () => setEditing(p), onRemove: () => setRemoving(p) } : undefined} />
          ))}
        </ul>
      )}

      <ProviderFormDialog
        workspaceId={workspaceId}
        open={editing !== null}
        onOpenChange={(open) => !open && setEditing(null)}
        provider={editing === 'new' || editing === null ? undefined : editing}
        onSaved={saved}
      />
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => !open && setRemoving(null)}
        title="Remove provider?"
        description={`“${removing?.name ?? ''}” and its stored API key will be deleted. Agents that use it switch to the default provider.`}
        confirmLabel="Remove provider"
        onConfirm={() => (removing ? remove(removing) : Promise.resolve())}
      />
    </PageContainer>
  );
}

function ProviderRow({ provider, actions }: { provider: Provider; actions?: { onEdit: () => void; onRemove: () => void } }) {
  const shown = provider.modelIds.slice(0, 6);
  const more = provider.modelIds.length - shown.length;
  return (
    <li aria-label={provider.name} className="rounded-xl border border-neutral-200 bg-white p-4 dark:border-neutral-800 dark:bg-neutral-900">
      <div className="flex items-start gap-3">
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-2">
            <h2 className="truncate font-medium text-neutral-900 dark:text-neutral-50">{provider.name}</h2>
            {provider.hasApiKey ? (
              <span className="inline-flex items-center gap-1 rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-medium text-emerald-700 dark:bg-emerald-950 dark:text-emerald-300">
                <KeyRound className="h-3 w-3" aria-hidden />
                Key stored
              </span>
            ) : (
              <span className="rounded-full bg-neutral-100 px-2 py-0.5 text-xs text-neutral-600 dark:bg-neutral-800 dark:text-neutral-400">No key</span>
            )}
          </div>
          <p className="mt-0.5 truncate font-mono text-xs text-neutral-600 dark:text-neutral-400">{provider.baseUrl}</p>
        </div>
        {actions && (
          <div className="flex shrink-0 gap-1">
            <Button variant="ghost" size="icon" aria-label={`Edit provider ${provider.name}`} title="Edit" onClick={actions.onEdit}>
              <Pencil className="h-4 w-4" aria-hidden />
            </Button>
            <Button variant="ghost" size="icon" aria-label={`Remove provider ${provider.name}`} title="Remove" onClick={actions.onRemove}>
              <Trash2 className="h-4 w-4" aria-hidden />
            </Button>
          </div>
        )}
      </div>
      <div className="mt-3 flex flex-wrap gap-1.5">
        {shown.length === 0 && <span className="text-xs text-neutral-500">No model ids listed — add some so agents can pick them.</span>}
        {shown.map((m) => (
          <span key={m} className="rounded-md bg-neutral-100 px-2 py-0.5 font-mono text-xs text-neutral-700 dark:bg-neutral-800 dark:text-neutral-300">
            {m}
          </span>
        ))}
        {more > 0 && <span className="text-xs text-neutral-500">+{more} more</span>}
      </div>
    </li>
  );
}
