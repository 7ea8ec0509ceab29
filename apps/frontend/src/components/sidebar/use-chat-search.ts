'use client';

import { MAX_SEARCH_QUERY_CHARS, type ChatSearchHit } from '@baton/schemas';
import { useEffect, useRef, useState } from 'react';
import { api } from '@/lib/api-client';

/** Typing pauses this long before a search goes out (each keystroke would be a request otherwise). */
const DEBOUNCE_MS = 150;

export type ChatSearchState =
  | { status: 'idle' }
  | { status: 'searching'; hits: ChatSearchHit[] | null }
  | { status: 'done'; hits: ChatSearchHit[] }
  | { status: 'error'; message: string };

/**
 * What the server can search for: no NUL (Postgres stores none, the API refuses it) and no
 * more than the API takes.
 */
export function searchableQuery(raw: string): string {
  return raw.replaceAll('\u0000', '').trim().slice(0, MAX_SEARCH_QUERY_CHARS);
}

/** Searches the person's chats as they type; only the newest query's answer is shown. */
export function useChatSearch(workspaceId: string, raw: string) {
  const q = searchableQuery(raw);
  const [state, setState] = useState<ChatSearchState>({ status: 'idle' });
  const [attempt, setAttempt] = useState(0);
  const latest = useRef(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is the Retry trigger.
  useEffect(() => {
    const ticket = ++latest.current;
    if (!q) {
      setState({ status: 'idle' });
      return;
    }
    // Earlier results stay on screen while the next ones load, so the list does not blink.
    setState((s) => ({ status: 'searching', hits: s.status === 'done' ? s.hits : s.status === 'searching' ? s.hits : null }));
    const timer = setTimeout(() => {
      api.chats.search(workspaceId, q).then(
        ({ data }) => ticket === latest.current && setState({ status: 'done', hits: data }),
        (err: Error) => ticket === latest.current && setState({ status: 'error', message: err.message }),
      );
    }, DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [workspaceId, q, attempt]);

  return { q, state, retry: () => setAttempt((n) => n + 1) };
}
