// `pnpm bench:instructions`: Baton's and the AI SDK template's (the peer's) instructions per
// relayed word, counted by valgrind's callgrind. CPU time on a shared 2-core machine moves by
// 25 % and more between runs of the same code (docs/benchmarks.md), too much to settle a 1.2×
// target or to tell a 5 % change; an instruction count is the same run after run, whatever
// else the machine does. Both servers run under callgrind (about 60× slower), the model and
// Postgres natively; the model is paced far beyond what a word costs under valgrind, so each
// word is read, relayed and written on its own, as with a real model, whichever server is slower.
// Counts are of user-space instructions in all of a process's threads (JIT, GC and compiler
// threads included); the kernel's share (socket I/O, about a quarter of the CPU time) is not in
// them. Needs valgrind (`apt-get install -y valgrind`) and Postgres (DATABASE_URL, else the
// machine's own at 127.0.0.1:5432).
import { execFile } from 'node:child_process';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { batonChat, LONG_PROMPT, STANDARD_PROMPT, type Target } from './chats';
import { createBenchDatabase } from './database';
import { closeClient, inPool, requestJson, signInBench } from './http-client';
import { startBatonProcess, startDemoProcess, startPeerProcess, type ServerProcess } from './processes';
import { printTable } from './stats';
import { DEFAULT_RUN_TIMINGS } from '../src/agent/runs/run-maintenance';

const run = promisify(execFile);
/** Between words: well above what a word costs a server under callgrind (~30 ms), so words never pile up. */
const PACING_MS = Number(process.env.BENCH_INSTR_PACING_MS ?? 150);
const CHATS = Number(process.env.BENCH_INSTR_CHATS ?? 6);
const CONCURRENCY = 2;
const WARMUP_CHATS = Number(process.env.BENCH_INSTR_WARMUP ?? 10);
/**
 * Baton's timers (mid-answer snapshots, heartbeats) run by the clock, and under callgrind a
 * word takes the model PACING_MS instead of the ~20 ms of the CPU bench (docs/benchmarks.md §2):
 * stretched by the same factor, they do per word what they do at 20 ms a word.
 */
const TIME_SCALE = PACING_MS / 20;
const scaled = (ms: number) => String(Math.round(ms * TIME_SCALE));
const IDLE_MS = 20_000;

const outDir = join(tmpdir(), `baton-instructions-${process.pid}`);
const callgrind = (name: string) => [
  'valgrind',
  '--tool=callgrind',
  '--instr-atstart=no',
  '--dump-instr=no',
  `--callgrind-out-file=${join(outDir, `${name}.%p`)}`,
];

/**
 * Runs a callgrind_control command on `server` and returns its output. Callgrind reads the
 * command while the process runs code; an idle server is woken with health requests until it has.
 */
