'use client';

import type { Me, Membership } from '@baton/schemas';
import { useQuery } from '@tanstack/react-query';
import { api } from './api-client';
import { queryKeys } from './queries';
import { getQueryClient } from './query-client';

export interface SessionState {
  me: Me | null;
  status: 'idle' | 'loading' | 'ready' | 'error';
  error: string | null;
  /** Loads who is signed in once per page load (a 401 goes to sign-in, in the API client); reading it does that already. */
  load: () => Promise<void>;
  /** Reads it again: after joining, creating or leaving a workspace, or a role change. */
  reload: () => Promise<Me | null>;
}

/** Reads who is signed in again into the query cache; null when that fails (the page shows the error). */
async function reload(): Promise<Me | null> {
  try {
    return await getQueryClient().fetchQuery({ queryKey: queryKeys.me(), queryFn: api.me, staleTime: 0 });
  } catch {
    return null;
  }
}

const load = async () => {};

/**
 * The signed-in person and their memberships, shared by the shell and the settings pages:
 * the query cache's `me` entry, read once per page load and again on `reload`.
 */
export function useSession(): SessionState;
export function useSession<T>(select: (state: SessionState) => T): T;
export function useSession<T>(select?: (state: SessionState) => T): T | SessionState {
  const query = useQuery({ queryKey: queryKeys.me(), queryFn: api.me, staleTime: Infinity });
  const state: SessionState = {
    me: query.data ?? null,
    status: query.data ? 'ready' : query.isError ? 'error' : query.isFetching ? 'loading' : 'idle',
    error: query.error?.message ?? null,
    load,
    reload,
  };
  return select ? select(state) : state;
}

/** The signed-in person's membership of a workspace (undefined: not a member, or not loaded yet). */
export function useMembership(workspaceId: string): Membership | undefined {
  return useSession((s) => s.me?.memberships.find((m) => m.workspaceId === workspaceId));
}
