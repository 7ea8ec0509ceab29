// `pnpm bench`: Baton's performance figures in one run (see docs/benchmarks.md).
// Demo model served standalone over HTTP with no delay; real Postgres when DATABASE_URL
// is set (a fresh database, dropped at the end), else PGlite in a temp dir (deleted).
import { cpus, loadavg } from 'node:os';
import { measureAppend } from './append';
import { measureBreakdown } from './breakdown';
import { measureConcurrency } from './concurrency';
import { measureOutbound } from './outbound';
import { startCpuProfile } from './profile';
import { openBenchDatabase, startBaton, startClient, startDemo, type BatonServer, type BenchDatabase, type DemoModel } from './setup';
import { ms, printTable } from './stats';
import { measureTtft } from './ttft';

const TTFT_TARGET_MS = 15;
const APPEND_TARGET_RATIO = 1.5;
const WATCHDOG_MS = 5 * 60_000;

const cleanups: (() => Promise<void>)[] = [];
async function cleanup() {
  // Servers first, then the database they use.
  for (const fn of cleanups.splice(0).reverse()) {
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise((r) => (timer = setTimeout(r, 10_000)));
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

const yesNo = (ok: boolean) => (ok ? 'met' : 'NOT met');

async function main() {
  const t0 = Date.now();
  const db: BenchDatabase = await openBenchDatabase(process.env.DATABASE_URL || undefined);
  cleanups.push(db.close);
  const demo: DemoModel = await startDemo();
  cleanups.push(demo.close);
  const baton: BatonServer = await startBaton(db.handle, demo);
  cleanups.push(baton.close);
  const client = await startClient();
  cleanups.push(client.terminate);
  await client.call('signIn', { origin: baton.url, cookie: baton.cookie });

  const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
  console.log(`Baton benchmark — ${new Date().toISOString()}, Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? '?'}`);
  console.log(`load average before: ${load()} (other work on the machine skews the figures)`);
  console.log(`database: ${db.label}`);
  console.log(`demo model: ${demo.baseURL} (standalone HTTP server on its own thread, delay ${demo.delayMs} ms between words); Baton: ${baton.url}`);
  if (demo.delayMs > 0) console.log('NOTE: BENCH_DEMO_DELAY_MS is set: a diagnostic run, not the standard figures (which use no delay).');

  const created = await fetch(`${baton.url}/api/workspaces/default/agents`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: baton.cookie },
    body: JSON.stringify({ name: 'Bench' }),
    signal: AbortSignal.timeout(10_000),
  });
  if (created.status !== 201 && created.status !== 200) throw new Error(`creating the agent: HTTP ${created.status} ${await created.text()}`);
  const agentId = ((await created.json()) as { id: string }).id;

  console.log('\n[1/5] time to first token …');
  const ttft = await measureTtft(client, baton, demo.baseURL, agentId);
  console.log('[2/5] where Baton spends the time before the first token …');
  const breakdown = await measureBreakdown(client, baton, db.handle, demo.baseURL, agentId);
  console.log('[3/5] 100 concurrent chats …');
  const stopProfile = await startCpuProfile();
  const conc = await measureConcurrency(client, db.handle.db, baton, agentId);
  await stopProfile();
  console.log('[4/5] appending a turn to a 10- vs 1,000-message chat …');
  const append = await measureAppend(db.handle.db);
  console.log('[5/5] the outbound guard on a model call …');
  const outbound = await measureOutbound(demo.baseURL);

  printTable(`1. Time to first token (${ttft.baton.n} sequential samples each, after 5 warm-ups)`, ['path', 'median', 'p95', 'min', 'max'], [
    ['through Baton (POST /api/workspaces/default/chat → first text-delta)', ms(ttft.baton.median), ms(ttft.baton.p95), ms(ttft.baton.min), ms(ttft.baton.max)],
    ['direct (POST /v1/chat/completions → first content chunk)', ms(ttft.direct.median), ms(ttft.direct.p95), ms(ttft.direct.min), ms(ttft.direct.max)],
    [`overhead (Baton median − direct median); target < ${TTFT_TARGET_MS} ms`, ms(ttft.overhead), '', '', yesNo(ttft.overhead < TTFT_TARGET_MS)],
  ]);

  printTable('   Breakdown of Baton\'s time to first token (probed, sequential; medians, so the parts need not add up exactly)', ['phase', 'median'], breakdown.map((b) => [b.phase, b.note ? `${ms(b.median)} (${b.note})` : ms(b.median)]));

  printTable(`2. ${conc.chats} concurrent chats (one new chat each, all POSTed at once)`, ['figure', 'value'], [
    ['streams completed', `${conc.completed} / ${conc.chats}`],
    ['messages stored (user + assistant)', `${conc.storedMessages} / ${conc.expectedMessages}`],
    ['tokens relayed (text-delta events)', String(conc.tokens)],
    ['wall time (first POST → last stream end)', ms(conc.wallMs, 0)],
    ['tokens per second relayed', conc.tokensPerSecond.toFixed(0)],
    ['wait after the last stream until all stored', ms(conc.persistWaitMs, 0)],
    ['result', conc.completed === conc.chats && conc.storedMessages === conc.expectedMessages ? 'all complete, none lost' : 'LOSSES'],
  ]);
  if (conc.failed.length) console.log(`   failures (first 3): ${conc.failed.slice(0, 3).join(' | ')}`);

  printTable(`3. Storing one more turn (user + assistant upsertMessage), ${append.samples} samples each, after 5 warm-ups`, ['chat', 'median'], [
    [`${append.small.size} messages`, ms(append.small.median)],
    [`${append.large.size.toLocaleString('en')} messages`, ms(append.large.median)],
    [`ratio (target ≤ ${APPEND_TARGET_RATIO}×)`, `${append.ratio.toFixed(2)}× — ${yesNo(append.ratio <= APPEND_TARGET_RATIO)}`],
    ['(context) loadHistory, 10 messages', ms(append.loadHistory.small)],
    ['(context) loadHistory, 1,000 messages', ms(append.loadHistory.large)],
  ]);
  printTable(`4. A model call through the outbound guard vs Node's fetch (${outbound.guarded.n} samples each, warm connections)`, ['fetch', 'median', 'p95', 'min', 'max'], [
    ["Node's fetch (POST chat/completions → first content chunk)", ms(outbound.node.median), ms(outbound.node.p95), ms(outbound.node.min), ms(outbound.node.max)],
    ['guarded fetch (undici + address check), as Baton calls models', ms(outbound.guarded.median), ms(outbound.guarded.p95), ms(outbound.guarded.min), ms(outbound.guarded.max)],
    ['difference (guarded median − Node median)', ms(outbound.guarded.median - outbound.node.median), '', '', ''],
  ]);
  console.log(`\ntotal bench time: ${((Date.now() - t0) / 1000).toFixed(1)} s; load average after: ${load()}`);

  const ok = conc.completed === conc.chats && conc.storedMessages === conc.expectedMessages;
  return ok ? 0 : 1;
}

let code = 1;
try {
  code = await main();
} catch (err) {
  console.error('bench failed:', err);
} finally {
  await cleanup();
  clearTimeout(watchdog);
}
process.exitCode = code;
// Everything is closed; if a stray handle still holds the event loop, do not hang.
setTimeout(() => {
  console.error(`bench: open handles remained after cleanup (${process.getActiveResourcesInfo().join(", ")}); exiting`);
  process.exit(code);
}, 3_000).unref();
