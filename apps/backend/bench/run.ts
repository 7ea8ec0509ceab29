// `pnpm bench`: Baton's performance figures in one run (see docs/benchmarks.md).
// Three kinds of process: the demo model (its own process, once paced like a real model and
// once unpaced), Baton (the real src/index.ts, its own process) and this one, the load
// generator. Real Postgres when DATABASE_URL is set (a fresh database, dropped at the end),
// else PGlite in a temp dir (deleted). REDIS_URL, when set, is passed on to Baton.
import { mkdir, mkdtemp } from 'node:fs/promises';
import { cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { measureAppend } from './append';
import { LONG_PROMPT, SHORT_PROMPT, STANDARD_PROMPT, type Target } from './chats';
import { burstRatio, measureBurst, medianBurstRound, type BurstResult, type BurstRound } from './concurrency';
import { measureSdkFloor, type SdkFloor } from './sdk-floor';
import { fixedPerTurnMs, idleCpuRate, measureCpu, measureCpuRounds, type CpuFigure } from './cpu';
import { type BenchDatabase, createBenchDatabase } from './database';
import { closeClient, requestJson, signInBench } from './http-client';
import { measureOutbound, type OutboundResult } from './outbound';
import { load1 } from './machine';
import { measureObservability, type ObservabilityResult } from './observability';
import { startBareRelayProcess, startBatonProcess, startDemoProcess, startPeerProcess, type ServerProcess } from './processes';
import { latestProfile, monotonicUs, printProfileWindow, type Window } from './profile';
import { ms, printTable } from './stats';
import { measureTtft, type TtftResult } from './ttft';

const TARGETS = {
  cpuPerTokenUs: 50,
  ttftOverheadMs: 5,
  burstTtftP95Ms: 1_000,
  addedGapP95Ms: 50,
  rssMiB: 1024,
  appendRatio: 1.5,
  /** Baton / the AI SDK template's route, for CPU per word and burst time to first word. */
  anchorRatio: 1.2,
};
const PACED_MS = 20;
const BURST_CHATS = Number(process.env.BENCH_CHATS ?? 500);
/** Interleaved rounds of the CPU phase: the peer's own figure moved by 40 % between runs of three. */
const CPU_ROUNDS = Math.max(1, Math.floor(Number(process.env.BENCH_CPU_ROUNDS ?? 5)));
/**
 * Counted bursts through the peer and through Baton, after one warm-up burst each. One burst's
 * p95 moved by 25 % and more between runs, and a process's first burst of this size ran up to
 * 1.8× slower than its next (compilers, heap growth); an even count keeps the order balanced.
 */
const BURST_ROUNDS = Math.max(1, Math.floor(Number(process.env.BENCH_BURST_ROUNDS ?? 4)));
const PHASES = new Set((process.env.BENCH_PHASES ?? 'ttft,cpu,burst,append,outbound,observability').split(',').map((p) => p.trim()));
const WATCHDOG_MS = 15 * 60_000;

const cleanups: (() => Promise<unknown>)[] = [];
async function cleanup() {
  // Processes first, then the database they use.
  for (const fn of cleanups.splice(0).reverse()) {
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise((r) => (timer = setTimeout(r, 20_000)));
    await Promise.race([fn(), limit])
      .catch((err) => console.error('cleanup:', err))
      .finally(() => clearTimeout(timer));
  }
}

const watchdog = setTimeout(() => {
  console.error(`bench: still running after ${WATCHDOG_MS / 1000} s; giving up`);
  void cleanup().finally(() => process.exit(2));
}, WATCHDOG_MS);
watchdog.unref();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`bench: ${signal}, cleaning up`);
    void cleanup().finally(() => process.exit(130));
  });
}

const metOrNot = (ok: boolean) => (ok ? 'met' : 'NOT met');
const us = (v: number) => (Number.isFinite(v) ? `${v.toFixed(1)} µs` : 'n/a');
const step = (text: string) => console.log(`  [load ${load1()}] ${text}`);

