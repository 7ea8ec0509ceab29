'use client';

import type { SteeringMessage } from '@baton/schemas';
import type { FileUIPart } from 'ai';
import { useCallback, useEffect, useState } from 'react';
import { ApiError, api } from '@/lib/api-client';
import type { SteeringBubbleStatus } from './steering-bubble';

export interface PendingSteering {
  /** The server's id once queued (a `steering-message` part carries the same id when delivered). */
  id: string;
  text: string;
  files: FileUIPart[];
  status: Exclude<SteeringBubbleStatus, 'delivered'>;
}

/**
 * The messages a person sent to a running sub-agent that its transcript does not show yet:
 * sending, queued, or — once it ended — not delivered. The server's list is read when the
 * panel opens (a reload keeps them) and again when the sub-agent ends; not before the
 * sub-chat exists on the server (`onServer`).
 */
export function useSteering(workspaceId: string, subChatId: string, running: boolean, delivered: Set<string>, onServer = true) {
  const [sent, setSent] = useState<PendingSteering[]>([]);
  const [error, setError] = useState<string | undefined>();

  // biome-ignore lint/correctness/useExhaustiveDependencies: read when the panel opens (once the sub-chat exists) and once more when the run ends.
  useEffect(() => {
    if (!onServer) return;
    let live = true;
    api.steering
      .list(workspaceId, subChatId)
      .then((stored) => {
        if (!live) return;
        setSent((now) => merge(now, stored));
      })
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [workspaceId, subChatId, running, onServer]);

  const send = useCallback(
    async (text: string, files: FileUIPart[] = []): Promise<boolean> => {
      setError(undefined);
      const temp = `sending-${Date.now()}-${Math.random()}`;
      setSent((now) => [...now, { id: temp, text, files, status: 'sending' }]);
      try {
        const queued = await api.steering.send(workspaceId, subChatId, { text, files });
        setSent((now) => now.map((m) => (m.id === temp ? { id: queued.id, text: queued.text, files: queued.files, status: 'queued' } : m)));
        return true;
      } catch (err) {
        setSent((now) => now.filter((m) => m.id !== temp));
        setError(
          err instanceof ApiError && err.status === 409
            ? 'The sub-agent has finished, so it can no longer take messages. To change its result, retry the delegation from the parent chat.'
            : `Your message was not sent: ${(err as Error).message}`,
        );
        return false;
      }
    },
    [workspaceId, subChatId],
  );

  const pending = sent
    .filter((m) => !delivered.has(m.id))
    // A message still queued when the sub-agent ended never reached it.
    .map((m) => (!running && m.status === 'queued' ? { ...m, status: 'not_delivered' as const } : m));
  return { pending, send, error };
}

/** The server's view wins for what it knows; messages still being sent stay. */
function merge(local: PendingSteering[], stored: SteeringMessage[]): PendingSteering[] {
  const fromServer = stored
    .filter((m) => m.status !== 'delivered')
    .map((m) => ({ id: m.id, text: m.text, files: m.files, status: m.status as PendingSteering['status'] }));
  const known = new Set(stored.map((m) => m.id));
  return [...fromServer, ...local.filter((m) => !known.has(m.id))];
}
