// Baton's CPU per relayed token: the kernel's count of the CPU time Baton's process used
// (utime + stime) while it answered a known number of words, its idle rate subtracted.
import { batonChat, type Target } from './chats';
import { inPool } from './http-client';
import { load1 } from './machine';
import type { ServerProcess } from './processes';
import { now, sleep } from './stats';

/** CPU ms per second that Baton's process uses while idle (heartbeats, timers). */
export async function idleCpuRate(baton: ServerProcess, windowMs = 3_000): Promise<number> {
  const c0 = baton.cpuMs();
  const t0 = now();
  await sleep(windowMs);
  return (baton.cpuMs() - c0) / ((now() - t0) / 1000);
}

export interface CpuResult {
  chats: number;
  failed: number;
  concurrency: number;
  words: number;
  wallMs: number;
  /** Baton's CPU time over the phase minus its idle rate × the phase's duration. */
  cpuMs: number;
  idleMsSubtracted: number;
  /** The kernel's share of Baton's CPU time (socket reads and writes, system calls). */
  systemShare: number;
  perTokenUs: number;
  perTurnMs: number;
  load: string;
}

/** `chats` new chats with `prompt`, `concurrency` at a time, each read to its end (= stored). */
export async function measureCpu(
  t: Target,
  baton: ServerProcess,
  prompt: string,
  idleRate: number,
  { chats = 40, concurrency = 20, timeoutMs = 60_000 } = {},
): Promise<CpuResult> {
  const load = load1();
  const c0 = baton.cpuMs();
  const s0 = baton.systemMs();
  const t0 = now();
  const results = await inPool(Array.from({ length: chats }), concurrency, () => batonChat(t, prompt, { timeoutMs }));
  const wallMs = now() - t0;
  const idle = (idleRate * wallMs) / 1000;
  const used = baton.cpuMs() - c0;
  const cpuMs = used - idle;
  const systemShare = (baton.systemMs() - s0) / used;
  const words = results.reduce((sum, r) => sum + r.words, 0);
  const ok = results.filter((r) => r.ok).length;
  return {
    chats,
    failed: chats - ok,
    concurrency,
    words,
    wallMs,
    cpuMs,
    idleMsSubtracted: idle,
    systemShare,
    perTokenUs: (cpuMs * 1000) / words,
    perTurnMs: cpuMs / Math.max(1, ok),
    load,
  };
}

/** What one more word costs: the difference between long and short answers, per word. */
export function marginalPerTokenUs(short: CpuResult, long: CpuResult): number {
  const perTurn = (r: CpuResult) => ({ cpu: r.cpuMs / r.chats, words: r.words / r.chats });
  const s = perTurn(short);
  const l = perTurn(long);
  return ((l.cpu - s.cpu) * 1000) / (l.words - s.words);
}

/** A turn's cost that does not grow with its answer: CPU per turn minus the marginal cost of its words. */
export function fixedPerTurnMs(r: CpuResult, marginalUs: number): number {
  return r.cpuMs / r.chats - (marginalUs * (r.words / r.chats)) / 1000;
}

/**
 * The round with the median CPU per token, the spread over the rounds, and all rounds
 * together (their CPU over their words: a collection that falls in one round counts once,
 * wherever it falls).
 */
export function medianRound(rounds: CpuResult[]): CpuResult & { spreadUs: [number, number]; pooledPerTokenUs: number } {
  const sorted = [...rounds].sort((a, b) => a.perTokenUs - b.perTokenUs);
  const cpuMs = rounds.reduce((sum, r) => sum + r.cpuMs, 0);
  const words = rounds.reduce((sum, r) => sum + r.words, 0);
  return {
    ...sorted[Math.floor(sorted.length / 2)]!,
    spreadUs: [sorted[0]!.perTokenUs, sorted.at(-1)!.perTokenUs],
    pooledPerTokenUs: (cpuMs * 1000) / words,
  };
}

export type CpuFigure = ReturnType<typeof medianRound>;

/**
 * Rounds of 76-word answers through Baton, 158-word answers through Baton, 76-word answers
 * through the bare relay, and 76- and 158-word answers through the AI SDK template's route (the
 * peer), interleaved, so that what else the machine does at the time weighs on all alike. Each
 * figure is the median round, with all rounds together beside it.
 */
export async function measureCpuRounds(
  t: Target,
  baton: ServerProcess,
  references: { relay: ServerProcess; peer: ServerProcess; peerIdleRate: number },
  prompts: { standard: string; long: string },
  idleRate: number,
  { rounds = 3 } = {},
): Promise<{ standard: CpuFigure; long: CpuFigure; bareRelay: CpuFigure; peer: CpuFigure; peerLong: CpuFigure; marginalUs: number; peerMarginalUs: number }> {
  const standard: CpuResult[] = [];
  const long: CpuResult[] = [];
  const bare: CpuResult[] = [];
  const peer: CpuResult[] = [];
  const peerLong: CpuResult[] = [];
  const { relay } = references;
  const viaBaton = async () => {
    standard.push(await measureCpu(t, baton, prompts.standard, idleRate));
    long.push(await measureCpu(t, baton, prompts.long, idleRate));
  };
  const viaPeer = async () => {
    peer.push(await measureCpu({ ...t, batonUrl: references.peer.url }, references.peer, prompts.standard, references.peerIdleRate));
    // The peer's long answers too: its own cost per word and per turn, to say which of the two Baton's extra is.
    peerLong.push(await measureCpu({ ...t, batonUrl: references.peer.url }, references.peer, prompts.long, references.peerIdleRate));
  };
  for (let i = 0; i < rounds; i++) {
    // Baton first in even rounds, the peer in odd ones: neither always follows the other.
    await (i % 2 === 0 ? viaBaton() : viaPeer());
    bare.push(await measureCpu({ ...t, batonUrl: relay.url }, relay, prompts.standard, 0));
    await (i % 2 === 0 ? viaPeer() : viaBaton());
  }
  const s = medianRound(standard);
  const l = medianRound(long);
  const ps = medianRound(peer);
  const pl = medianRound(peerLong);
  return {
    standard: s,
    long: l,
    bareRelay: medianRound(bare),
    peer: ps,
    peerLong: pl,
    marginalUs: marginalPerTokenUs(s, l),
    peerMarginalUs: marginalPerTokenUs(ps, pl),
  };
}
