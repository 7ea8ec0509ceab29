import type { RunEvent } from '../agent/runs/run-channel';

/**
 * Server-sent events for a batch of a run's events, one SSE event per logged event with its
 * sequence number as the `id` (a client resumes after it with `Last-Event-ID`, and a replay
 * is event for event what the live stream was). A batch is whatever had arrived when the
 * reader asked, written at once: nothing waits to be batched.
 */
export function sseFrames(events: RunEvent[]): string {
  let out = '';
  for (const { seq, chunk } of events) out += `id: ${seq}\ndata: ${JSON.stringify(chunk)}\n\n`;
  return out;
}
