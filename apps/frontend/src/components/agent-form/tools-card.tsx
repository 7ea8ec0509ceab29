'use client';

import type { WorkspaceTool } from '@baton/schemas';
import { Server, TriangleAlert, Wrench } from 'lucide-react';
import Link from 'next/link';
import { Card } from '../ui/card';
import { FieldError } from '../ui/field';
import { SwitchRow, toggleId } from './switch-row';
import { groupTools } from './tool-groups';
import type { WithheldBy } from './withheld-tools';

/**
 * The tools the agent may call (from `GET /api/workspaces/:ws/tools`): built-in ones, then
 * one group per MCP tool server. A tool that cannot be used now cannot be switched on; if
 * the agent already has it, it stays listed so it can be switched off.
 */
export function ToolsCard({
  workspaceId,
  tools,
  selected,
  error,
  onChange,
  withheldBy = [],
}: {
  workspaceId: string;
  tools: WorkspaceTool[];
  selected: string[];
  error?: string;
  onChange: (ids: string[]) => void;
  /** Agents delegating to this one that would not pass some of these tools on (withheld-tools.ts). */
  withheldBy?: WithheldBy[];
}) {
  const groups = groupTools(tools, selected);
  const hasMcp = groups.some((g) => g.source === 'mcp');
  const settingsHref = `/w/${encodeURIComponent(workspaceId)}/settings/tool-servers`;

  return (
    <Card title="Tools" description="Tools this agent may call while answering: built-in ones and those of the workspace's tool servers (MCP).">
      {groups.length === 0 ? (
        <p className="flex items-center gap-2 rounded-lg bg-neutral-50 px-3 py-3 text-sm text-neutral-600 dark:bg-neutral-800/50 dark:text-neutral-400">
          <Wrench className="h-4 w-4 shrink-0" aria-hidden />
          No tools available yet.
        </p>
      ) : (
        <div className="flex flex-col gap-4">
          {groups.map((group) => (
            <div key={group.key} role="group" aria-label={group.source === 'mcp' ? `Tools of ${group.title}` : 'Built-in tools'}>
              <h3 className="flex items-center gap-1.5 text-xs font-medium text-neutral-500">
                {group.source === 'mcp' ? <Server className="h-3.5 w-3.5" aria-hidden /> : <Wrench className="h-3.5 w-3.5" aria-hidden />}
                <span className="truncate">{group.title}</span>
                {group.source === 'mcp' && group.key !== 'removed' && (
                  <span className="shrink-0 rounded bg-neutral-100 px-1.5 py-px text-[10px] font-medium uppercase tracking-wide text-neutral-500 dark:bg-neutral-800">
                    MCP
                  </span>
                )}
              </h3>
              <ul className="divide-y divide-neutral-200 dark:divide-neutral-800">
                {group.rows.map((row) => (
                  <SwitchRow
                    key={row.id}
                    label={row.name}
                    description={row.description || undefined}
                    detail={
                      row.hint ? (
                        <p className="mt-1 flex items-start gap-1.5 text-xs text-amber-700 dark:text-amber-400">
                          <TriangleAlert className="mt-px h-3.5 w-3.5 shrink-0" aria-hidden />
                          {row.hint}
                        </p>
                      ) : undefined
                    }
                    checked={row.selected}
                    // Switching an unusable tool off is always allowed; on, only when it works.
                    disabled={!row.available && !row.selected}
                    onCheckedChange={(on) => onChange(toggleId(selected, row.id, on))}
                  />
                ))}
              </ul>
            </div>
          ))}
        </div>
      )}
      {withheldBy.length > 0 && (
        <ul
          aria-label="Tools withheld when delegated"
          className="mt-3 flex flex-col gap-1 rounded-lg bg-amber-50 px-3 py-2 text-xs text-amber-800 dark:bg-amber-950/40 dark:text-amber-300"
        >
          {withheldBy.map((w) => (
            <li key={w.agentId} className="flex items-start gap-1.5">
              <TriangleAlert className="mt-px h-3.5 w-3.5 shrink-0" aria-hidden />
              <span>
                Delegated by{' '}
                <Link
                  href={`/w/${encodeURIComponent(workspaceId)}/agents/${encodeURIComponent(w.agentId)}`}
                  className="font-medium underline underline-offset-2"
                >
                  {w.agentName}
                </Link>
                , this agent goes without {w.toolNames.join(', ')}: {w.agentName} passes on only tools it has too. Give it the tool, or set its Tool permissions
                to the sub-agent’s own tools.
              </span>
            </li>
          ))}
        </ul>
      )}
      <p className="mt-3 text-xs text-neutral-500">
        {hasMcp ? 'Tool servers are managed in ' : 'Connect MCP tool servers in '}
        <Link href={settingsHref} className="underline underline-offset-2 hover:text-neutral-800 dark:hover:text-neutral-200">
          Settings → Tool servers
        </Link>
        .
      </p>
      {error && (
        <div id="agent-toolIds" tabIndex={-1} className="mt-2 outline-none">
          <FieldError message={error} />
        </div>
      )}
    </Card>
  );
}
