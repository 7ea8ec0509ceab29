'use client';

import type { McpServer } from '@baton/schemas';
import { Link2, Link2Off, ShieldCheck, ShieldAlert } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { api } from '@/lib/api-client';
import { formatTimeAgo } from '@/lib/format-date';
import { Button } from '../ui/button';

/** Whether the card shows OAuth at all: the server asked for it (or its listing says it needs connecting). */
export const usesOAuth = (server: McpServer) => server.oauth !== null || server.toolsError?.kind === 'needs_connection';

/** "Connected" / "Not connected" next to the server's name. */
export function OAuthBadge({ server }: { server: McpServer }) {
  const connected = server.oauth?.connected === true;
  return connected ? (
    <span
      className="inline-flex items-center gap-1 rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-medium text-emerald-700 dark:bg-emerald-950 dark:text-emerald-300"
      title={server.oauth?.connectedAt ? `Connected with OAuth ${formatTimeAgo(server.oauth.connectedAt)}` : 'Connected with OAuth'}
    >
      <ShieldCheck className="h-3 w-3" aria-hidden />
      OAuth · Connected
    </span>
  ) : (
    <span className="inline-flex items-center gap-1 rounded-full bg-amber-50 px-2 py-0.5 text-xs font-medium text-amber-800 dark:bg-amber-950 dark:text-amber-300">
      <ShieldAlert className="h-3 w-3" aria-hidden />
      OAuth · Not connected
    </span>
  );
}

/**
 * Admins connect Baton to an OAuth server: the browser goes to the server's authorization
 * page and comes back to this page (the backend's callback redirects here with the outcome).
 * Disconnect makes Baton forget the tokens.
 */
export function OAuthButton({ workspaceId, server, onChanged }: { workspaceId: string; server: McpServer; onChanged: (server: McpServer) => void }) {
  const [busy, setBusy] = useState(false);
  const connected = server.oauth?.connected === true;

  async function connect() {
    setBusy(true);
    try {
      const { authorizationUrl, server: next } = await api.mcpServers.connect(workspaceId, server.id);
      if (authorizationUrl) {
        // Leaves the page: the authorization server sends the browser back here.
        window.location.assign(authorizationUrl);
        return;
      }
      onChanged(next);
      toast.success(`Connected ${server.name}`);
    } catch (err) {
      toast.error(`Could not connect ${server.name}: ${(err as Error).message}`);
    }
    setBusy(false);
  }

  async function disconnect() {
    setBusy(true);
    try {
      onChanged(await api.mcpServers.disconnect(workspaceId, server.id));
      toast.success(`Disconnected ${server.name}: Baton forgot its tokens`);
    } catch (err) {
      toast.error(`Could not disconnect ${server.name}: ${(err as Error).message}`);
    } finally {
      setBusy(false);
    }
  }

  return connected ? (
    <Button variant="secondary" size="sm" onClick={() => void disconnect()} disabled={busy} aria-label={`Disconnect ${server.name}`} className="mr-1">
      <Link2Off className="h-4 w-4" aria-hidden />
      Disconnect
    </Button>
  ) : (
    <Button size="sm" onClick={() => void connect()} disabled={busy} aria-label={`Connect ${server.name}`} className="mr-1">
      <Link2 className="h-4 w-4" aria-hidden />
      {busy ? 'Connecting…' : 'Connect'}
    </Button>
  );
}

const outcomes: Record<string, { ok: boolean; text: string }> = {
  connected: { ok: true, text: 'Connected: Baton can now use the server’s tools.' },
  denied: { ok: false, text: 'The authorization was declined at the server’s page.' },
  expired: { ok: false, text: 'The connection attempt had expired or did not match: click Connect again.' },
  failed: { ok: false, text: 'The server did not accept the authorization: click Connect again.' },
};

/** The callback's outcome (`?oauth=…&server=…`) as a toast, once; the query is then removed from the address. */
export function announceOAuthOutcome(servers: McpServer[] | undefined) {
  const params = new URLSearchParams(window.location.search);
  const outcome = outcomes[params.get('oauth') ?? ''];
  if (!outcome) return;
  const name = servers?.find((s) => s.id === params.get('server'))?.name;
  (outcome.ok ? toast.success : toast.error)(name ? `${name}: ${outcome.text}` : outcome.text);
  params.delete('oauth');
  params.delete('server');
  const rest = params.toString();
  window.history.replaceState(null, '', `${window.location.pathname}${rest ? `?${rest}` : ''}`);
}