interface ModeResult {
  name: string;
  pacingMs: number;
  idleCpuMsPerS: number;
  ttft?: TtftResult;
  ttftPrompt: string;
  cpu?: { standard: CpuFigure; long: CpuFigure; marginalUs: number; bareRelay: CpuFigure; peer: CpuFigure; peerLong: CpuFigure; peerMarginalUs: number };
  /** `rounds`: every counted round, in order; `baton` and `peer`: the one whose p95 ratio is the median (for the detailed table). */
  burst?: { direct: BurstResult; baton: BurstResult; peer: BurstResult; rounds: BurstRound[]; warmUp: BurstRound };
  /** The AI SDK template's route: its peak RSS over the mode. */
  peerPeakMiB?: number;
  batonPeakMiB: number;
  /** Postgres `deadlock detected` during the mode (every phase), undefined on PGlite. */
  deadlocks?: number;
  windows: Window[];
  profile?: string;
  peerProfile?: string;
}

async function runMode(name: string, pacingMs: number, model: ServerProcess, db: BenchDatabase, profileDir: string | undefined): Promise<ModeResult> {
  const database = db.env;
  const deadlocksBefore = await db.deadlocks();
  console.log(`\n— ${name}: demo model ${pacingMs ? `paced, ${pacingMs} ms between words` : 'unpaced (no delay between words)'} —`);
  const baton = await startBatonProcess({ database, demoBaseURL: `${model.url}/v1`, redisUrl: process.env.REDIS_URL || undefined, cpuProfileDir: profileDir });
  cleanups.push(() => baton.stop());
  try {
    await signInBench(baton.url);
    const created = await requestJson('POST', `${baton.url}/api/workspaces/default/agents`, { name: `Bench (${name})` });
    if (created.status !== 201) throw new Error(`creating the agent: HTTP ${created.status} ${JSON.stringify(created.json)}`);
    const t: Target = { batonUrl: baton.url, demoUrl: model.url, agentId: created.json.id };
    const windows: Window[] = [];
    const phase = async <T>(label: string, fn: () => Promise<T>): Promise<T> => {
      step(label);
      const startUs = monotonicUs();
      const out = await fn();
      windows.push({ name: `${name}: ${label}`, startUs, endUs: monotonicUs() });
      return out;
    };

    // Paced samples use a 9-word answer, so each takes ~0.2 s rather than 1.5 s.
    const ttftPrompt = pacingMs ? SHORT_PROMPT : STANDARD_PROMPT;
    const ttftOptions = pacingMs ? { samples: 30, warmups: 3 } : {};
    const ttft = PHASES.has('ttft') ? await phase('time to first token, one request at a time', () => measureTtft(t, ttftPrompt, ttftOptions)) : undefined;
    // Measured warm: right after start-up the compiler threads are still busy. The same 20
    // turns as the peer's warm-up below, whether or not the time-to-first-token samples ran
    // (without them Baton came to the CPU rounds cold: one round cost 2× the others).
    step('warm-up (20 chats)');
    await measureCpu(t, baton, STANDARD_PROMPT, 0, { chats: 20 });
    step('idle baseline (3 s)');
    const idle = await idleCpuRate(baton);
    // The honest anchor: the AI SDK template's route on the same model and database engine.
    // Profiled like Baton (BENCH_CPU_PROFILE), in a directory of its own, to compare owner by owner.
    const peer = await startPeerProcess(`${model.url}/v1`, database, profileDir && join(profileDir, 'peer'));
    cleanups.push(() => peer.stop());
    let cpu: ModeResult['cpu'];
    let burst: ModeResult['burst'];
    let peerPeakMiB: number;
    try {
      // Warm, as Baton is by now (the same 20 turns): its compiler threads settle on the first turns.
      await measureCpu({ ...t, batonUrl: peer.url }, peer, STANDARD_PROMPT, 0, { chats: 20 });
      const peerIdle = await idleCpuRate(peer);
      if (PHASES.has('cpu')) {
        const relay = await startBareRelayProcess(model.url);
        try {
          cpu = await phase('CPU per token: 76- and 158-word answers, the bare relay and the AI SDK template, 20 at a time, 3 interleaved rounds', () =>
            measureCpuRounds(t, baton, { relay, peer, peerIdleRate: peerIdle }, { standard: STANDARD_PROMPT, long: LONG_PROMPT }, idle, { rounds: CPU_ROUNDS }),
          );
        } finally {
          await relay.stop();
        }
      }
      if (PHASES.has('burst')) {
        const direct = await phase(`${BURST_CHATS} concurrent streams straight to the model (reference)`, () =>
          measureBurst(t, { model }, STANDARD_PROMPT, pacingMs, { chats: BURST_CHATS }),
        );
        const viaPeer = (label: string) =>
          phase(`${BURST_CHATS} concurrent chats through the AI SDK template (reference)${label}`, () =>
            measureBurst({ ...t, batonUrl: peer.url }, { baton: peer, model }, STANDARD_PROMPT, pacingMs, { chats: BURST_CHATS }),
          );
        const viaBaton = (label: string) =>
          phase(`${BURST_CHATS} concurrent chats through Baton${label}`, () =>
            measureBurst(t, { baton, model }, STANDARD_PROMPT, pacingMs, { chats: BURST_CHATS }),
          );
        const warmUp: BurstRound = { peer: await viaPeer(', warm-up (not counted)'), baton: await viaBaton(', warm-up (not counted)') };
        const rounds: BurstRound[] = [];
        for (let round = 1; round <= BURST_ROUNDS; round++) {
          const of = `, round ${round} of ${BURST_ROUNDS}`;
          // Baton first in odd rounds, the peer in even ones (after the warm-up's peer, Baton):
          // each side follows itself and follows the other equally often, so what a burst leaves
          // behind (garbage to collect, a fuller database) falls on both alike.
          if (round % 2 === 1) {
            const b = await viaBaton(of);
            rounds.push({ baton: b, peer: await viaPeer(of) });
          } else {
            const p = await viaPeer(of);
            rounds.push({ peer: p, baton: await viaBaton(of) });
          }
        }
        burst = { direct, ...medianBurstRound(rounds), rounds, warmUp };
      }
      peerPeakMiB = peer.memory().peakMiB;
    } finally {
      await peer.stop();
    }
    const batonPeakMiB = baton.memory().peakMiB;
    // After the process exits: its deadlock counts are flushed to the statistics by then.
    await baton.stop();
    const deadlocksAfter = await db.deadlocks();
    const deadlocks = deadlocksAfter === undefined ? undefined : deadlocksAfter - (deadlocksBefore ?? 0);
    return { name, pacingMs, idleCpuMsPerS: idle, ttft, ttftPrompt, cpu, burst, batonPeakMiB, peerPeakMiB, deadlocks, windows };
  } catch (err) {
    console.error(`Baton's output (tail):\n${baton.output().slice(-3000)}`);
    throw err;
  } finally {
    await baton.stop();
  }
}

