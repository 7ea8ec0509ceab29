// Many chats at once: all POSTed together, every stream read to its end, with the time to
// first word and the gaps between words as the client sees them. Run against the model
// directly (the reference) and through Baton, with the same client and the same prompt.
import { performance } from 'node:perf_hooks';
import { batonChat, directChat, type Target } from './chats';
import { inPool, requestJson, type StreamResult } from './http-client';
import { load1, machineBusy } from './machine';
import type { ServerProcess } from './processes';
import { now, percentileSorted, sleep, summarize, type Summary } from './stats';

export interface BurstResult {
  chats: number;
  completed: number;
  failures: string[];
  /** Baton only: assistant answers found stored after the streams ended. */
  stored?: number;
  /** Baton only: chats whose stream failed or whose answer is not stored. */
  lost?: number;
  words: number;
  wallMs: number;
  ttft: Summary;
  /** Client-observed gap before each word minus the model's pacing, over all words of all streams. */
  addedGap: { p50: number; p95: number; p99: number; max: number };
  /** CPU ms used during the burst, per process. */
  cpuMs: { baton?: number; model: number; client: number };
  batonPerTokenUs?: number;
  /** Baton's peak RSS during the burst (VmHWM reset at its start). */
  batonPeakMiB?: number;
  machineBusy: number;
  clientLoopBusy: number;
  load: string;
}

function gapStats(results: StreamResult[], pacingMs: number) {
  let n = 0;
  for (const r of results) n += r.words;
  const gaps = new Float64Array(n);
  let i = 0;
  for (const r of results) {
    const a = r.arrivals;
    if (!a) continue;
    for (let k = 0; k < a.at.length; k++) {
      // The frame's first word waited since the previous frame; words that came with it, not at all.
      if (k > 0) gaps[i++] = a.at[k]! - a.at[k - 1]! - pacingMs;
      for (let w = 1; w < a.words[k]!; w++) gaps[i++] = -pacingMs;
    }
  }
  const sorted = gaps.subarray(0, i).sort();
  return { p50: percentileSorted(sorted, 50), p95: percentileSorted(sorted, 95), p99: percentileSorted(sorted, 99), max: sorted[i - 1] ?? NaN };
}

/** Whether Baton stored the chat's answer: its assistant message with text, and no run still going. */
async function answerStored(batonUrl: string, chatId: string): Promise<boolean> {
  const res = await requestJson('GET', `${batonUrl}/api/workspaces/default/chats/${chatId}`);
  if (res.status !== 200) return false;
  const messages = (res.json?.messages ?? []) as { role: string; parts: { type: string; text?: string }[] }[];
  const answer = messages.find((m) => m.role === 'assistant');
  return res.json.activeRun === null && !!answer?.parts.some((p) => p.type === 'text' && (p.text ?? '').length > 0);
}

export async function measureBurst(
  t: Target,
  via: { baton: ServerProcess; model: ServerProcess } | { model: ServerProcess },
  prompt: string,
  pacingMs: number,
  { chats = 500, timeoutMs = 120_000, storedWaitMs = 15_000 } = {},
): Promise<BurstResult> {
  const baton = 'baton' in via ? via.baton : undefined;
  const load = load1();
  baton?.resetPeak();
  const busy = machineBusy();
  const elu = performance.eventLoopUtilization();
  const client0 = process.cpuUsage();
  const model0 = via.model.cpuMs();
  const baton0 = baton?.cpuMs() ?? 0;
  const t0 = now();
  const options = { timeoutMs, keepArrivals: true };
  const results = await Promise.all(Array.from({ length: chats }, () => (baton ? batonChat(t, prompt, options) : directChat(t, prompt, options))));
  const wallMs = now() - t0;
  const clientCpu = process.cpuUsage(client0);
  const cpuMs = {
    baton: baton ? baton.cpuMs() - baton0 : undefined,
    model: via.model.cpuMs() - model0,
    client: (clientCpu.user + clientCpu.system) / 1000,
  };
  const machine = busy();
  const clientLoopBusy = performance.eventLoopUtilization(elu).utilization;
  const batonPeakMiB = baton?.memory().peakMiB;

  const ok = results.filter((r) => r.ok);
  const words = results.reduce((sum, r) => sum + r.words, 0);
  const out: BurstResult = {
    chats,
    completed: ok.length,
    failures: results.flatMap((r) => (r.ok ? [] : [r.error ?? 'failed'])),
    words,
    wallMs,
    ttft: summarize(ok.map((r) => r.firstWordAt! - r.start)),
    addedGap: gapStats(ok, pacingMs),
    cpuMs,
    batonPerTokenUs: cpuMs.baton === undefined ? undefined : (cpuMs.baton * 1000) / words,
    batonPeakMiB,
    machineBusy: machine,
    clientLoopBusy,
    load,
  };
  if (baton) {
    // A completed stream means the run's end was stored; check every chat anyway (bounded).
    const ids = (results as (StreamResult & { chatId: string })[]).map((r) => r.chatId);
    let missing = ids;
    const deadline = now() + storedWaitMs;
    for (;;) {
      const stored = await inPool(missing, 16, (id) => answerStored(baton.url, id).catch(() => false));
      missing = missing.filter((_, i) => !stored[i]);
      if (missing.length === 0 || now() > deadline) break;
      await sleep(250);
    }
    const failedIds = new Set((results as (StreamResult & { chatId: string })[]).filter((r) => !r.ok).map((r) => r.chatId));
    out.stored = chats - missing.length;
    out.lost = new Set([...failedIds, ...missing]).size;
  }
  return out;
}

/** One burst through the AI SDK template's route and one through Baton, back to back. */
export interface BurstRound {
  baton: BurstResult;
  peer: BurstResult;
}

export const burstRatio = (round: BurstRound) => round.baton.ttft.p95 / round.peer.ttft.p95;

/** The round whose time-to-first-word p95 ratio is the median (the lower middle of an even count). */
export function medianBurstRound(rounds: BurstRound[]): BurstRound {
  const sorted = [...rounds].sort((a, b) => burstRatio(a) - burstRatio(b));
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}
