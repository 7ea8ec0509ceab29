import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/*
 * The backend's Prometheus metrics (GET /metrics, routes/metrics.ts): one registry, owned here,
 * and one small function per place that reports (the request log, a run's start and end, an
 * MCP call, a delegation's end, the Redis event log). Everything is a no-op until
 * `enableMetrics` runs (BATON_METRICS_TOKEN set), so a backend without metrics pays nothing.
 *
 * Labels carry only bounded values: route patterns (never a path), status codes, enumerations,
 * and names an operator would chart (a provider's host, a model id, an MCP server) capped at
 * MAX_NAMED values each — a workspace member who adds providers or servers in a loop cannot
 * grow the series without end. Never an id, a key, a prompt or a text.
 * Nothing here runs per token except `eventLogWritten` (a counter test and, for a sampled
 * event, a timestamp): histograms are observed per request, per run and per sampled event.
 */

const registry = new Registry();
let enabled = false;

/** Later values of one named label (beyond this many distinct ones) are reported as `other`. */
export const MAX_NAMED = 50;
const OTHER = 'other';

/** The first `max` distinct values of a label as they are (cut to 64 characters); every later one as `other`. */
class BoundedLabel {
  private readonly seen = new Set<string>();
  constructor(private readonly max = MAX_NAMED) {}
  of(value: string): string {
    const v = value.slice(0, 64) || 'unknown';
    if (this.seen.has(v)) return v;
    if (this.seen.size >= this.max) return OTHER;
    this.seen.add(v);
    return v;
  }
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const SECONDS_FAST = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const SECONDS_SLOW = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 900];

const httpRequests = new Counter({
  name: 'baton_http_requests_total',
  help: 'HTTP requests answered, by method, route pattern and status code',
  labelNames: ['method', 'route', 'status'],
  registers: [registry],
});
const httpDuration = new Histogram({
  name: 'baton_http_request_duration_seconds',
  help: 'Time until the response started (a stream goes on after that), by method, route pattern and status code',
  labelNames: ['method', 'route', 'status'],
  buckets: SECONDS_FAST,
  registers: [registry],
});

export type RunKind = 'browser' | 'rest' | 'v1' | 'sub_agent';
const activeRuns: Record<RunKind, number> = { browser: 0, rest: 0, v1: 0, sub_agent: 0 };
new Gauge({
  name: 'baton_runs_active',
  help: 'Runs (answers being written) executing in this process, by kind',
  labelNames: ['kind'],
  registers: [registry],
  // Read at scrape time: starting and ending a run only moves a number.
  collect() {
    for (const [kind, n] of Object.entries(activeRuns)) this.set({ kind }, n);
  },
});
const runsStarted = new Counter({ name: 'baton_runs_started_total', help: 'Runs started, by kind', labelNames: ['kind'], registers: [registry] });
const runsEnded = new Counter({
  name: 'baton_runs_ended_total',
  help: 'Runs ended, by kind and status (succeeded, failed, cancelled, interrupted, awaiting_approval)',
  labelNames: ['kind', 'status'],
  registers: [registry],
});
const firstToken = new Histogram({
  name: 'baton_run_first_token_seconds',
  help: 'From a run’s start to its first relayed token (text, reasoning or a tool call), by kind',
  labelNames: ['kind'],
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 60],
  registers: [registry],
});
const runDuration = new Histogram({
  name: 'baton_run_duration_seconds',
  help: 'From a run’s start to its stored end, by kind and status',
  labelNames: ['kind', 'status'],
  buckets: SECONDS_SLOW,
  registers: [registry],
});
const tokens = new Counter({
  name: 'baton_tokens_total',
  help: 'Model tokens of ended runs, by direction (input, output), provider (the API’s host) and model',
  labelNames: ['direction', 'provider', 'model'],
  registers: [registry],
});
const providers = new BoundedLabel();
const models = new BoundedLabel();
const delegations = new Counter({
  name: 'baton_delegations_total',
  help: 'Delegated tasks (sub-agent runs) ended, by outcome and depth (1: a top-level chat’s sub-agent)',
  labelNames: ['outcome', 'depth'],
  registers: [registry],
});
const delegationsRefused = new Counter({
  name: 'baton_delegations_refused_total',
  help: 'Delegated tasks that never ran, by reason (rules: refused by the delegation rules or limits; rejected: a person rejected it; failed: its sub-chat could not be started)',
  labelNames: ['reason'],
  registers: [registry],
});
const mcpCalls = new Counter({
  name: 'baton_mcp_calls_total',
  help: 'MCP tool calls, by server and result (ok, error: the tool said so, timeout, failed: the server broke off, cancelled)',
  labelNames: ['server', 'result'],
  registers: [registry],
});
const mcpServers = new BoundedLabel();
const eventLogLag = new Histogram({
  name: 'baton_run_event_log_lag_seconds',
  help: 'Redis event log: from a run event’s write to Redis acknowledging it (sampled: a run’s first event, every 50th, its end)',
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5],
  registers: [registry],
});
const eventLogErrors = new Counter({
  name: 'baton_run_event_log_errors_total',
  help: 'Redis event log writes that failed',
  registers: [registry],
});

