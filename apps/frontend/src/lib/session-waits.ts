'use client';

import type { Chat } from '@ai-sdk/react';
import type { BatonUIMessage } from '@baton/schemas';
import { whenFollowingRun } from './follow-server-run';

/* Waiting on what a chat's stream says, instead of looking every second. */

export const isLive = (session: Chat<BatonUIMessage>) => session.status === 'submitted' || session.status === 'streaming';

/** Resolves once the session's own stream is over (its status says so: no polling). */
export function streamOver(session: Chat<BatonUIMessage>): Promise<void> {
  return new Promise((resolve) => {
    if (!isLive(session)) return resolve();
    const stop = session['~registerStatusCallback'](() => {
      if (isLive(session)) return;
      stop();
      resolve();
    });
  });
}

/**
 * Waits until the sub-chat's next run is followed here (a decision made in this tab resumed
 * it: the follow reads its stream) or `ms` passed — what happens in another tab, or between
 * two runs on the server, no stream of this tab tells.
 */
export function nextRunOr(subChatId: string, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      stopWatching();
      resolve();
    };
    const timer = setTimeout(done, ms);
    const stopWatching = whenFollowingRun(subChatId, done);
  });
}