/** Baton against the AI SDK template's route, both measured in the same run (issue 19's target: ≤ 1.2×). */
function printAnchor(r: ModeResult) {
  const rows: string[][] = [];
  const ratio = (baton: number, peer: number, target?: number) => {
    const x = baton / peer;
    return [`${x.toFixed(2)}×`, target === undefined ? '' : `≤ ${target}×: ${metOrNot(x <= target)}`];
  };
  if (r.cpu) {
    rows.push([
      `CPU per relayed word (76-word answers, all ${CPU_ROUNDS} rounds together)`,
      us(r.cpu.standard.pooledPerTokenUs),
      us(r.cpu.peer.pooledPerTokenUs),
      ...ratio(r.cpu.standard.pooledPerTokenUs, r.cpu.peer.pooledPerTokenUs, TARGETS.anchorRatio),
    ]);
    rows.push([
      'of which: the median rounds',
      us(r.cpu.standard.perTokenUs),
      us(r.cpu.peer.perTokenUs),
      ...ratio(r.cpu.standard.perTokenUs, r.cpu.peer.perTokenUs),
    ]);
  }
  if (r.cpu) {
    // Which part of a turn the difference is in: what each word adds, and what a turn costs besides.
    rows.push([
      'of which: one more word (158- vs 76-word answers)',
      us(r.cpu.marginalUs),
      us(r.cpu.peerMarginalUs),
      ...ratio(r.cpu.marginalUs, r.cpu.peerMarginalUs),
    ]);
    const bFixed = fixedPerTurnMs(r.cpu.standard, r.cpu.marginalUs);
    const pFixed = fixedPerTurnMs(r.cpu.peer, r.cpu.peerMarginalUs);
    rows.push(['of which: a turn besides its words', ms(bFixed), ms(pFixed), ...ratio(bFixed, pFixed)]);
  }
  if (r.burst) {
    const { baton: b, peer: p, rounds } = r.burst;
    const mean = (side: 'baton' | 'peer') => rounds.reduce((sum, x) => sum + x[side].ttft.p95, 0) / rounds.length;
    rows.push([
      `time to first word p95, ${b.chats} chats at once${rounds.length > 1 ? ` (mean of ${rounds.length} rounds)` : ''}`,
      ms(mean('baton'), 1),
      ms(mean('peer'), 1),
      ...ratio(mean('baton'), mean('peer'), TARGETS.anchorRatio),
    ]);
    const { warmUp } = r.burst;
    rows.push([
      'of which: the warm-up round (not counted)',
      ms(warmUp.baton.ttft.p95, 1),
      ms(warmUp.peer.ttft.p95, 1),
      `${burstRatio(warmUp).toFixed(2)}×`,
      '',
    ]);
    if (rounds.length > 1)
      rows.push([
        'of which: each round (Baton / peer = ratio)',
        rounds.map((x) => `${(x.baton.ttft.p95 / 1000).toFixed(1)} s`).join(', '),
        rounds.map((x) => `${(x.peer.ttft.p95 / 1000).toFixed(1)} s`).join(', '),
        rounds.map((x) => `${burstRatio(x).toFixed(2)}×`).join(', '),
        '',
      ]);
    rows.push([
      `peak RSS during the burst`,
      `${b.batonPeakMiB!.toFixed(0)} MiB`,
      `${p.batonPeakMiB!.toFixed(0)} MiB`,
      ...ratio(b.batonPeakMiB!, p.batonPeakMiB!),
    ]);
  }
  if (rows.length)
    printTable(
      `${r.name}: Baton against the AI SDK template's route (same model, same database engine, same run)`,
      ['figure', 'Baton', 'peer', 'ratio', 'target'],
      rows,
    );
}

