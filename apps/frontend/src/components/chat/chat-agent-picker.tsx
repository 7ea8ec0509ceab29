'use client';

import { useChat, type Chat as ChatSession } from '@ai-sdk/react';
import type { Agent, BatonUIMessage, Chat, ChatUpdate } from '@baton/schemas';
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { Check, ChevronDown, Search } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import { api } from '@/lib/api-client';
import { sortedByName } from '@/lib/by-name';
import { replaceListedChat } from '@/lib/chat-list';
import { setSessionAgent } from '@/lib/chat-sessions';
import { useFollowingRun } from '@/lib/follow-server-run';
import { pendingNewTaskCount } from '@/lib/new-task-calls';
import { getQueryClient } from '@/lib/query-client';
import { queryKeys } from '@/lib/queries';
import { useApiQuery } from '@/lib/use-api-query';
import { MenuContent, MenuLabel, MenuSeparator } from '../ui/menu';

/** With more agents than this, the picker gets a search box. */
const SEARCH_FROM = 8;

const itemClasses =
  'flex cursor-pointer select-none items-start gap-2 rounded-lg py-2 pr-2 pl-7 relative text-neutral-800 outline-none ' +
  'data-[highlighted]:bg-neutral-100 data-[disabled]:pointer-events-none data-[disabled]:opacity-50 ' +
  'dark:text-neutral-200 dark:data-[highlighted]:bg-neutral-800';

/**
 * The chat's agent in its header, as a menu to switch it (and, for an agent that allows it, its
 * model) from the next answer on: the history stays, and each answer names who wrote it.
 * Closed while an answer is under way — the server refuses a switch then too (409).
 */
