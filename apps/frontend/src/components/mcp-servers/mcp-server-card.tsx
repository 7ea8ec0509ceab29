'use client';

import type { McpServer } from '@baton/schemas';
import { Building2, ChevronRight, KeyRound, Pencil, RefreshCw, Trash2, TriangleAlert } from 'lucide-react';
import { useId, useState } from 'react';
import { toast } from 'sonner';
import { formatTimeAgo } from '@/lib/format-date';
import { api } from '@/lib/api-client';
import { Button } from '../ui/button';
import { Switch } from '../ui/switch';
import { describeMcpFailure } from './mcp-failure';
import { OAuthBadge, OAuthButton, usesOAuth } from './mcp-oauth-controls';

interface McpServerCardProps {
  workspaceId: string;
  server: McpServer;
  /** The server as the API returned it after a change made here (refresh, enable). */
  onChanged: (server: McpServer) => void;
  /** Whether this person may switch the server on or off here (workspace admins). */
  canToggle: boolean;
  /** Admins only, and only for the workspace's own servers (the operator's are read-only). */
  actions?: { onEdit: () => void; onRemove: () => void };
}

const transportLabel = { auto: 'Auto', http: 'Streamable HTTP', sse: 'SSE', stdio: 'stdio' } as const;

export function McpServerCard({ workspaceId, server, onChanged, canToggle, actions }: McpServerCardProps) {
  const [refreshing, setRefreshing] = useState(false);
  const [toggling, setToggling] = useState(false);
  const switchId = useId();
  const instance = server.scope === 'instance';

  async function refresh() {
    setRefreshing(true);
    try {
      const next = await api.mcpServers.refresh(workspaceId, server.id);
      onChanged(next);
      if (next.toolsError) toast.error(`${server.name}: ${describeMcpFailure(next.toolsError).title.toLowerCase()}`);
      else toast.success(`${server.name}: ${toolCount(next.tools.length)} listed`);
    } catch (err) {
      toast.error(`Could not refresh ${server.name}: ${(err as Error).message}`);
    } finally {
      setRefreshing(false);
    }
  }

  async function setEnabled(enabled: boolean) {
    setToggling(true);
    try {
      onChanged(await api.mcpServers.update(workspaceId, server.id, { enabled }));
      toast.success(enabled ? `Enabled ${server.name}` : `Disabled ${server.name}: agents skip its tools`);
    } catch (err) {
      toast.error(`Could not change ${server.name}: ${(err as Error).message}`);
    } finally {
      setToggling(false);
    }
  }

  return (
    <li aria-label={server.name} className="rounded-xl border border-neutral-200 bg-white p-4 dark:border-neutral-800 dark:bg-neutral-900">
      <div className="flex flex-wrap items-start gap-3">
        <div className="min-w-0 flex-1 basis-48">
          <div className="flex flex-wrap items-center gap-2">
            <h2 className="truncate font-medium text-neutral-900 dark:text-neutral-50">{server.name}</h2>
            {instance && (
              <span
                className="inline-flex items-center gap-1 rounded-full bg-sky-50 px-2 py-0.5 text-xs font-medium text-sky-700 dark:bg-sky-950 dark:text-sky-300"
                title="Configured by the operator of this Baton instance (BATON_MCP_CONFIG) for every workspace: it cannot be edited or removed here."
              >
                <Building2 className="h-3 w-3" aria-hidden />
                Instance
              </span>
            )}
            <span className="rounded-full bg-neutral-100 px-2 py-0.5 text-xs text-neutral-600 dark:bg-neutral-800 dark:text-neutral-400">
              {transportLabel[server.transport]}
            </span>
            {!instance && usesOAuth(server) && <OAuthBadge server={server} />}
            {server.headerNames.length > 0 && (
              <span
                className="inline-flex items-center gap-1 rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-medium text-emerald-700 dark:bg-emerald-950 dark:text-emerald-300"
                title={`Stored headers: ${server.headerNames.join(', ')}`}
              >
                <KeyRound className="h-3 w-3" aria-hidden />
                {server.headerNames.length === 1 ? '1 header stored' : `${server.headerNames.length} headers stored`}
              </span>
            )}
          </div>
          {server.url ? (
            <p className="mt-0.5 truncate font-mono text-xs text-neutral-600 dark:text-neutral-400" title={server.url}>
              {server.url}
            </p>
          ) : (
            <p className="mt-0.5 text-xs text-neutral-600 dark:text-neutral-400">A command run by Baton’s server, set up by the instance’s operator.</p>
          )}
        </div>
        <div className="flex shrink-0 items-center gap-1">
          {/* Connecting gives the workspace's agents the server's tools: admins only. */}
          {actions && usesOAuth(server) && <OAuthButton workspaceId={workspaceId} server={server} onChanged={onChanged} />}
          <label htmlFor={switchId} className="mr-1 text-xs text-neutral-600 dark:text-neutral-400">
            {server.enabled ? 'Enabled' : 'Disabled'}
          </label>
          <Switch
            id={switchId}
            aria-label={`Enable ${server.name}`}
            checked={server.enabled}
            disabled={!canToggle || toggling}
            onCheckedChange={(on) => void setEnabled(on)}
            className="mr-2"
          />
          {/* Any member may list the tools again: it only re-reads what an admin configured. */}
          <Button
            variant="ghost"
            size="icon"
            aria-label={`Refresh tools of ${server.name}`}
            title="Refresh tools"
            onClick={() => void refresh()}
            disabled={refreshing}
          >
            <RefreshCw className={`h-4 w-4 ${refreshing ? 'animate-spin' : ''}`} aria-hidden />
          </Button>
          {actions && (
            <>
              <Button variant="ghost" size="icon" aria-label={`Edit tool server ${server.name}`} title="Edit" onClick={actions.onEdit}>
                <Pencil className="h-4 w-4" aria-hidden />
              </Button>
              <Button variant="ghost" size="icon" aria-label={`Remove tool server ${server.name}`} title="Remove" onClick={actions.onRemove}>
                <Trash2 className="h-4 w-4" aria-hidden />
              </Button>
            </>
          )}
        </div>
      </div>
      <div className="mt-3">
        {refreshing ? (
          <p role="status" className="text-xs text-neutral-500">
            Listing tools…
          </p>
        ) : (
          <div className="flex flex-col gap-2">
            {server.toolsError && <ListingError server={server} />}
            {/* A failed listing keeps the tools listed before, unavailable until the server works again. */}
            {(!server.toolsError || server.tools.length > 0) && <ToolList server={server} />}
          </div>
        )}
      </div>
    </li>
  );
}

