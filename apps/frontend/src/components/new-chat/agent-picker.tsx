'use client';

import type { Agent } from '@baton/schemas';
import { Users } from 'lucide-react';
import { sortedByName } from '@/lib/by-name';
import { Field } from '../ui/field';
import { Select } from '../ui/input';

/** Choose the agent a new chat talks to; shows what it does and whom it can delegate to. */
export function AgentPicker({
  agents,
  value,
  onChange,
  label = 'Agent',
}: {
  agents: Agent[];
  value: string | null;
  onChange: (agentId: string) => void;
  label?: string;
}) {
  const agent = agents.find((a) => a.id === value);
  const names = new Map(agents.map((a) => [a.id, a.name]));
  const subAgents = agent?.subAgentIds.map((id) => names.get(id)).filter(Boolean) ?? [];
  return (
    <Field id="new-chat-agent" label={label}>
      <Select id="new-chat-agent" value={value ?? ''} onChange={(e) => onChange(e.target.value)} aria-describedby={agent ? 'new-chat-agent-about' : undefined}>
        {sortedByName(agents).map((a) => (
          <option key={a.id} value={a.id}>
            {a.name}
          </option>
        ))}
      </Select>
      {agent && (
        <div id="new-chat-agent-about" className="text-sm text-neutral-600 dark:text-neutral-400">
          <p className="line-clamp-2">{agent.description || 'No description.'}</p>
          {subAgents.length > 0 && (
            <p className="mt-1 flex items-center gap-1.5 text-xs text-neutral-500">
              <Users className="h-3.5 w-3.5 shrink-0" aria-hidden />
              Can delegate to {subAgents.join(', ')}
            </p>
          )}
        </div>
      )}
    </Field>
  );
}
