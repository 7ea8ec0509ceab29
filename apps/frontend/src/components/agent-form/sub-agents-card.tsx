'use client';

import { effectiveToolIds } from '@baton/delegation';
import type { Agent, ToolInfo, ToolPolicy } from '@baton/schemas';
import { Search, Users, Wrench } from 'lucide-react';
import Link from 'next/link';
import { useState } from 'react';
import { Card } from '../ui/card';
import { FieldError } from '../ui/field';
import { Input } from '../ui/input';
import { CycleNote, cycleThrough } from './sub-agent-cycles';
import { SwitchRow, toggleId } from './switch-row';

/** Above this many candidates the card offers a filter box. */
const FILTER_THRESHOLD = 6;

interface SubAgentsCardProps {
  workspaceId: string;
  /** Every agent of the workspace; the one being edited is left out. */
  agents: Agent[];
  selfId?: string;
  selected: string[];
  error?: string;
  onChange: (ids: string[]) => void;
  /** Every tool of the server, for naming tools. */
  tools: ToolInfo[];
  /** The edited agent's tools and tool policy (as in the form, not yet saved): what its sub-agents may use follows from them. */
  ownToolIds: string[];
  toolPolicy: ToolPolicy;
  /** The form's name and depth limit, for describing cycles (a number, or NaN while the field is invalid). */
  selfName?: string;
  maxDepth?: number;
}

/** One switch per other agent: the agents this one may hand tasks to, with the tools each would have under it. */
export function SubAgentsCard({
  workspaceId,
  agents,
  selfId,
  selected,
  error,
  onChange,
  tools,
  ownToolIds,
  toolPolicy,
  selfName,
  maxDepth,
}: SubAgentsCardProps) {
  const [filter, setFilter] = useState('');
  // The workspace's agents as saved, with this one's sub-agents as the form has them now.
  const graph = new Map(agents.map((a) => [a.id, a.id === selfId ? { ...a, subAgentIds: selected } : a]));
  const cycleOf = (id: string) => (selfId ? cycleThrough(id, selfId, graph) : null);
  const depth = maxDepth !== undefined && Number.isInteger(maxDepth) && maxDepth >= 1 ? maxDepth : 1;
  const shownName = selfName?.trim() || 'this agent';
  const candidates = agents.filter((a) => a.id !== selfId);
  const known = new Set(candidates.map((a) => a.id));
  // Ids the form holds that are no longer agents here (deleted meanwhile): offered so they can be switched off.
  const missing = selected.filter((id) => !known.has(id));
  const query = filter.trim().toLowerCase();
  const shown = query ? candidates.filter((a) => `${a.name} ${a.description}`.toLowerCase().includes(query)) : candidates;
  const count = selected.filter((id) => known.has(id)).length;

  return (
    <Card
      title="Sub-agents"
      description="The agents this one may delegate tasks to. Each task runs in its own sub-chat with the sub-agent's own instructions and tools."
      actions={
        candidates.length > 0 && (
          <span className="rounded-full bg-neutral-100 px-2 py-0.5 text-xs text-neutral-600 dark:bg-neutral-800 dark:text-neutral-400">
            {count} of {candidates.length} selected
          </span>
        )
      }
    >
      {candidates.length > FILTER_THRESHOLD && (
        <div className="relative mb-2">
          <Search className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-neutral-400" aria-hidden />
          <Input
            type="search"
            aria-label="Filter sub-agents"
            placeholder="Filter agents"
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
            className="pl-9"
          />
        </div>
      )}

      {candidates.length === 0 && missing.length === 0 ? (
        <p className="flex items-start gap-2 rounded-lg bg-neutral-50 px-3 py-3 text-sm text-neutral-600 dark:bg-neutral-800/50 dark:text-neutral-400">
          <Users className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
          <span>
            No other agents yet.{' '}
            <Link
              href={`/w/${encodeURIComponent(workspaceId)}/agents/new`}
              className="font-medium text-indigo-600 underline-offset-2 hover:underline dark:text-indigo-400"
            >
              Create another agent
            </Link>{' '}
            to delegate work to it.
          </span>
        </p>
      ) : (
        <ul className="divide-y divide-neutral-200 dark:divide-neutral-800">
          {shown.map((a) => (
            <SwitchRow
              key={a.id}
              label={a.name}
              description={a.description || undefined}
              checked={selected.includes(a.id)}
              onCheckedChange={(on) => onChange(toggleId(selected, a.id, on))}
              detail={
                selected.includes(a.id) ? (
                  <>
                    <EffectiveTools agent={a} tools={tools} ownToolIds={ownToolIds} toolPolicy={toolPolicy} />
                    <SubAgentCycle path={cycleOf(a.id)} agents={graph} maxDepth={depth} selfName={shownName} />
                  </>
                ) : undefined
              }
            />
          ))}
          {missing.map((id) => (
            <SwitchRow
              key={id}
              label={`Unknown agent (${id})`}
              description="This agent no longer exists. Switch it off to save."
              checked
              onCheckedChange={(on) => onChange(toggleId(selected, id, on))}
            />
          ))}
          {query && shown.length === 0 && <li className="py-3 text-sm text-neutral-500">No agent matches “{filter.trim()}”.</li>}
        </ul>
      )}
      {error && (
        <div id="agent-subAgentIds" tabIndex={-1} className="mt-2 outline-none">
          <FieldError message={error} />
        </div>
      )}
    </Card>
  );
}

/**
 * The tools a selected sub-agent gets when this agent delegates to it (the rules package's
 * `effectiveToolIds`, with this agent as the root: its effective tools are its own).
 */
function EffectiveTools({ agent, tools, ownToolIds, toolPolicy }: { agent: Agent; tools: ToolInfo[]; ownToolIds: string[]; toolPolicy: ToolPolicy }) {
  const names = new Map(tools.map((t) => [t.id, t.name]));
  const name = (id: string) => names.get(id) ?? id;
  const effective = effectiveToolIds(toolPolicy, agent.toolIds, ownToolIds);
  const withheld = agent.toolIds.filter((id) => !effective.includes(id));
  return (
    <p className="mt-1 flex items-start gap-1.5 text-xs text-neutral-600 dark:text-neutral-400" data-testid={`effective-tools-${agent.id}`}>
      <Wrench className="mt-0.5 h-3.5 w-3.5 shrink-0" aria-hidden />
      <span>
        Tools here: {effective.length ? effective.map(name).join(', ') : 'none'}
        {withheld.length > 0 && (
          <>
            {' '}
            (not {withheld.map(name).join(', ')}: this agent does not have {withheld.length === 1 ? 'it' : 'them'})
          </>
        )}
      </span>
    </p>
  );
}

function SubAgentCycle({ path, ...rest }: { path: string[] | null } & Omit<Parameters<typeof CycleNote>[0], 'path'>) {
  return path ? <CycleNote path={path} {...rest} /> : null;
}
