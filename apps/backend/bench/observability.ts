// 7. What logging, metrics and tracing cost per relayed token (issue 23): Baton started once
// per variant of its observability settings, each on a database of its own and the same
// unpaced demo model, all running at once; CPU per relayed word in rounds that interleave the
// variants, so what else the machine does weighs on each alike.
import { STANDARD_PROMPT, type Target } from './chats';
import { type CpuFigure, type CpuResult, idleCpuRate, measureCpu, medianRound } from './cpu';
import { createServer } from 'node:net';
import { once } from 'node:events';
import { createBenchDatabase } from './database';
import { requestJson, signInBench, useApiKey } from './http-client';
import { load1 } from './machine';
import { startOtlpSink } from './otlp-sink';
import { startBatonProcess, type ServerProcess } from './processes';
import { sleep } from './stats';

type Env = Record<string, string | undefined>;

/** A loopback port nothing listens on now: a quiet Baton (warn-level log) does not print the one it took. */
async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

export interface ObservabilityVariant {
  name: string;
  /** Baton's environment for this variant (an undefined value removes the variable). */
  env: Env;
  /** Scrape GET /metrics every second, with this token, while the variant is measured. */
  scrapeToken?: string;
  /** What the variant needs besides Baton (an OTLP receiver, …): started first, its environment added to Baton's. */
  setup?: () => Promise<{ env: Env; stop: () => Promise<void> }>;
}

const METRICS_TOKEN = 'bench-metrics-token-7c2f1e9a40';
/** Everything off: warnings and errors only, no metrics, no traces (whatever the bench's own environment says). */
const OFF: Env = { BATON_LOG_LEVEL: 'warn', BATON_LOG_FORMAT: undefined, BATON_METRICS_TOKEN: undefined, OTEL_EXPORTER_OTLP_ENDPOINT: undefined };
/** What an operator runs: a line per request and per run start and end, metrics on and scraped. */
const ON: Env = { ...OFF, BATON_LOG_LEVEL: 'info', BATON_METRICS_TOKEN: METRICS_TOKEN };

/** The variants, the first being the baseline the others are compared with. */
export const OBSERVABILITY_VARIANTS: ObservabilityVariant[] = [
  { name: 'off (warn-level logs, no metrics)', env: OFF },
  { name: 'on (info logs, metrics scraped every second)', env: ON, scrapeToken: METRICS_TOKEN },
  {
    name: 'on + traces (every span exported over OTLP/HTTP protobuf)',
    env: ON,
    scrapeToken: METRICS_TOKEN,
    setup: async () => {
      const sink = await startOtlpSink();
      return { env: { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, OTEL_BSP_SCHEDULE_DELAY: '200' }, stop: sink.stop };
    },
  },
];

export interface ObservabilityFigure {
  name: string;
  cpu: CpuFigure;
  idleCpuMsPerS: number;
  scrapes: number;
  /** Size of the last scrape's text. */
  scrapeBytes: number;
}

export interface ObservabilityResult {
  rounds: number;
  figures: ObservabilityFigure[];
  load: { before: string; after: string };
}

/** GETs /metrics every `everyMs` until stopped; counts the answers. */
function startScraper(batonUrl: string, token: string, everyMs = 1_000) {
  let stopped = false;
  let count = 0;
  let bytes = 0;
  const loop = (async () => {
    while (!stopped) {
      const res = await fetch(`${batonUrl}/metrics`, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(5_000) });
      if (res.status !== 200) throw new Error(`scraping /metrics: HTTP ${res.status}`);
      bytes = (await res.text()).length;
      count++;
      await sleep(everyMs);
    }
  })();
  return async () => {
    stopped = true;
    await loop;
    return { count, bytes };
  };
}

interface Running {
  variant: ObservabilityVariant;
  baton: ServerProcess;
  target: Target;
  apiKey: string;
  idle: number;
  rounds: CpuResult[];
  scrapes: number;
  scrapeBytes: number;
}

/**
 * Starts a Baton per variant (fresh database each: a new one on the Postgres of `databaseUrl`,
 * else a PGlite directory), warms each up with 20 chats, measures its idle rate, then runs
 * `rounds` rounds of 40 chats (76-word answers, 20 at a time) on each, alternating the order.
 * Everything started here is stopped and removed before it returns (and registered in `cleanups`
 * in case the run is interrupted).
 */
export async function measureObservability(
  model: ServerProcess,
  databaseUrl: string | undefined,
  cleanups: (() => Promise<unknown>)[],
  { rounds = Number(process.env.BENCH_OBS_ROUNDS ?? 5), variants = OBSERVABILITY_VARIANTS } = {},
): Promise<ObservabilityResult> {
  const before = load1();
  const stops: (() => Promise<unknown>)[] = [];
  const owned = (stop: () => Promise<unknown>) => {
    stops.push(stop);
    cleanups.push(stop);
  };
  const running: Running[] = [];
  try {
    for (const variant of variants) {
      const extra = variant.setup ? await variant.setup() : undefined;
      if (extra) owned(extra.stop);
      const db = await createBenchDatabase(databaseUrl);
      owned(db.remove);
      const baton = await startBatonProcess({
        database: db.env,
        demoBaseURL: `${model.url}/v1`,
        redisUrl: process.env.REDIS_URL || undefined,
        env: { ...variant.env, ...extra?.env },
        port: await freePort(),
      });
      owned(() => baton.stop());
      const apiKey = await signInBench(baton.url);
      const created = await requestJson('POST', `${baton.url}/api/workspaces/default/agents`, { name: 'Bench (observability)' });
      if (created.status !== 201) throw new Error(`creating the agent: HTTP ${created.status} ${JSON.stringify(created.json)}`);
      const target = { batonUrl: baton.url, demoUrl: model.url, agentId: created.json.id as string };
      // Warm, like the other CPU figures: the compiler threads settle on the first turns.
      await measureCpu(target, baton, STANDARD_PROMPT, 0, { chats: 20 });
      running.push({ variant, baton, target, apiKey, idle: 0, rounds: [], scrapes: 0, scrapeBytes: 0 });
    }
    for (const r of running) r.idle = await idleCpuRate(r.baton);
    for (let i = 0; i < rounds; i++) {
      for (const r of i % 2 === 0 ? running : [...running].reverse()) {
        useApiKey(r.apiKey);
        const stopScraper = r.variant.scrapeToken ? startScraper(r.baton.url, r.variant.scrapeToken) : undefined;
        r.rounds.push(await measureCpu(r.target, r.baton, STANDARD_PROMPT, r.idle));
        const scraped = await stopScraper?.();
        r.scrapes += scraped?.count ?? 0;
        r.scrapeBytes = scraped?.bytes ?? r.scrapeBytes;
      }
    }
    return {
      rounds,
      figures: running.map((r) => ({
        name: r.variant.name,
        cpu: medianRound(r.rounds),
        idleCpuMsPerS: r.idle,
        scrapes: r.scrapes,
        scrapeBytes: r.scrapeBytes,
      })),
      load: { before, after: load1() },
    };
  } catch (err) {
    for (const r of running) console.error(`Baton (${r.variant.name}) output (tail):\n${r.baton.output().slice(-2000)}`);
    throw err;
  } finally {
    for (const stop of stops.reverse()) await stop().catch((err) => console.error('observability cleanup:', err));
  }
}
