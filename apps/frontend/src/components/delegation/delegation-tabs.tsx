'use client';

import { useRef, type KeyboardEvent } from 'react';
import type { Delegation } from '@/stores/delegation-store';
import { STATUS_LOOKS, StatusIcon } from './delegation-status';
import { useSubAgentProgress } from './live-progress';
import { formatTokens } from '../chat/message-metadata';

export const tabId = (key: string) => `delegation-tab-${cssSafe(key)}`;
export const panelId = (key: string) => `delegation-panel-${cssSafe(key)}`;
const cssSafe = (key: string) => key.replace(/[^A-Za-z0-9_-]/g, '_');

/** "Researcher", or "Researcher (2)" for a second call to the same sub-agent in the batch. */
export function tabLabels(tabs: Delegation[]): Map<string, string> {
  const seen = new Map<string, number>();
  const labels = new Map<string, string>();
  for (const tab of tabs) {
    const n = (seen.get(tab.subAgentName) ?? 0) + 1;
    seen.set(tab.subAgentName, n);
    labels.set(tab.key, n === 1 ? tab.subAgentName : `${tab.subAgentName} (${n})`);
  }
  return labels;
}

/**
 * One tab per sub-agent of the batch (WAI-ARIA tabs: arrow keys, Home and End move
 * between tabs; only the selected tab is in the Tab order).
 */
export function DelegationTabs({ tabs, activeKey, onSelect }: { tabs: Delegation[]; activeKey: string; onSelect: (key: string) => void }) {
  const list = useRef<HTMLDivElement>(null);
  const labels = tabLabels(tabs);

  function onKeyDown(event: KeyboardEvent) {
    const index = tabs.findIndex((t) => t.key === activeKey);
    const next =
      event.key === 'ArrowRight'
        ? (index + 1) % tabs.length
        : event.key === 'ArrowLeft'
          ? (index - 1 + tabs.length) % tabs.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? tabs.length - 1
              : -1;
    if (next < 0) return;
    event.preventDefault();
    onSelect(tabs[next]!.key);
    list.current?.querySelector<HTMLElement>(`#${tabId(tabs[next]!.key)}`)?.focus();
  }

  return (
    <div
      ref={list}
      role="tablist"
      aria-label="Sub-agents"
      onKeyDown={onKeyDown}
      className="flex shrink-0 gap-1 overflow-x-auto border-b border-neutral-200 px-3 dark:border-neutral-800"
    >
      {tabs.map((tab) => {
        const selected = tab.key === activeKey;
        return (
          <button
            key={tab.key}
            id={tabId(tab.key)}
            type="button"
            role="tab"
            aria-selected={selected}
            aria-controls={panelId(tab.key)}
            tabIndex={selected ? 0 : -1}
            // The status is part of the name, for screen readers and tests alike: "Writer, running".
            aria-label={`${labels.get(tab.key)}, ${STATUS_LOOKS[tab.status].label.toLowerCase()}`}
            onClick={() => onSelect(tab.key)}
            className={
              '-mb-px flex shrink-0 cursor-pointer items-center gap-1.5 border-b-2 px-3 py-2 text-sm font-medium transition-colors ' +
              'focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-indigo-500 ' +
              (selected
                ? 'border-indigo-600 text-neutral-900 dark:border-indigo-400 dark:text-neutral-50'
                : 'border-transparent text-neutral-500 hover:text-neutral-800 dark:hover:text-neutral-200')
            }
          >
            <StatusIcon status={tab.status} className="h-3.5 w-3.5" />
            <span className="max-w-40 truncate">{labels.get(tab.key)}</span>
            <TabProgress delegation={tab} />
          </button>
        );
      })}
    </div>
  );
}

/** "3 steps · 1,204 tokens" next to a tab's name, growing while its sub-agent works (hidden on phones, where tabs are narrow). */
function TabProgress({ delegation }: { delegation: Delegation }) {
  const { steps, usage } = useSubAgentProgress(delegation);
  if (delegation.status === 'queued' || (!steps && !usage)) return null;
  const tokens = usage ? usage.inputTokens + usage.outputTokens : 0;
  return (
    <span className="hidden text-xs font-normal text-neutral-500 tabular-nums sm:inline" data-testid="tab-progress">
      {steps} {steps === 1 ? 'step' : 'steps'}
      {tokens > 0 && ` · ${formatTokens(tokens)}`}
    </span>
  );
}
