'use client';

import type { BatonUIMessage } from '@baton/schemas';
import { useEffect, useRef, useState } from 'react';
import { readableText } from './message-parts';

/** Screen readers read this much of a new answer; the rest is in the transcript. */
const MAX_ANNOUNCED_CHARS = 600;

/**
 * What a polite live region says when an answer has finished: the answer, once (not every
 * token as it streams, which would drown the reader in fragments). A new answer (a message,
 * Retry, Regenerate) empties it first, so the region never holds an answer that was replaced.
 */
export function useAnswerAnnouncement(messages: BatonUIMessage[], busy: boolean): string {
  const [announcement, setAnnouncement] = useState('');
  const wasBusy = useRef(busy);
  useEffect(() => {
    const started = !wasBusy.current && busy;
    const finished = wasBusy.current && !busy;
    wasBusy.current = busy;
    if (started) setAnnouncement('');
    if (!finished) return;
    const last = messages.at(-1);
    if (last?.role !== 'assistant') return;
    const text = readableText(last).trim();
    if (!text) return;
    setAnnouncement(`The agent answered: ${text.length > MAX_ANNOUNCED_CHARS ? `${text.slice(0, MAX_ANNOUNCED_CHARS)}…` : text}`);
  }, [busy, messages]);
  return announcement;
}
