// `pnpm --filter @baton/backend bench:tracing` (see docs/tracing.md#cost): Baton's CPU per
// relayed token with tracing off and on (every span exported over OTLP/HTTP protobuf to a
// receiver in this process that reads and drops them), the same demo model, database and
// load; off and on alternate, so a busy machine weighs on both alike. Real Postgres when
// DATABASE_URL is set (a fresh database, dropped at the end), else PGlite in a temp dir.
import { STANDARD_PROMPT, type Target } from './chats';
import { idleCpuRate, measureCpu } from './cpu';
import { createBenchDatabase } from './database';
import { startOtlpSink } from './otlp-sink';
import { closeClient, requestJson, signInBench } from './http-client';
import { startBatonProcess, startDemoProcess } from './processes';
import { median, printTable } from './stats';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const CHATS = 40;

async function main() {
  const sink = await startOtlpSink();
  const sinkUrl = sink.url;
  const database = await createBenchDatabase(process.env.DATABASE_URL);
  const model = await startDemoProcess(0);
  const perToken: Record<'off' | 'on', number[]> = { off: [], on: [] };
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (const variant of ['off', 'on'] as const) {
        const env = variant === 'on' ? { OTEL_EXPORTER_OTLP_ENDPOINT: sinkUrl, OTEL_BSP_SCHEDULE_DELAY: '200' } : {};
        const baton = await startBatonProcess({ database: database.env, demoBaseURL: `${model.url}/v1`, env });
        try {
          await signInBench(baton.url);
          const agent = await requestJson('POST', `${baton.url}/api/workspaces/default/agents`, { name: `Tracing ${variant} ${round}` });
          const t: Target = { batonUrl: baton.url, demoUrl: model.url, agentId: agent.json.id };
          // Warm (compiler threads settle), then the idle rate, then the measure.
          await measureCpu(t, baton, STANDARD_PROMPT, 0, { chats: 20 });
          const idle = await idleCpuRate(baton);
          const r = await measureCpu(t, baton, STANDARD_PROMPT, idle, { chats: CHATS });
          if (r.failed > 0) throw new Error(`${r.failed} of ${r.chats} chats failed (tracing ${variant})`);
          perToken[variant].push(r.perTokenUs);
          console.log(`round ${round + 1}, tracing ${variant}: ${r.perTokenUs.toFixed(1)} µs per token`);
        } finally {
          await baton.stop();
        }
      }
    }
  } finally {
    await model.stop();
    await database.remove();
    await sink.stop();
    closeClient();
  }
  const off = median(perToken.off);
  const on = median(perToken.on);
  printTable(
    'Baton’s CPU per relayed token, tracing off and on (76-word answers, unpaced demo model, 20 at a time)',
    ['tracing', 'CPU per token (median)', 'rounds'],
    [
      ['off (no endpoint)', `${off.toFixed(1)} µs`, perToken.off.map((x) => x.toFixed(1)).join(', ')],
      [
        'on (OTLP http/protobuf, every span exported)',
        `${on.toFixed(1)} µs (+${(on - off).toFixed(1)} µs, ${((100 * (on - off)) / off).toFixed(0)} %)`,
        perToken.on.map((x) => x.toFixed(1)).join(', '),
      ],
    ],
  );
  console.log(`${(sink.receivedBytes() / 1024).toFixed(0)} KiB of spans received`);
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
