// Where Baton's time to first token goes: one request at a time, with probes on Baton's
// thread (probes.ts) and the client's own clock, lined up on a common time base.
import { performance } from 'node:perf_hooks';
import type { DatabaseHandle } from '../src/db/client';
import type { StreamOutcome } from './client-thread';
import { probeDatabase, probeHandler, probeModelFetch, type RequestMarks, type Span } from './probes';
import type { BatonServer } from './setup';
import { clock, median, now } from './stats';
import type { Thread } from './threads';
import { newChatBody, waitForRunEnd } from './ttft';

export interface Phase {
  phase: string;
  median: number;
  /** Shown instead of a duration (counts, per-turn figures). */
  note?: string;
}

interface Sample {
  m: RequestMarks;
  clientStart: number;
  clientFirst: number;
  runEnd: number;
  dbBefore: Span[];
  dbTurn: Span[];
}

const spanMs = (spans: Span[]) => spans.reduce((sum, s) => sum + (s.end - s.start), 0);

export async function measureBreakdown(
  client: Thread,
  baton: BatonServer,
  handle: DatabaseHandle,
  demoBaseURL: string,
  agentId: string,
  { samples = 30, warmups = 3, budgetMs = 30_000 } = {},
): Promise<Phase[]> {
  let current: RequestMarks = {};
  const handler = probeHandler(() => current);
  baton.probe = (h, req) => (req.method === 'POST' && req.url.endsWith('/chat') ? handler(h, req) : Promise.resolve(h(req)));
  baton.modelProbe = probeModelFetch(demoBaseURL, () => current);
  const db = probeDatabase(handle);
  const rows: Sample[] = [];
  const http = { baton: [] as number[], demo: [] as number[] };
  try {
    const deadline = now() + budgetMs;
    let elu = performance.eventLoopUtilization();
    let loopStart = now();
    for (let i = 0; i < warmups + samples && now() < deadline; i++) {
      if (i === warmups) {
        elu = performance.eventLoopUtilization();
        loopStart = now();
      }
      current = {};
      db.spans.length = 0;
      const body = newChatBody(agentId);
      const o = await client.call<StreamOutcome>('stream', { url: `${baton.url}/api/workspaces/default/chat`, body, kind: 'ui' });
      if (!o.ok || o.firstTokenMs === undefined) throw new Error(`breakdown: ${o.error}`);
      await waitForRunEnd(baton, body.id);
      const runEnd = clock();
      if (i < warmups) continue;
      const m = current;
      const arrive = m.arrive ?? NaN;
      const modelRequest = m.modelRequest ?? NaN;
      rows.push({
        m,
        clientStart: o.startedAt,
        clientFirst: o.startedAt + o.firstTokenMs,
        runEnd,
        dbBefore: db.spans.filter((s) => s.start >= arrive && s.start < modelRequest),
        dbTurn: db.spans.filter((s) => s.start >= arrive && s.start <= runEnd),
      });
    }
    const busy = performance.eventLoopUtilization(elu);
    const wallPerSample = (now() - loopStart) / Math.max(1, rows.length);
    // HTTP alone, no streaming and no database: Baton's health route vs the demo's model list.
    for (let i = 0; i < 20 && now() < deadline + 5_000; i++) {
      http.baton.push(await client.call<number>('get', { url: `${baton.url}/api/health` }));
      http.demo.push(await client.call<number>('get', { url: `${demoBaseURL}/models` }));
    }
    const med = (f: (s: Sample) => number) => median(rows.map(f).filter(Number.isFinite));
    const d = (a: keyof RequestMarks, b: keyof RequestMarks) => med((s) => (s.m[b] ?? NaN) - (s.m[a] ?? NaN));
    const n = rows.length || 1;
    return [
      { phase: `client → request reaches Baton's handler (HTTP in)`, median: med((s) => (s.m.arrive ?? NaN) - s.clientStart) },
      { phase: 'Baton, before calling the model (validation, DB, model resolution, streamText setup)', median: d('arrive', 'modelRequest') },
      {
        phase: '  of which database calls before the model call',
        median: med((s) => spanMs(s.dbBefore)),
        note: `${median(rows.map((s) => s.dbBefore.length))} calls`,
      },
      { phase: '  (response headers returned to the client at)', median: d('arrive', 'headers') },
      { phase: 'model call → first content from the demo model (its HTTP hop included)', median: d('modelRequest', 'modelFirstContent') },
      { phase: `model's first content → first text-delta leaves Baton (AI SDK pipeline)`, median: d('modelFirstContent', 'firstDeltaOut') },
      { phase: 'first text-delta written → client reads it (HTTP out)', median: med((s) => s.clientFirst - (s.m.firstDeltaOut ?? NaN)) },
      { phase: '= time to first token with probes (median of the sum)', median: med((s) => s.clientFirst - s.clientStart) },
      { phase: 'after the first token: until the turn is stored and ended', median: med((s) => s.runEnd - s.clientFirst) },
      { phase: 'database calls per turn (whole turn)', median: med((s) => spanMs(s.dbTurn)), note: `${median(rows.map((s) => s.dbTurn.length))} calls` },
      {
        phase: `Baton's thread busy per turn (event-loop utilisation, mean)`,
        median: busy.active / n,
        note: `${(busy.utilization * 100).toFixed(0)}% of ${wallPerSample.toFixed(1)} ms per sample`,
      },
      { phase: 'reference: GET /api/health through Baton (HTTP round trip)', median: median(http.baton) },
      { phase: 'reference: GET /v1/models on the demo model (HTTP round trip)', median: median(http.demo) },
    ];
  } finally {
    baton.probe = undefined;
    baton.modelProbe = undefined;
    db.uninstall();
  }
}
