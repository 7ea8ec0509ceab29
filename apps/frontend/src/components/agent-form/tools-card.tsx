'use client';

import { Wrench } from 'lucide-react';
import type { ToolInfo } from '@baton/schemas';
import { Card } from '../ui/card';
import { FieldError } from '../ui/field';
import { SwitchRow, toggleId } from './switch-row';

/** Server tools the agent may call (from `GET /api/tools`). */
export function ToolsCard({ tools, selected, error, onChange }: { tools: ToolInfo[]; selected: string[]; error?: string; onChange: (ids: string[]) => void }) {
  const known = new Set(tools.map((t) => t.id));
  const unknown = selected.filter((id) => !known.has(id)).map((id) => ({ id, name: `Unknown tool (${id})`, description: '' }));
  const rows: ToolInfo[] = [...tools, ...unknown];

  return (
    <Card title="Tools" description="Built-in tools this agent may call while answering.">
      {rows.length === 0 ? (
        <p className="flex items-center gap-2 rounded-lg bg-neutral-50 px-3 py-3 text-sm text-neutral-600 dark:bg-neutral-800/50 dark:text-neutral-400">
          <Wrench className="h-4 w-4 shrink-0" aria-hidden />
          No tools available. Built-in tools such as a calculator arrive with the agent runtime.
        </p>
      ) : (
        <ul className="divide-y divide-neutral-200 dark:divide-neutral-800">
          {rows.map((tool) => (
            <SwitchRow
              key={tool.id}
              label={tool.name}
              description={tool.description || undefined}
              checked={selected.includes(tool.id)}
              onCheckedChange={(on) => onChange(toggleId(selected, tool.id, on))}
            />
          ))}
        </ul>
      )}
      {error && (
        <div id="agent-toolIds" tabIndex={-1} className="mt-2 outline-none">
          <FieldError message={error} />
        </div>
      )}
    </Card>
  );
}
