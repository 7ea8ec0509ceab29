'use client';

import { useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import type { ChatWithMessages } from '@baton/schemas';
import { useCallback } from 'react';
import { fetchChatOrNull, queryKeys } from './queries';

export interface QueryState<T> {
  data: T | undefined;
  error: Error | undefined;
  /** A read is under way (the first, or a reload). */
  loading: boolean;
  /** Fetches again; the current data stays visible meanwhile. */
  reload: () => Promise<void>;
  /** Replaces the data in the cache, e.g. with what a successful save returned. */
  setData: (update: T | ((current: T | undefined) => T)) => void;
}

export interface ApiQueryOptions {
  /** False: read nothing (yet); the cached data, if any, is still given. */
  enabled?: boolean;
  /** How long a read stays good for a component that mounts: by default none, so opening a page reads again (showing the cached copy meanwhile). */
  staleTime?: number;
  /** 0 for data a form starts from: a page never opens on an old copy. */
  gcTime?: number;
}

/**
 * A client component's read through the shared query cache (query-client.ts, keys in
 * queries.ts): components that show the same thing share one copy and one request, and a
 * key's answers never show under another key.
 */
export function useApiQuery<T>(queryKey: QueryKey, fetcher: () => Promise<T>, options: ApiQueryOptions = {}): QueryState<T> {
  const client = useQueryClient();
  const query = useQuery({ queryKey, queryFn: fetcher, ...options });
  const { refetch } = query;
  const reload = useCallback(async () => {
    await refetch();
  }, [refetch]);
  const keyHash = JSON.stringify(queryKey);
  const setData = useCallback(
    (update: T | ((current: T | undefined) => T)) => client.setQueryData<T>(JSON.parse(keyHash) as QueryKey, update),
    [client, keyHash],
  );
  return { data: query.data, error: query.error ?? undefined, loading: query.isFetching, reload, setData };
}

/**
 * A chat as the query cache holds it (null: there is no such chat), read when a component
 * mounts — joining a read under way — and refreshed by every `readChat`, above all the one
 * at a run's end (run-ended.ts). `enabled: false` reads nothing and shows the cached copy.
 */
export function useChatQuery(workspaceId: string, chatId: string, options: ApiQueryOptions = {}): QueryState<ChatWithMessages | null> {
  return useApiQuery(queryKeys.chat(workspaceId, chatId), () => fetchChatOrNull(workspaceId, chatId), options);
}
