'use client';

import { isAdminRole, type McpServer } from '@baton/schemas';
import { Plus, Server } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { toast } from 'sonner';
import { api } from '@/lib/api-client';
import { useApiQuery } from '@/lib/use-api-query';
import { forgetWorkspaceTools, queryKeys } from '@/lib/queries';
import { useMembership } from '@/lib/session';
import { ConfirmDialog } from '../confirm-dialog';
import { AdminsOnly } from '../ui/admins-only';
import { RetryAlert } from '../ui/alert';
import { Button } from '../ui/button';
import { EmptyState } from '../ui/empty-state';
import { PageContainer } from '../ui/page-container';
import { PageHeader } from '../ui/page-header';
import { Spinner } from '../ui/spinner';
import { McpServerCard } from './mcp-server-card';
import { McpServerFormDialog } from './mcp-server-form-dialog';
import { announceOAuthOutcome } from './mcp-oauth-controls';

/**
 * The workspace's MCP tool servers: admins add, edit (header values are write-only),
 * enable/disable, refresh and remove them; members see the list and its tools, read-only.
 * The instance's servers (BATON_MCP_CONFIG) follow, marked "Instance": admins only switch them on or off.
 */
export function McpServerSettings({ workspaceId }: { workspaceId: string }) {
  const role = useMembership(workspaceId)?.role;
  const canManage = role !== undefined && isAdminRole(role);
  const { data: servers, error, reload, setData } = useApiQuery(queryKeys.mcpServers(workspaceId), () => api.mcpServers.list(workspaceId));
  const [editing, setEditing] = useState<McpServer | 'new' | null>(null);
  const [removing, setRemoving] = useState<McpServer | null>(null);
  const instanceHeadingId = useId();
  // The workspace's own servers, then the operator's (BATON_MCP_CONFIG), which admins only switch on or off.
  const own = servers?.filter((s) => s.scope === 'workspace');
  const instance = servers?.filter((s) => s.scope === 'instance');
  // Back from an OAuth authorization (the backend's callback redirected here): say how it went, once the names are known.
  const announced = useRef(false);
  useEffect(() => {
    if (announced.current || (!servers && !error)) return;
    announced.current = true;
    announceOAuthOutcome(servers);
  }, [servers, error]);

  function saved(server: McpServer) {
    forgetWorkspaceTools(workspaceId);
    setData((list = []) => (list.some((s) => s.id === server.id) ? list.map((s) => (s.id === server.id ? server : s)) : [...list, server]));
  }

  async function remove(server: McpServer) {
    await api.mcpServers.remove(workspaceId, server.id);
    forgetWorkspaceTools(workspaceId);
    setData((list = []) => list.filter((s) => s.id !== server.id));
    toast.success(`Removed tool server “${server.name}”`);
  }

  const addButton = (
    <Button onClick={() => setEditing('new')}>
      <Plus className="h-4 w-4" aria-hidden />
      Add tool server
    </Button>
  );

  return (
    <PageContainer>
      <PageHeader
        title="Tool servers"
        description="MCP servers whose tools your agents can call. Pick the tools per agent in the agent editor."
        actions={canManage ? addButton : undefined}
      />
      {!canManage && (
        <div className="mb-4">
          <AdminsOnly>Workspace admins add, change and remove tool servers. You can give their tools to your agents.</AdminsOnly>
        </div>
      )}
      {error && <RetryAlert onRetry={() => void reload()}>Could not load tool servers: {error.message}</RetryAlert>}
      {!servers && !error && <Spinner label="Loading tool servers…" />}
      {own?.length === 0 && (
        <EmptyState icon={Server} title="No tool servers yet" action={canManage ? addButton : undefined}>
          A tool server speaks the Model Context Protocol (MCP) and offers tools — search, a database, your own APIs. Once{' '}
          {canManage ? 'you add' : 'an admin adds'} one, Baton lists its tools and you can give them to agents, sub-agents included, next to the built-in
          calculator and clock.
        </EmptyState>
      )}
      {own && own.length > 0 && (
        <ul aria-label="Tool servers" className="grid gap-3">
          {own.map((s) => (
            <McpServerCard
              key={s.id}
              workspaceId={workspaceId}
              server={s}
              onChanged={saved}
              canToggle={canManage}
              actions={canManage ? { onEdit: () => setEditing(s), onRemove: () => setRemoving(s) } : undefined}
            />
          ))}
        </ul>
      )}
      {instance && instance.length > 0 && (
        <section aria-labelledby={instanceHeadingId} className="mt-8">
          <h2 id={instanceHeadingId} className="font-medium text-neutral-900 dark:text-neutral-50">
            Instance tool servers
          </h2>
          <p className="mt-0.5 mb-3 text-sm text-neutral-600 dark:text-neutral-400">
            Set up by the operator of this Baton instance for every workspace. They are off until a workspace admin switches them on here.
          </p>
          <ul aria-label="Instance tool servers" className="grid gap-3">
            {instance.map((s) => (
              <McpServerCard key={s.id} workspaceId={workspaceId} server={s} onChanged={saved} canToggle={canManage} />
            ))}
          </ul>
        </section>
      )}

      <McpServerFormDialog
        workspaceId={workspaceId}
        open={editing !== null}
        onOpenChange={(open) => !open && setEditing(null)}
        server={editing === 'new' || editing === null ? undefined : editing}
        onSaved={saved}
      />
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => !open && setRemoving(null)}
        title="Remove tool server?"
        description={`“${removing?.name ?? ''}” and its stored headers will be deleted. Agents that use its tools keep them listed as unavailable until you remove them.`}
        confirmLabel="Remove tool server"
        onConfirm={() => (removing ? remove(removing) : Promise.resolve())}
      />
    </PageContainer>
  );
}