function printMode(r: ModeResult, floor: (SdkFloor & { load: string }) | undefined) {
  const { ttft } = r;
  if (ttft) {
    printTable(
      `${r.name}: time to first token, ${ttft.baton.n} sequential samples each (${r.ttftPrompt === SHORT_PROMPT ? '9' : '76'}-word answer)`,
      ['path', 'median', 'p95', 'min', 'max'],
      [
        ['through Baton (POST …/chat → first text-delta)', ms(ttft.baton.median), ms(ttft.baton.p95), ms(ttft.baton.min), ms(ttft.baton.max)],
        ['direct (POST /v1/chat/completions → first content)', ms(ttft.direct.median), ms(ttft.direct.p95), ms(ttft.direct.min), ms(ttft.direct.max)],
        [`overhead (median − median; target ≤ ${TARGETS.ttftOverheadMs} ms)`, ms(ttft.overheadMs), '', '', metOrNot(ttft.overheadMs <= TARGETS.ttftOverheadMs)],
        ['ratio (Baton median / direct median)', `${ttft.ratio.toFixed(2)}×`, '', '', ''],
        [
          'through Baton /v1 (POST /v1/chat/completions, streamed → first content)',
          ms(ttft.openAi.median),
          ms(ttft.openAi.p95),
          ms(ttft.openAi.min),
          ms(ttft.openAi.max),
        ],
        ['/v1 overhead (median − direct median)', ms(ttft.openAi.median - ttft.direct.median), '', '', ''],
      ],
    );
  }
  if (r.cpu) {
    const cpuRow = (label: string, c: CpuFigure): string[] => [
      label,
      `${c.chats - c.failed} / ${c.chats}`,
      String(c.words),
      `${ms(c.cpuMs, 0)} (${(100 * c.systemShare).toFixed(0)} %)`,
      ms(c.perTurnMs),
      `${us(c.perTokenUs)} (${c.spreadUs[0].toFixed(0)}–${c.spreadUs[1].toFixed(0)})`,
      c.load,
    ];
    printTable(
      `${r.name}: Baton's CPU per relayed token (median of ${CPU_ROUNDS} rounds, range in brackets; idle rate ${r.idleCpuMsPerS.toFixed(1)} ms/s subtracted; target ≤ ${TARGETS.cpuPerTokenUs} µs)`,
      ['answers', 'completed', 'words', 'CPU (kernel share)', 'per turn', 'per token', 'load'],
      [
        cpuRow('76 words', r.cpu.standard),
        cpuRow('158 words', r.cpu.long),
        ['one more word (difference per word)', '', '', '', '', us(r.cpu.marginalUs), ''],
        cpuRow('reference: a bare relay of the same streams, 76 words', r.cpu.bareRelay),
        cpuRow("reference: the AI SDK template's route (peer), 76 words", r.cpu.peer),
        cpuRow("reference: the AI SDK template's route (peer), 158 words", r.cpu.peerLong),
        ...(floor
          ? [
              [
                'reference: the AI SDK alone per word (same calls, in-process, no sockets)',
                '',
                '',
                '',
                '',
                us(r.pacingMs ? floor.pacedUs : floor.unpacedUs),
                floor.load,
              ],
            ]
          : []),
        ['target (76-word answers)', '', '', '', '', metOrNot(r.cpu.standard.perTokenUs <= TARGETS.cpuPerTokenUs), ''],
      ],
    );
  }
  if (!r.burst) {
    printAnchor(r);
    return;
  }
  const { baton: b, direct: d, peer: p, rounds } = r.burst;
  // A lost chat in any round counts, not only in the round shown.
  const lost = (side: 'baton' | 'peer') => rounds.reduce((sum, x) => sum + (x[side].lost ?? 0), 0);
  const gap = (x: BurstResult) => `${ms(x.addedGap.p50, 1)} / ${ms(x.addedGap.p95, 1)} / ${ms(x.addedGap.max, 0)}`;
  printTable(
    `${r.name}: ${b.chats} concurrent streaming chats (all sent at once, 76-word answers${rounds.length > 1 ? `; Baton and peer: the median round of ${rounds.length}` : ''})`,
    ['figure', 'through Baton', 'AI SDK template (peer)', 'model direct (reference)', 'target'],
    [
      ['completed', `${b.completed} / ${b.chats}`, `${p.completed} / ${p.chats}`, `${d.completed} / ${d.chats}`, metOrNot(b.completed === b.chats)],
      [
        `lost (stream failed or answer not stored${rounds.length > 1 ? `, all ${rounds.length} rounds` : ''})`,
        String(lost('baton')),
        String(lost('peer')),
        '',
        metOrNot(lost('baton') === 0),
      ],
      ['answers stored', `${b.stored} / ${b.chats}`, `${p.stored} / ${p.chats}`, '', ''],
      ['time to first word p50', ms(b.ttft.median, 1), ms(p.ttft.median, 1), ms(d.ttft.median, 1), ''],
      [
        'time to first word p95',
        ms(b.ttft.p95, 1),
        ms(p.ttft.p95, 1),
        ms(d.ttft.p95, 1),
        `≤ ${TARGETS.burstTtftP95Ms} ms: ${metOrNot(b.ttft.p95 <= TARGETS.burstTtftP95Ms)}`,
      ],
      [
        'added inter-word delay p50 / p95 / max',
        gap(b),
        gap(p),
        gap(d),
        `p95 ≤ ${TARGETS.addedGapP95Ms} ms: ${metOrNot(b.addedGap.p95 <= TARGETS.addedGapP95Ms)}`,
      ],
      ['words relayed', String(b.words), String(p.words), String(d.words), ''],
      ['wall time', ms(b.wallMs, 0), ms(p.wallMs, 0), ms(d.wallMs, 0), ''],
      [
        'server CPU during the burst (per word)',
        `${ms(b.cpuMs.baton!, 0)} (${us(b.batonPerTokenUs!)})`,
        `${ms(p.cpuMs.baton!, 0)} (${us(p.batonPerTokenUs!)})`,
        '',
        '',
      ],
      [
        'model process CPU / client CPU',
        `${ms(b.cpuMs.model, 0)} / ${ms(b.cpuMs.client, 0)}`,
        `${ms(p.cpuMs.model, 0)} / ${ms(p.cpuMs.client, 0)}`,
        `${ms(d.cpuMs.model, 0)} / ${ms(d.cpuMs.client, 0)}`,
        '',
      ],
      [
        "machine busy (both cores) / client's event loop busy",
        `${(100 * b.machineBusy).toFixed(0)} % / ${(100 * b.clientLoopBusy).toFixed(0)} %`,
        `${(100 * p.machineBusy).toFixed(0)} % / ${(100 * p.clientLoopBusy).toFixed(0)} %`,
        `${(100 * d.machineBusy).toFixed(0)} % / ${(100 * d.clientLoopBusy).toFixed(0)} %`,
        '',
      ],
      [
        'peak RSS during the burst / whole process',
        `${b.batonPeakMiB!.toFixed(0)} MiB / ${r.batonPeakMiB.toFixed(0)} MiB`,
        `${p.batonPeakMiB!.toFixed(0)} MiB / ${r.peerPeakMiB?.toFixed(0) ?? '?'} MiB`,
        '',
        `≤ ${TARGETS.rssMiB} MiB: ${metOrNot(r.batonPeakMiB <= TARGETS.rssMiB)}`,
      ],
      ...(r.deadlocks === undefined
        ? []
        : [['Postgres deadlocks (the whole mode, pg_stat_database)', String(r.deadlocks), '', '', `0: ${metOrNot(r.deadlocks === 0)}`]]),
      ['load average (1 min) before', b.load, p.load, d.load, ''],
    ],
  );
  printAnchor(r);
  const failures = [...new Set(b.failures)];
  if (failures.length) console.log(`   Baton stream failures (${b.failures.length}; distinct, first 3): ${failures.slice(0, 3).join(' | ')}`);
  if (d.failures.length) console.log(`   direct stream failures (${d.failures.length}): ${[...new Set(d.failures)].slice(0, 3).join(' | ')}`);
}

