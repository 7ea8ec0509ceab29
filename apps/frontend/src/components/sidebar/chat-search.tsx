'use client';

import { searchTerms, type ChatSearchHit } from '@baton/schemas';
import { Search, SearchX, X } from 'lucide-react';
import { useRouter } from 'next/navigation';
import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Button } from '../ui/button';
import { chatLabel } from './chat-list-item';
import { isMac } from '@/lib/platform-keys';
import { useChatSearch } from './use-chat-search';

/**
 * The sidebar's chat search: a box that searches titles and message text as one types,
 * and shows the matches in place of the chat list (`list`) while it holds a query.
 * Keyboard: Ctrl/⌘+K focuses it, ↑/↓ move through the results, Enter opens one, Esc clears.
 */
export function ChatSearch({ workspaceId, list }: { workspaceId: string; list: ReactNode }) {
  const router = useRouter();
  const input = useRef<HTMLInputElement>(null);
  const [raw, setRaw] = useState('');
  const [active, setActive] = useState(0);
  const { q, state, retry } = useChatSearch(workspaceId, raw);
  const hits = state.status === 'done' ? state.hits : state.status === 'searching' ? (state.hits ?? []) : [];
  const listId = useId();
  const optionId = (i: number) => `${listId}-option-${i}`;
  const [shortcut, setShortcut] = useState('Ctrl K');

  useEffect(() => {
    if (isMac()) setShortcut('⌘K');
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.key.toLowerCase() !== 'k' || !(e.ctrlKey || e.metaKey) || e.altKey || e.shiftKey) return;
      // The sidebar is rendered twice (fixed, and as the phone drawer): the visible one answers.
      const box = input.current;
      if (!box || box.offsetParent === null) return;
      e.preventDefault();
      box.focus();
      box.select();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  // A new set of results starts at the first one.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the results changing is the trigger.
  useEffect(() => setActive(0), [hits]);

  function open(hit: ChatSearchHit | undefined) {
    if (hit) router.push(`/w/${encodeURIComponent(workspaceId)}/chat/${encodeURIComponent(hit.chat.id)}`);
  }

  function onKeyDown(e: KeyboardEvent<HTMLInputElement>) {
    if (e.key === 'Escape') {
      if (raw) {
        e.preventDefault();
        setRaw('');
      } else input.current?.blur();
    } else if (e.key === 'ArrowDown' && hits.length > 0) {
      e.preventDefault();
      setActive((i) => (i + 1) % hits.length);
    } else if (e.key === 'ArrowUp' && hits.length > 0) {
      e.preventDefault();
      setActive((i) => (i - 1 + hits.length) % hits.length);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      open(hits[active]);
    }
  }

  const showingResults = q.length > 0;
  return (
    <>
      <div className="relative mb-2">
        <Search className="pointer-events-none absolute left-2.5 top-1/2 h-4 w-4 -translate-y-1/2 text-neutral-400" aria-hidden />
        <input
          ref={input}
          type="search"
          role="combobox"
          aria-label="Search chats"
          aria-expanded={showingResults}
          aria-controls={listId}
          aria-activedescendant={showingResults && hits[active] ? optionId(active) : undefined}
          aria-autocomplete="list"
          autoComplete="off"
          maxLength={200}
          placeholder="Search chats"
          value={raw}
          onChange={(e) => setRaw(e.target.value)}
          onKeyDown={onKeyDown}
          className="h-11 w-full rounded-lg border border-neutral-300 bg-white pr-16 pl-8 text-sm text-neutral-900 placeholder:text-neutral-400 focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/30 md:h-9 dark:border-neutral-700 dark:bg-neutral-900 dark:text-neutral-100 [&::-webkit-search-cancel-button]:hidden"
        />
        {raw ? (
          <button
            type="button"
            aria-label="Clear search"
            onClick={() => {
              setRaw('');
              input.current?.focus();
            }}
            className="absolute right-1 top-1/2 grid h-11 w-11 -translate-y-1/2 cursor-pointer place-items-center rounded-md text-neutral-500 hover:text-neutral-900 md:h-7 md:w-7 dark:hover:text-neutral-100"
          >
            <X className="h-4 w-4" aria-hidden />
          </button>
        ) : (
          <kbd className="pointer-events-none absolute right-2 top-1/2 hidden -translate-y-1/2 rounded border border-neutral-300 px-1 text-[10px] text-neutral-500 md:block dark:border-neutral-700">
            {shortcut}
          </kbd>
        )}
      </div>
      {!showingResults && list}
      {showingResults && (
        <div className="-mx-1 min-h-0 flex-1 overflow-y-auto px-1">
          <h2 className="px-2 pb-1 text-xs font-medium uppercase tracking-wide text-neutral-500">Search results</h2>
          <p role="status" className="sr-only">
            {state.status === 'done' ? (hits.length === 0 ? 'No chats match' : `${hits.length} ${hits.length === 1 ? 'chat matches' : 'chats match'}`) : ''}
          </p>
          {state.status === 'error' && (
            <div role="alert" className="px-2 py-2 text-sm text-red-600 dark:text-red-400">
              <p>Could not search: {state.message}</p>
              <Button variant="ghost" size="sm" className="mt-1 -ml-3" onClick={retry}>
                Retry
              </Button>
            </div>
          )}
          {state.status === 'searching' && hits.length === 0 && <p className="px-2 py-2 text-sm text-neutral-500">Searching…</p>}
          {state.status === 'done' && hits.length === 0 && (
            <div className="mx-1 flex flex-col items-center gap-2 rounded-lg border border-dashed border-neutral-300 px-3 py-6 text-center text-sm text-neutral-500 dark:border-neutral-700">
              <SearchX className="h-5 w-5" aria-hidden />
              <p>No chats match “{q}”.</p>
              <p className="text-xs">Titles and message text are searched; every word must occur.</p>
            </div>
          )}
          {/* Focus stays in the box (aria-activedescendant); a pointer or touch opens a result directly. */}
          <div id={listId} role="listbox" aria-label="Matching chats" className="flex flex-col gap-0.5">
            {hits.map((hit, i) => (
              // biome-ignore lint/a11y/useKeyWithClickEvents: the keyboard works through the search box (↑/↓, Enter), as in a combobox.
              <div
                key={hit.chat.id}
                id={optionId(i)}
                role="option"
                tabIndex={-1}
                aria-selected={i === active}
                onClick={() => open(hit)}
                onMouseMove={() => setActive(i)}
                className={
                  'min-h-11 cursor-pointer rounded-lg px-2 py-2 text-sm ' +
                  (i === active ? 'bg-neutral-200/80 dark:bg-neutral-800' : 'hover:bg-neutral-200/50 dark:hover:bg-neutral-800/60')
                }
              >
                <span className="block truncate font-medium text-neutral-800 dark:text-neutral-200">
                  <Marked text={chatLabel(hit.chat)} ranges={termRanges(chatLabel(hit.chat), searchTerms(q))} />
                </span>
                {hit.match && (
                  <span className="mt-0.5 line-clamp-2 block text-xs text-neutral-500 dark:text-neutral-400">
                    <span className="font-medium">{hit.match.chatId !== hit.chat.id ? 'Sub-agent: ' : hit.match.role === 'user' ? 'You: ' : 'Agent: '}</span>
                    <Marked text={hit.match.snippet} ranges={hit.match.highlights} />
                  </span>
                )}
              </div>
            ))}
          </div>
        </div>
      )}
    </>
  );
}

/** Where words of `text` start with one of the search terms (as the server matches them). */
export function termRanges(text: string, terms: string[]): { start: number; end: number }[] {
  const ranges: { start: number; end: number }[] = [];
  for (const word of text.matchAll(/[\p{L}\p{N}]+/gu)) {
    if (terms.some((t) => word[0].toLowerCase().startsWith(t))) ranges.push({ start: word.index, end: word.index + word[0].length });
  }
  return ranges;
}

function Marked({ text, ranges }: { text: string; ranges: { start: number; end: number }[] }) {
  const out: ReactNode[] = [];
  let at = 0;
  for (const { start, end } of ranges) {
    if (start < at) continue;
    out.push(text.slice(at, start));
    out.push(
      <mark key={start} className="rounded-sm bg-amber-200/70 text-inherit dark:bg-amber-500/30">
        {text.slice(start, end)}
      </mark>,
    );
    at = end;
  }
  out.push(text.slice(at));
  return <>{out}</>;
}