async function control(server: ServerProcess, args: string[]): Promise<string> {
  let done = false;
  const poke = (async () => {
    while (!done) {
      await fetch(`${server.url}/api/health`).catch(() => {});
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  try {
    return (await run('callgrind_control', [...args, String(server.pid)], { timeout: 120_000 })).stdout;
  } finally {
    done = true;
    await poke;
  }
}

/** What a count is made of: V8's garbage collector, its compilers, and the program itself (the rest). */
interface Split {
  total: number;
  gc: number;
  compile: number;
  program: number;
}

const GC = /Mark|Sweep|Scaveng|Evacuat|Heap|RememberedSet|MemoryChunk|ActiveSystemPages|SlotSet|IteratePointers|SizeFromMap|popcount|Compactor|cppgc/;
const COMPILE = /compiler::|maglev|turboshaft|Compil|Parser|Scanner|interpreter::/;

/**
 * Splits a dump by function (callgrind_annotate). GC and compilation are real costs, but when
 * they run depends on timing (a major GC, a function's turn to be optimised), so they move a
 * lot between runs of the same code; the program's own instructions are what stays comparable.
 */
async function splitDump(file: string): Promise<Split> {
  const { stdout } = await run('callgrind_annotate', ['--inclusive=no', '--threshold=100', file], { maxBuffer: 256 * 1024 * 1024 });
  const split: Split = { total: 0, gc: 0, compile: 0, program: 0 };
  for (const line of stdout.split('\n')) {
    const m = /^\s*([\d,]+)\s+\([\s\d.]+%\)\s+(.*)$/.exec(line);
    if (!m) continue;
    const n = Number(m[1]!.replaceAll(',', ''));
    const name = m[2]!;
    if (name.includes('PROGRAM TOTALS')) split.total = n;
    else if (GC.test(name)) split.gc += n;
    else if (COMPILE.test(name)) split.compile += n;
  }
  split.program = split.total - split.gc - split.compile;
  return split;
}

/** Instructions the process executes while `fn` runs (instrumentation on for just that long). */
async function countInstructions(server: ServerProcess, fn: () => Promise<unknown>): Promise<Split> {
  await control(server, ['--instr=on']);
  await control(server, ['--zero']);
  await fn();
  await control(server, ['--dump']);
  await control(server, ['--instr=off']);
  // Each dump is a file of its own (…<pid>.1, .2, …): the newest holds what ran since the zero.
  const dumps = (await readdir(outDir)).filter((f) => f.includes(`.${server.pid}.`));
  const newest = dumps.sort((a, b) => Number(a.split('.').at(-1)) - Number(b.split('.').at(-1))).at(-1);
  if (!newest) throw new Error(`no callgrind dump for ${server.name} in ${outDir}`);
  return splitDump(join(outDir, newest));
}

interface Figure {
  words: number;
  chats: number;
  /** Instructions by part, the idle rate over the phase's wall time subtracted. */
  split: Split;
}

async function chats(t: Target, prompt: string, count: number): Promise<{ words: number; chats: number }> {
  const results = await inPool(Array.from({ length: count }), CONCURRENCY, () => batonChat(t, prompt, { timeoutMs: 600_000 }));
  const failed = results.filter((r) => !r.ok);
  if (failed.length > 0) throw new Error(`${failed.length} chats failed: ${failed[0]!.error}`);
  return { words: results.reduce((n, r) => n + r.words, 0), chats: count };
}

const PARTS = ['total', 'gc', 'compile', 'program'] as const;

async function measure(server: ServerProcess, t: Target): Promise<{ standard: Figure; long: Figure; idlePerS: number }> {
  console.log(`  ${server.name}: warming up (${WARMUP_CHATS} chats)`);
  await chats(t, STANDARD_PROMPT, WARMUP_CHATS);
  console.log(`  ${server.name}: idle for ${IDLE_MS / 1000} s`);
  const idle = await countInstructions(server, () => new Promise((r) => setTimeout(r, IDLE_MS)));
  const figure = async (prompt: string): Promise<Figure> => {
    const started = Date.now();
    let done = { words: 0, chats: 0 };
    const counted = await countInstructions(server, async () => (done = await chats(t, prompt, CHATS)));
    // The idle rate (timers, health pokes) over the phase's wall time is not the words' cost.
    const share = (Date.now() - started) / IDLE_MS;
    const split = Object.fromEntries(PARTS.map((k) => [k, counted[k] - idle[k] * share])) as unknown as Split;
    return { ...done, split };
  };
  console.log(`  ${server.name}: ${CHATS} chats of 76 words, ${CONCURRENCY} at a time`);
  const standard = await figure(STANDARD_PROMPT);
  console.log(`  ${server.name}: ${CHATS} chats of 158 words`);
  const long = await figure(LONG_PROMPT);
  return { standard, long, idlePerS: idle.total / (IDLE_MS / 1000) };
}

type Part = (typeof PARTS)[number];
const perWord = (f: Figure, k: Part) => f.split[k] / f.words;
/** One more word: the difference between long and short answers, per word. */
const marginal = (s: Figure, l: Figure, k: Part) => (l.split[k] / l.chats - s.split[k] / s.chats) / (l.words / l.chats - s.words / s.chats);
const perTurnBesidesWords = (f: Figure, m: number, k: Part) => f.split[k] / f.chats - m * (f.words / f.chats);

async function main() {
  await run('valgrind', ['--version']).catch(() => {
    throw new Error('valgrind is not installed: apt-get install -y valgrind');
  });
  await mkdir(outDir, { recursive: true });
  const db = await createBenchDatabase(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  const model = await startDemoProcess(PACING_MS);
  const servers: ServerProcess[] = [];
  try {
    console.log(`Instructions per relayed word — ${new Date().toISOString()}, Node ${process.version}, model paced at ${PACING_MS} ms`);
    const baton = await startBatonProcess({
      database: db.env,
      demoBaseURL: `${model.url}/v1`,
      wrap: callgrind('baton'),
      env: {
        BATON_RUN_SNAPSHOT_MS: scaled(DEFAULT_RUN_TIMINGS.snapshotMs),
        BATON_RUN_HEARTBEAT_MS: scaled(DEFAULT_RUN_TIMINGS.heartbeatMs),
        BATON_RUN_STALE_AFTER_MS: scaled(DEFAULT_RUN_TIMINGS.staleAfterMs),
        BATON_RUN_SWEEP_MS: scaled(DEFAULT_RUN_TIMINGS.sweepMs),
      },
    });
    servers.push(baton);
    await signInBench(baton.url);
    const created = await requestJson('POST', `${baton.url}/api/workspaces/default/agents`, { name: 'Bench (instructions)' }, 120_000);
    if (created.status !== 201) throw new Error(`creating the agent: HTTP ${created.status} ${JSON.stringify(created.json)}`);
    const t: Target = { batonUrl: baton.url, demoUrl: model.url, agentId: created.json.id };
    const b = await measure(baton, t);
    await baton.stop();
    const peer = await startPeerProcess(`${model.url}/v1`, db.env, undefined, callgrind('peer'));
    servers.push(peer);
    const p = await measure(peer, { ...t, batonUrl: peer.url });
    await peer.stop();

    const m = (n: number) => `${(n / 1e6).toFixed(2)} M`;
    const k = (n: number) => `${(n / 1e3).toFixed(0)} k`;
    const ratio = (x: number, y: number) => `${(x / y).toFixed(2)}×`;
    const rows = (part: Part, label: string) => {
      const mb = marginal(b.standard, b.long, part);
      const mp = marginal(p.standard, p.long, part);
      const tb = perTurnBesidesWords(b.standard, mb, part);
      const tp = perTurnBesidesWords(p.standard, mp, part);
      return [
        [
          `${label}: per relayed word, 76-word answers`,
          k(perWord(b.standard, part)),
          k(perWord(p.standard, part)),
          ratio(perWord(b.standard, part), perWord(p.standard, part)),
        ],
        [
          `${label}: per relayed word, 158-word answers`,
          k(perWord(b.long, part)),
          k(perWord(p.long, part)),
          ratio(perWord(b.long, part), perWord(p.long, part)),
        ],
        [`${label}: of which one more word`, k(mb), k(mp), ratio(mb, mp)],
        [`${label}: of which a turn besides its words`, m(tb), m(tp), ratio(tb, tp)],
      ];
    };
    printTable(
      'Instructions (callgrind, user space, all threads), idle rate subtracted',
      ['figure', 'Baton', 'peer', 'ratio'],
      [
        ...rows('program', 'program (all but GC and compilers)'),
        ...rows('total', 'all'),
        [
          'GC per relayed word, 76 / 158 words',
          `${k(perWord(b.standard, 'gc'))} / ${k(perWord(b.long, 'gc'))}`,
          `${k(perWord(p.standard, 'gc'))} / ${k(perWord(p.long, 'gc'))}`,
          '',
        ],
        [
          'compilers per relayed word, 76 / 158 words',
          `${k(perWord(b.standard, 'compile'))} / ${k(perWord(b.long, 'compile'))}`,
          `${k(perWord(p.standard, 'compile'))} / ${k(perWord(p.long, 'compile'))}`,
          '',
        ],
        ['idle, per second', k(b.idlePerS), k(p.idlePerS), ''],
        ['words counted (76 / 158)', `${b.standard.words} / ${b.long.words}`, `${p.standard.words} / ${p.long.words}`, ''],
      ],
    );
  } finally {
    for (const s of servers) await s.stop().catch(() => {});
    await model.stop();
    await db.remove();
    closeClient();
    // BENCH_INSTR_KEEP: the dumps stay, for callgrind_annotate (functions by cost).
    if (process.env.BENCH_INSTR_KEEP) console.log(`callgrind dumps kept in ${outDir}`);
    else await rm(outDir, { recursive: true, force: true });
  }
}

await main().catch(async (err) => {
  console.error(err);
  process.exitCode = 1;
});