export function ChatAgentPicker({
  workspaceId,
  chat,
  agents,
  session,
}: {
  workspaceId: string;
  chat: Pick<Chat, 'id' | 'agentId' | 'modelOverride'>;
  agents: Agent[];
  session: ChatSession<BatonUIMessage>;
}) {
  const { status, messages } = useChat({ chat: session });
  const following = useFollowingRun(chat.id);
  const [saving, setSaving] = useState(false);
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  const searchBox = useRef<HTMLInputElement>(null);
  // With a search box, it takes the focus once the menu has put it on its first item: typing searches.
  useEffect(() => {
    if (!open) return;
    const frame = requestAnimationFrame(() => searchBox.current?.focus());
    return () => cancelAnimationFrame(frame);
  }, [open]);
  const agent = agents.find((a) => a.id === chat.agentId);
  const providers = useApiQuery(queryKeys.providers(workspaceId), () => api.providers.listAll(workspaceId), {
    enabled: Boolean(agent?.allowModelOverride && agent.providerId),
  });
  const busy = status === 'submitted' || status === 'streaming' || following || pendingNewTaskCount(messages) > 0;
  const models = agent?.allowModelOverride ? (providers.data?.find((p) => p.id === agent.providerId)?.modelIds ?? []) : [];
  const shown = sortedByName(agents).filter((a) => a.name.toLowerCase().includes(query.trim().toLowerCase()));
  const name = agent?.name ?? (chat.agentId ? 'agent deleted' : 'no agent');

  async function change(patch: Pick<ChatUpdate, 'agentId' | 'modelOverride'>) {
    setSaving(true);
    try {
      const updated = await api.chats.switchAgent(workspaceId, chat.id, patch);
      // The next message goes out as this agent (a chat started in this tab sends its agent with each message).
      setSessionAgent(chat.id, updated.agentId);
      getQueryClient().setQueryData(queryKeys.chat(workspaceId, chat.id), (old: object | null | undefined) => old && { ...old, ...updated });
      replaceListedChat(updated);
    } catch (err) {
      toast.error(`Could not switch: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      setSaving(false);
    }
  }

  return (
    <DropdownMenu.Root
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) setQuery('');
      }}
    >
      <DropdownMenu.Trigger
        disabled={busy || saving}
        data-testid="chat-agent-picker"
        aria-label={`Agent: ${name}. Switch agent${models.length > 0 ? ' or model' : ''}`}
        title={busy ? 'Wait for the answer to finish to switch agents' : 'Switch agent'}
        className="inline-flex min-w-0 max-w-full cursor-pointer items-center gap-1 rounded-md px-1.5 py-1 text-sm text-neutral-600 hover:bg-neutral-100 hover:text-neutral-900 focus-visible:outline-2 focus-visible:outline-indigo-500 disabled:cursor-default disabled:opacity-60 dark:text-neutral-400 dark:hover:bg-neutral-800 dark:hover:text-neutral-100"
      >
        <span className="truncate">with {name}</span>
        <ChevronDown className="h-3.5 w-3.5 shrink-0" aria-hidden />
      </DropdownMenu.Trigger>
      <MenuContent align="start" className="max-h-[min(28rem,var(--radix-dropdown-menu-content-available-height))] w-72 overflow-y-auto">
        {agent && models.length > 0 && (
          <>
            <MenuLabel>Model for this chat</MenuLabel>
            <DropdownMenu.RadioGroup
              value={chat.modelOverride ?? ''}
              onValueChange={(modelId) => (modelId || null) !== chat.modelOverride && void change({ modelOverride: modelId || null })}
              aria-label="Model for this chat"
            >
              <DropdownMenu.RadioItem value="" className={itemClasses}>
                <DropdownMenu.ItemIndicator className="absolute top-2.5 left-2">
                  <Check className="h-3.5 w-3.5 text-indigo-600 dark:text-indigo-400" aria-hidden />
                </DropdownMenu.ItemIndicator>
                <span className="truncate">{agent.modelId ?? models[0]} (the agent’s)</span>
              </DropdownMenu.RadioItem>
              {models
                .filter((m) => m !== (agent.modelId ?? models[0]))
                .map((m) => (
                  <DropdownMenu.RadioItem key={m} value={m} className={itemClasses}>
                    <DropdownMenu.ItemIndicator className="absolute top-2.5 left-2">
                      <Check className="h-3.5 w-3.5 text-indigo-600 dark:text-indigo-400" aria-hidden />
                    </DropdownMenu.ItemIndicator>
                    <span className="truncate">{m}</span>
                  </DropdownMenu.RadioItem>
                ))}
            </DropdownMenu.RadioGroup>
            <MenuSeparator />
          </>
        )}
        <MenuLabel>Agent, from the next message on</MenuLabel>
        {agents.length > SEARCH_FROM && (
          <div className="relative px-1 pb-1">
            <Search className="pointer-events-none absolute top-2.5 left-3 h-3.5 w-3.5 text-neutral-400" aria-hidden />
            <input
              ref={searchBox}
              // A search box in a menu: typing filters instead of the menu's own type-to-select; arrow down goes to
              // the list, Enter takes the one agent left.
              type="search"
              aria-label="Search agents"
              placeholder="Search agents"
              value={query}
              onChange={(e) => setQuery(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'ArrowDown') {
                  e.preventDefault();
                  e.currentTarget.closest('[role="menu"]')?.querySelector<HTMLElement>('[role="group"][aria-label="Agent"] [role="menuitemradio"]')?.focus();
                } else if (e.key === 'Enter' && shown.length === 1) {
                  e.preventDefault();
                  setOpen(false);
                  if (shown[0]!.id !== chat.agentId) void change({ agentId: shown[0]!.id });
                } else if (e.key !== 'Escape' && e.key !== 'Tab') e.stopPropagation();
              }}
              className="w-full rounded-md border border-neutral-300 bg-white py-1.5 pr-2 pl-7 text-sm outline-none focus:border-indigo-500 dark:border-neutral-700 dark:bg-neutral-950"
            />
          </div>
        )}
        <DropdownMenu.RadioGroup
          value={chat.agentId ?? ''}
          onValueChange={(agentId) => agentId !== chat.agentId && void change({ agentId })}
          aria-label="Agent"
        >
          {shown.map((a) => (
            <DropdownMenu.RadioItem key={a.id} value={a.id} className={itemClasses}>
              <DropdownMenu.ItemIndicator className="absolute top-2.5 left-2">
                <Check className="h-3.5 w-3.5 text-indigo-600 dark:text-indigo-400" aria-hidden />
              </DropdownMenu.ItemIndicator>
              <span className="flex min-w-0 flex-col">
                <span className="truncate font-medium">{a.name}</span>
                {a.description && <span className="line-clamp-1 text-xs text-neutral-500">{a.description}</span>}
              </span>
            </DropdownMenu.RadioItem>
          ))}
        </DropdownMenu.RadioGroup>
        {shown.length === 0 && <p className="px-2 py-2 text-sm text-neutral-500">No agent matches “{query.trim()}”.</p>}
      </MenuContent>
    </DropdownMenu.Root>
  );
}
