'use client';

import type { Me, Membership } from '@baton/schemas';
import { create } from 'zustand';
import { api } from '@/lib/api-client';

interface SessionState {
  me: Me | null;
  status: 'idle' | 'loading' | 'ready' | 'error';
  error: string | null;
  /** Loads who is signed in once per page load (a 401 goes to sign-in, in the API client). */
  load: () => Promise<void>;
  /** Reads it again: after joining, creating or leaving a workspace, or a role change. */
  reload: () => Promise<Me | null>;
}

/** The signed-in person and their memberships, shared by the shell and the settings pages. */
export const useSession = create<SessionState>()((set, get) => ({
  me: null,
  status: 'idle',
  error: null,

  load: async () => {
    if (get().status !== 'idle' && get().status !== 'error') return;
    await get().reload();
  },

  reload: async () => {
    set({ status: get().me ? 'ready' : 'loading', error: null });
    try {
      const me = await api.me();
      set({ me, status: 'ready' });
      return me;
    } catch (err) {
      set({ status: 'error', error: (err as Error).message });
      return null;
    }
  },
}));

/** The signed-in person's membership of a workspace (undefined: not a member, or not loaded yet). */
export function useMembership(workspaceId: string): Membership | undefined {
  return useSession((s) => s.me?.memberships.find((m) => m.workspaceId === workspaceId));
}