/** Each observability variant's CPU per relayed word against the first (everything off), measured in the same run. */
function printObservability(o: ObservabilityResult) {
  const [off] = o.figures;
  printTable(
    `What logs and metrics cost: Baton's CPU per relayed token, unpaced model, 76-word answers, 40 chats 20 at a time, median of ${o.rounds} interleaved rounds (range in brackets; load ${o.load.before} before, ${o.load.after} after)`,
    ['Baton', 'completed', 'per token', 'per turn', 'vs off', 'idle rate', '/metrics scrapes (size)'],
    o.figures.map((f) => [
      f.name,
      `${f.cpu.chats - f.cpu.failed} / ${f.cpu.chats}`,
      `${us(f.cpu.perTokenUs)} (${f.cpu.spreadUs[0].toFixed(1)}–${f.cpu.spreadUs[1].toFixed(1)})`,
      ms(f.cpu.perTurnMs),
      f === off
        ? ''
        : `${(f.cpu.perTokenUs / off!.cpu.perTokenUs).toFixed(2)}× (${f.cpu.perTokenUs >= off!.cpu.perTokenUs ? '+' : ''}${us(f.cpu.perTokenUs - off!.cpu.perTokenUs)})`,
      `${f.idleCpuMsPerS.toFixed(1)} ms/s`,
      f.scrapes ? `${f.scrapes} (${(f.scrapeBytes / 1024).toFixed(1)} KiB)` : '',
    ]),
  );
}

