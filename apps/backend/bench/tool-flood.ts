// `pnpm --filter @baton/backend bench:tool-flood` (see docs/benchmarks.md): how long Baton's
// event loop is held while it runs a turn whose model response has 1,000 tool calls, next to
// the same measure, in the same run and process, during a plain answer of about as many
// streamed events. Baton runs in this process (createApp + a real socket) so that
// `monitorEventLoopDelay` sees its loop; the providers are simulators in their own processes,
// so their work is not counted. Real Postgres when DATABASE_URL is set (a fresh database,
// dropped at the end), else PGlite in a temp dir — which runs inside this process, and whose
// queries hold the loop too.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { serve } from '@hono/node-server';
import { createApp } from '../src/app';
import { DEFAULT_PROVIDER_LIMITS } from '../src/agent/provider-limits';
import { createOutbound } from '../src/outbound/guarded-fetch';
import { Secrets } from '../src/secrets/secrets';
import { createBenchDatabase } from './database';
import { closeClient, requestJson, signInBench } from './http-client';
import { load1 } from './machine';
import { startProviderSimProcess, type ServerProcess } from './processes';
import { median, ms, now, printTable, sleep } from './stats';

const CALLS = 1_000;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const TURN_TIMEOUT_MS = 10 * 60_000;

interface Sample {
  kind: string;
  turnMs: number;
  delayP99Ms: number;
  delayMaxMs: number;
  healthChecks: number;
  healthMaxMs: number;
}

const cleanups: (() => Promise<unknown>)[] = [];
async function cleanup() {
  for (const fn of cleanups.splice(0).reverse()) await fn().catch((err) => console.error('cleanup:', err));
}
process.once('SIGINT', () => void cleanup().finally(() => process.exit(130)));

async function main() {
  const database = await createBenchDatabase(process.env.DATABASE_URL);
  cleanups.push(() => database.remove());
  const handle = await database.open();
  cleanups.push(() => handle.close());
  const flood = await startProviderSimProcess({ toolCallFlood: { count: CALLS } }, 0);
  cleanups.push(() => flood.stop());
  // The reference: a plain answer in 2,000 deltas, about as many events as the flood's response.
  const plain = await startProviderSimProcess({ longAnswer: { chars: 2 * CALLS * 20, chunkChars: 20 } }, 0);
  cleanups.push(() => plain.stop());

  const app = createApp({
    db: handle.db,
    databaseKind: handle.kind,
    secrets: Secrets.random(),
    outbound: createOutbound({ allowPrivateAddresses: true }),
    providerLimits: DEFAULT_PROVIDER_LIMITS,
    auth: { secret: 'baton-bench-secret-0123456789abcdef', openSignup: false, signInAttemptsPerMinute: 1_000 },
  });
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await signInBench(url);
  const ws = `${url}/api/workspaces/default`;

  const agentOn = async (sim: ServerProcess, name: string, toolIds: string[]) => {
    const provider = await requestJson('POST', `${ws}/providers`, { name, baseUrl: `${sim.url}/v1`, apiKey: null, modelIds: ['sim-model'] });
    if (provider.status !== 201) throw new Error(`creating provider ${name}: HTTP ${provider.status}`);
    const agent = await requestJson('POST', `${ws}/agents`, { name, description: name, providerId: provider.json.id, modelId: 'sim-model', toolIds });
    if (agent.status !== 201) throw new Error(`creating agent ${name}: HTTP ${agent.status}`);
    return agent.json.id as string;
  };
  const kinds = [
    { kind: `${CALLS.toLocaleString('en-US')} tool calls`, agentId: await agentOn(flood, 'Flood', ['currentTime']) },
    { kind: 'plain answer (reference)', agentId: await agentOn(plain, 'Plain', []) },
  ];

  const turn = async (kind: string, agentId: string): Promise<Sample> => {
    const chat = await requestJson('POST', `${ws}/chats`, { agentId });
    const delay = monitorEventLoopDelay({ resolution: 1 });
    let done = false;
    let healthChecks = 0;
    let healthMaxMs = 0;
    // /api/health asked over the socket every 20 ms while the turn runs: what a load balancer sees.
    const health = (async () => {
      while (!done) {
        const started = now();
        const res = await requestJson('GET', `${url}/api/health`, undefined, TURN_TIMEOUT_MS);
        if (res.status !== 200) throw new Error(`health: HTTP ${res.status}`);
        healthChecks++;
        healthMaxMs = Math.max(healthMaxMs, now() - started);
        await sleep(20);
      }
    })();
    // BENCH_CPU_PROFILE=<file>: a V8 CPU profile of this process during each flood turn (the last one is kept).
    const profiling = process.env.BENCH_CPU_PROFILE && kind === kinds[0]!.kind ? new Session() : undefined;
    if (profiling) {
      profiling.connect();
      await profiling.post('Profiler.enable');
      await profiling.post('Profiler.start');
    }
    delay.enable();
    const started = now();
    const res = await requestJson('POST', `${ws}/chats/${chat.json.id}/messages`, { text: 'What time is it? Ask a lot.' }, TURN_TIMEOUT_MS);
    const turnMs = now() - started;
    delay.disable();
    if (profiling) {
      writeFileSync(process.env.BENCH_CPU_PROFILE!, JSON.stringify((await profiling.post('Profiler.stop')).profile));
      profiling.disconnect();
    }
    done = true;
    await health;
    if (res.status !== 200 || res.json.error) throw new Error(`${kind}: HTTP ${res.status} ${JSON.stringify(res.json.error ?? '')}`);
    const parts = res.json.messages.at(-1).parts as { type: string; state?: string }[];
    const refused = parts.filter((p) => p.state === 'output-error').length;
    if (kind !== kinds[1]!.kind && refused !== CALLS - DEFAULT_PROVIDER_LIMITS.maxToolCallsPerStep) throw new Error(`${kind}: ${refused} calls refused`);
    return { kind, turnMs, delayP99Ms: delay.percentile(99) / 1e6, delayMaxMs: delay.max / 1e6, healthChecks, healthMaxMs };
  };

  console.log(`Database: ${database.label}; load before: ${load1()}`);
  // A warm-up of each, then rounds alternating which goes first.
  for (const k of kinds) await turn(k.kind, k.agentId);
  const samples: Sample[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? kinds : [...kinds].reverse();
    for (const k of order) samples.push(await turn(k.kind, k.agentId));
  }
  const rows = kinds.map(({ kind }) => {
    const of = samples.filter((s) => s.kind === kind);
    const worst = (f: (s: Sample) => number) => Math.max(...of.map(f));
    return [
      kind,
      ms(median(of.map((s) => s.turnMs)), 0),
      ms(median(of.map((s) => s.delayP99Ms)), 1),
      ms(
        worst((s) => s.delayMaxMs),
        1,
      ),
      String(Math.round(median(of.map((s) => s.healthChecks)))),
      ms(
        worst((s) => s.healthMaxMs),
        1,
      ),
    ];
  });
  printTable(
    `Event-loop delay during one turn (${ROUNDS} rounds; medians, and the worst max)`,
    ['turn', 'duration', 'loop delay p99', 'loop delay max', 'health checks', 'slowest health'],
    rows,
  );
  console.log(`Load after: ${load1()}`);
}

try {
  await main();
} finally {
  closeClient();
  await cleanup();
}