const toolCount = (n: number) => (n === 1 ? '1 tool' : `${n} tools`);

function checkedAgo(server: McpServer) {
  return server.toolsCheckedAt ? `checked ${formatTimeAgo(server.toolsCheckedAt)}` : 'not checked yet';
}

function ListingError({ server }: { server: McpServer }) {
  const failure = describeMcpFailure(server.toolsError!);
  return (
    <div
      role="alert"
      aria-label={`Listing error: ${failure.title}`}
      className="flex items-start gap-2 rounded-lg border border-red-200 bg-red-50 px-3 py-2.5 text-sm text-red-800 dark:border-red-900 dark:bg-red-950/50 dark:text-red-300"
    >
      <TriangleAlert className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
      <div className="min-w-0 flex-1">
        <p className="font-medium">
          {failure.title} <span className="font-normal text-red-700/80 dark:text-red-300/70">· {checkedAgo(server)}</span>
        </p>
        <p className="mt-0.5 break-words">{failure.action}</p>
        {server.stderr && server.stderr.length > 0 && (
          <pre
            role="log"
            aria-label={`Last output of ${server.name}`}
            className="mt-2 max-h-40 overflow-auto whitespace-pre-wrap break-words rounded-md bg-red-100/70 px-2 py-1.5 font-mono text-xs text-red-900 dark:bg-red-950 dark:text-red-200"
          >
            {server.stderr.join('\n')}
          </pre>
        )}
      </div>
    </div>
  );
}

function ToolList({ server }: { server: McpServer }) {
  const [open, setOpen] = useState(false);
  const listId = useId();
  if (!server.toolsCheckedAt && server.tools.length === 0) return <p className="text-xs text-neutral-500">Tools not listed yet — refresh to list them.</p>;
  if (server.tools.length === 0) return <p className="text-xs text-neutral-500">The server lists no tools ({checkedAgo(server)}).</p>;
  return (
    <div>
      <button
        type="button"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen(!open)}
        className="-ml-1 inline-flex items-center gap-1 rounded-md px-1 py-0.5 text-sm text-neutral-700 hover:bg-neutral-100 dark:text-neutral-300 dark:hover:bg-neutral-800"
      >
        <ChevronRight className={`h-4 w-4 transition-transform ${open ? 'rotate-90' : ''}`} aria-hidden />
        {toolCount(server.tools.length)}
        <span className="text-xs text-neutral-500">· {server.toolsError ? 'listed before the failure, unavailable' : checkedAgo(server)}</span>
      </button>
      {open && (
        <ul
          id={listId}
          aria-label={`Tools of ${server.name}`}
          className="mt-2 divide-y divide-neutral-100 rounded-lg border border-neutral-200 dark:divide-neutral-800 dark:border-neutral-800"
        >
          {server.tools.map((t) => (
            <li key={t.id} className="px-3 py-2">
              <p className="font-mono text-sm text-neutral-900 dark:text-neutral-100">{t.name}</p>
              {t.description && <p className="mt-0.5 line-clamp-3 text-xs text-neutral-600 dark:text-neutral-400">{t.description}</p>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