async function main() {
  const t0 = Date.now();
  const db = await createBenchDatabase(process.env.DATABASE_URL || undefined);
  cleanups.push(db.remove);
  // Kept after the run, to open in Chrome DevTools.
  const profileDir = process.env.BENCH_CPU_PROFILE ? resolve(process.env.BENCH_CPU_PROFILE) : undefined;
  if (profileDir) await mkdir(profileDir, { recursive: true });

  console.log(`Baton benchmark — ${new Date().toISOString()}, Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? '?'}`);
  console.log(`load average (1 min) at the start: ${load1()} (other work on the machine skews the figures)`);
  console.log(`database: ${db.label}; run events: ${process.env.REDIS_URL ? `Redis (${process.env.REDIS_URL})` : 'in-process'}`);
  console.log('processes: the demo model (standalone server), Baton (src/index.ts) and this load generator, each its own');

  const unpacedModel = await startDemoProcess(0);
  cleanups.push(() => unpacedModel.stop());
  const pacedModel = await startDemoProcess(PACED_MS);
  cleanups.push(() => pacedModel.stop());

  let floor: (SdkFloor & { load: string }) | undefined;
  if (PHASES.has('cpu')) {
    step('reference: the AI SDK alone, per word (in this process)');
    const load = load1();
    floor = { ...(await measureSdkFloor()), load };
  }

  let outbound: OutboundResult | undefined;
  if (PHASES.has('outbound')) {
    step('what the outbound guard costs a model call (guarded fetch vs Node fetch, in this process)');
    outbound = await measureOutbound(`${unpacedModel.url}/v1`);
  }

  const modes: ModeResult[] = [];
  const only = process.env.BENCH_MODES?.split(',').map((m) => m.trim());
  for (const [name, pacing, model] of [
    ['paced', PACED_MS, pacedModel],
    ['unpaced', 0, unpacedModel],
  ] as const) {
    if (only && !only.includes(name)) continue;
    // A run of other phases only (BENCH_PHASES=append,observability) starts no mode at all.
    if (!['ttft', 'cpu', 'burst'].some((p) => PHASES.has(p))) continue;
    const dir = profileDir ? await mkdtemp(join(profileDir, `${name}-`)) : undefined;
    const result = await runMode(name, pacing, model, db, dir);
    if (dir) {
      result.profile = await latestProfile(dir);
      result.peerProfile = await latestProfile(join(dir, 'peer'));
    }
    modes.push(result);
  }
  let observability: ObservabilityResult | undefined;
  if (PHASES.has('observability')) {
    step('what logs, metrics (and traces) cost per relayed token: a Baton per variant, rounds interleaved');
    observability = await measureObservability(unpacedModel, process.env.DATABASE_URL || undefined, cleanups);
  }
  await unpacedModel.stop();
  await pacedModel.stop();

  let append: Awaited<ReturnType<typeof measureAppend>> | undefined;
  if (PHASES.has('append')) {
    step('appending a turn to a 10- vs 1,000-message chat (services, in this process)');
    const handle = await db.open();
    try {
      append = await measureAppend(handle.db);
    } finally {
      await handle.close();
    }
  }

  for (const r of modes) printMode(r, floor);
  if (outbound) {
    printTable(
      `The outbound guard: first content of a model call, ${outbound.node.n} samples each, interleaved`,
      ['fetch', 'median', 'p95'],
      [
        ["Node's fetch", ms(outbound.node.median), ms(outbound.node.p95)],
        ['guarded fetch (resolve, check, connect to the checked address)', ms(outbound.guarded.median), ms(outbound.guarded.p95)],
        ['difference (medians)', ms(outbound.guarded.median - outbound.node.median), ''],
      ],
    );
  }
  if (observability) printObservability(observability);
  if (append) {
    printTable(
      `Storing one more turn (user + assistant upsertMessage), ${append.samples} samples each, after 5 warm-ups`,
      ['chat', 'median'],
      [
        [`${append.small.size} messages`, ms(append.small.median)],
        [`${append.large.size.toLocaleString('en')} messages`, ms(append.large.median)],
        [`ratio (target ≤ ${TARGETS.appendRatio}×)`, `${append.ratio.toFixed(2)}× — ${metOrNot(append.ratio <= TARGETS.appendRatio)}`],
        ['(context) loadHistory, 10 messages', ms(append.loadHistory.small)],
        ['(context) loadHistory, 1,000 messages', ms(append.loadHistory.large)],
      ],
    );
  }

  for (const r of modes) {
    if (!r.profile) continue;
    for (const w of r.windows.filter((w) => /concurrent chats|CPU per token/.test(w.name))) {
      await printProfileWindow(r.profile, w, "Baton's process");
      if (r.peerProfile) await printProfileWindow(r.peerProfile, w, "the AI SDK template's (peer) process");
    }
  }
  console.log(`\ntotal bench time: ${((Date.now() - t0) / 1000).toFixed(1)} s; load average (1 min) at the end: ${load1()}`);
  return modes.every((m) => !m.burst || m.burst.rounds.every((round) => round.baton.lost === 0)) ? 0 : 1;
}

let code = 1;
try {
  code = await main();
} catch (err) {
  console.error('bench failed:', err);
} finally {
  await cleanup();
  closeClient();
  clearTimeout(watchdog);
}
process.exitCode = code;
// Everything is closed; if a stray handle still holds the event loop, do not hang.
setTimeout(() => {
  console.error(`bench: open handles remained after cleanup (${process.getActiveResourcesInfo().join(', ')}); exiting`);
  process.exit(code);
}, 3_000).unref();