/** Turns the metrics on for this process (BATON_METRICS_TOKEN is set); the Node.js process metrics come with them. */
export function enableMetrics(): void {
  if (enabled) return;
  enabled = true;
  // The event-loop delay is sampled every 100 ms, not prom-client's 10 ms: a hundred wake-ups a
  // second showed as idle CPU in the bench, and a scrape every 15 s needs no finer samples.
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 100 });
}

export const metricsEnabled = () => enabled;

/** The text Prometheus scrapes, and its content type. */
export async function metricsText(): Promise<{ body: string; contentType: string }> {
  return { body: await registry.metrics(), contentType: registry.contentType };
}

/** One answered request (http/request-log.ts): `route` is the matched pattern, never the path. */
export function requestServed(method: string, route: string, status: number, seconds: number): void {
  if (!enabled) return;
  const labels = { method: METHODS.has(method) ? method : OTHER, route, status: String(status) };
  httpRequests.inc(labels);
  httpDuration.observe(labels, seconds);
}

/** Which way a run was asked for: the browser's chat, the REST API, the OpenAI-compatible `/v1` API, or a sub-agent's task. */
export function runKindOf(run: { kind: 'turn' | 'sub_agent'; mode: 'client' | 'server' }, viaV1: boolean): RunKind {
  if (run.kind === 'sub_agent') return 'sub_agent';
  if (run.mode === 'client') return 'browser';
  return viaV1 ? 'v1' : 'rest';
}

/** What a run reports as it goes (execute-run.ts): made when it starts; `ended` counts once. */
export interface RunMeter {
  firstToken(): void;
  ended(status: string, usage?: { inputTokens?: number; outputTokens?: number }, model?: ModelLabels, delegation?: { outcome: string; depth: number }): void;
}

/** The model a run's tokens are counted under: the provider's host (or `demo`) and the model id. */
export interface ModelLabels {
  provider: string;
  model: string;
}

const NO_METER: RunMeter = { firstToken: () => {}, ended: () => {} };

export function runStarted(kind: RunKind): RunMeter {
  if (!enabled) return NO_METER;
  const started = performance.now();
  activeRuns[kind]++;
  runsStarted.inc({ kind });
  let sawToken = false;
  let done = false;
  return {
    firstToken() {
      if (sawToken) return;
      sawToken = true;
      firstToken.observe({ kind }, (performance.now() - started) / 1000);
    },
    ended(status, usage, model, delegation) {
      if (done) return;
      done = true;
      activeRuns[kind]--;
      runsEnded.inc({ kind, status });
      runDuration.observe({ kind, status }, (performance.now() - started) / 1000);
      if (model && usage) {
        const labels = { provider: providers.of(model.provider), model: models.of(model.model) };
        if (usage.inputTokens) tokens.inc({ direction: 'input', ...labels }, usage.inputTokens);
        if (usage.outputTokens) tokens.inc({ direction: 'output', ...labels }, usage.outputTokens);
      }
      if (delegation) delegations.inc({ outcome: delegation.outcome, depth: String(delegation.depth) });
    },
  };
}

export type DelegationRefusal = 'rules' | 'rejected' | 'failed';

/** A `newTask` call that got an output without a sub-agent run (both flows, and a person's rejection). */
export function delegationRefused(reason: DelegationRefusal): void {
  if (!enabled) return;
  delegationsRefused.inc({ reason });
}

export type McpCallResult = 'ok' | 'error' | 'timeout' | 'failed' | 'cancelled';

/** One MCP tool call's end (agent/tools/mcp-tools.ts), under its server's name (the operator's, or a workspace server's host). */
export function mcpCalled(server: string, result: McpCallResult): void {
  if (!enabled) return;
  mcpCalls.inc({ server: mcpServers.of(server), result });
}

const LAG_SAMPLE_EVERY = 50;
const ignore = () => {};

/**
 * A run event written to the Redis event log (runs/redis-run-bus.ts): what to call once Redis
 * acknowledged it. Only a sampled event (a run's first, every 50th, the end marker) is timed.
 */
export function eventLogWritten(seq: number, last = false): () => void {
  if (!enabled || (seq % LAG_SAMPLE_EVERY !== 0 && !last)) return ignore;
  const sent = performance.now();
  return () => eventLogLag.observe((performance.now() - sent) / 1000);
}

export function eventLogFailed(): void {
  if (enabled) eventLogErrors.inc();
}
