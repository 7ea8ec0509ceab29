'use client';

import { isServer, QueryClient } from '@tanstack/react-query';

/*
 * The browser's one cache of what it read from the API (TanStack Query): chats, sub-chat
 * lists, agents, providers, tool catalogs, settings lists. Pages read through it
 * (`useApiQuery`), and so does code outside React (chat sessions, delegations) with
 * `getQueryClient()`: the same chat read twice at once is one request, and a run's end
 * refreshes a chat once for every piece that shows it (queries.ts).
 */

function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // A failed read shows its error with a Retry button at once, as before the cache.
        retry: false,
        // What changes a chat is a run, and its stream says when it ends: no refetch on focus.
        refetchOnWindowFocus: false,
        refetchOnReconnect: false,
      },
    },
  });
}

let browserClient: QueryClient | undefined;

/** The page's client: one per page load in the browser, a throwaway one on the server (nothing is fetched there). */
export function getQueryClient(): QueryClient {
  if (isServer) return makeQueryClient();
  browserClient ??= makeQueryClient();
  return browserClient;
}
