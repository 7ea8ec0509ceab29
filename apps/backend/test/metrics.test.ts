import type { ChildProcess } from 'node:child_process';
import { startTestMcpServer, type TestMcpServer } from '@baton/mcp-test-server';
import { DEMO_MODEL_ID } from '@baton/demo-llm';
import { mcpToolId } from '@baton/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisRunBus } from '../src/agent/runs/redis-run-bus';
import { RunRegistry } from '../src/agent/runs/run-registry';
import { createApp } from '../src/app';
import { createOutbound } from '../src/outbound/guarded-fetch';
import { postStream, userMessage } from './support/chat-client';
import { useLeadTeam } from './support/fixtures';
import { freePort, startRedis } from './support/redis-server';
import { json, TEST_AUTH, useTestApp } from './support/test-app';
import { waitFor } from './support/wait';

// GET /metrics (issue 23): off unless BATON_METRICS_TOKEN is set, then for the bearer of the
// token only; after a browser chat, a /v1 chat, a REST delegation and an MCP call the text
// counts each of them — under route patterns, kinds and outcomes, never an id or a secret.
const TOKEN = 'metrics-test-token-4b1d9e7a2c';
const MCP_SECRET = 'mcp-metrics-secret-71c3';
const t = useTestApp({ metricsToken: TOKEN, allowPrivateUrls: true });
const ws = '/api/workspaces/default';
const agents = useLeadTeam(t);

const scrape = (authorization?: string) => t.anonymous('/metrics', authorization === undefined ? {} : { headers: { authorization } });

/** Each sample of the text: metric name, labels and value. */
function samples(text: string) {
  return text
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!m) throw new Error(`not a sample line: ${line}`);
      const labels = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1]!, l[2]!]));
      return { name: m[1]!, labels, value: Number(m[3]) };
    });
}

/** The value of the one sample with this name and these labels (0 when there is none). */
function value(text: string, name: string, labels: Record<string, string> = {}): number {
  const found = samples(text).filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  if (found.length > 1) throw new Error(`${name} ${JSON.stringify(labels)} matches ${found.length} samples`);
  return found[0]?.value ?? 0;
}

async function metricsNow(): Promise<string> {
  const res = await scrape(`Bearer ${TOKEN}`);
  expect(res.status).toBe(200);
  return res.text();
}

describe('GET /metrics access', () => {
  it('asks for the token: none, a wrong one, or another scheme get 401', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token-0000000000', `Basic ${TOKEN}`, `Bearer ${TOKEN}x`, t.owner.cookie]) {
      const res = await scrape(authorization);
      expect(res.status, String(authorization)).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect((await json(res)).error.code).toBe('unauthorized');
    }
    // A session is no key to the metrics either.
    expect((await t.request('/metrics')).status).toBe(401);
  });

  it('answers the bearer of the token in Prometheus text format', async () => {
    const res = await scrape(`Bearer ${TOKEN}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    expect(text).toContain('# TYPE baton_http_requests_total counter');
    expect(text).toContain('# TYPE baton_run_first_token_seconds histogram');
    // Node's own process metrics come with them.
    expect(value(text, 'process_cpu_seconds_total')).toBeGreaterThan(0);
  });

  it('is not there without BATON_METRICS_TOKEN: 404 like any unknown path', async () => {
    const app = createApp({
      db: t.handle.db,
      databaseKind: t.handle.kind,
      runs: new RunRegistry(),
      secrets: t.secrets,
      outbound: createOutbound({ allowPrivateAddresses: false }),
      auth: TEST_AUTH,
    });
    for (const authorization of [undefined, `Bearer ${TOKEN}`]) {
      const res = await app.request('/metrics', authorization ? { headers: { authorization } } : {});
      expect(res.status).toBe(404);
      expect((await json(res)).error.code).toBe('not_found');
    }
  });
});

describe('the metrics after a chat, a /v1 chat, a delegation and an MCP call', () => {
  let mcp: TestMcpServer;
  let redis: ChildProcess | undefined;
  let before = '';
  let after = '';
  const ids: string[] = [];

  beforeAll(async () => {
    mcp = await startTestMcpServer({ token: MCP_SECRET });
    before = await metricsNow();

    // The browser's chat.
    const chatId = `chat_metrics_${Date.now().toString(36)}`;
    const browser = await postStream(`${t.baseUrl}${ws}/chat`, { id: chatId, agentId: agents.Lead!.id, message: userMessage('msg_metrics_1', 'Hello there') });
    expect(browser.status).toBe(200);
    ids.push(chatId, 'msg_metrics_1');

    // The OpenAI-compatible API.
    const v1 = await t.request('/v1/chat/completions', {
      headers: { authorization: `Bearer ${t.owner.apiKey}`, cookie: '' },
      json: { model: agents.Lead!.id, messages: [{ role: 'user', content: 'Hello from a program' }] },
    });
    expect(v1.status).toBe(200);
    ids.push(v1.headers.get('x-baton-chat-id')!);

    // A REST message the server answers by delegating (a sub-agent's run, depth 1).
    const parent = await json(await t.request(`${ws}/chats`, { json: { agentId: agents.Lead!.id } }));
    const delegated = await json(await t.request(`${ws}/chats/${parent.id}/messages`, { json: { text: '/delegate Researcher: facts about otters' } }));
    expect(delegated.run.status).toBe('succeeded');
    const call = delegated.messages.at(-1).parts.find((p: { type: string }) => p.type === 'tool-newTask');
    expect(call.output).toMatchObject({ status: 'success', subChatId: expect.any(String) });
    ids.push(parent.id, call.output.subChatId, delegated.run.id);

    // An MCP tool call, on a workspace server whose header carries a secret.
    const server = await json(
      await t.request(`${ws}/mcp-servers`, { json: { name: 'Facts for metrics', url: mcp.url, headers: { Authorization: `Bearer ${MCP_SECRET}` } } }),
    );
    const factAgent = await json(await t.request(`${ws}/agents`, { json: { name: 'Fact checker', toolIds: [mcpToolId(server.id, 'lookup_fact')] } }));
    const factChat = await json(await t.request(`${ws}/chats`, { json: { agentId: factAgent.id } }));
    const facts = await json(await t.request(`${ws}/chats/${factChat.id}/messages`, { json: { text: '/tool lookup_fact {"topic":"otters"}' } }));
    expect(facts.run.status).toBe('succeeded');
    ids.push(server.id, factAgent.id, factChat.id, agents.Lead!.id, t.owner.userId);

    // The Redis event log of a run, written through the bus replicas share.
    const redisPort = await freePort();
    redis = await startRedis(redisPort);
    const bus = new RedisRunBus(`redis://127.0.0.1:${redisPort}`);
    for (let seq = 0; seq < 3; seq++) bus.append('run_metrics_redis', seq, { type: 'text-delta', id: 't', delta: 'x' });
    bus.end('run_metrics_redis', 2);
    await waitFor('the event log lag samples', async () => (value(await metricsNow(), 'baton_run_event_log_lag_seconds_count') >= 2 ? true : undefined));
    await bus.close();

    after = await metricsNow();
  }, 60_000);

  afterAll(async () => {
    await mcp?.close();
    redis?.kill('SIGKILL');
  });

  const added = (name: string, labels: Record<string, string> = {}) => value(after, name, labels) - value(before, name, labels);

  it('count requests by method, route pattern and status, with their latency', () => {
    const chat = { method: 'POST', route: '/api/workspaces/:workspaceId/chat', status: '200' };
    expect(added('baton_http_requests_total', chat)).toBe(1);
    expect(added('baton_http_request_duration_seconds_count', chat)).toBe(1);
    expect(added('baton_http_request_duration_seconds_bucket', { ...chat, le: '+Inf' })).toBe(1);
    const messages = { method: 'POST', route: '/api/workspaces/:workspaceId/chats/:chatId/messages', status: '200' };
    expect(added('baton_http_requests_total', messages)).toBe(2);
    expect(added('baton_http_requests_total', { method: 'POST', route: '/v1/chat/completions', status: '200' })).toBe(1);
    // Refused scrapes count too, under the route's own pattern.
    expect(value(after, 'baton_http_requests_total', { method: 'GET', route: '/metrics', status: '401' })).toBeGreaterThanOrEqual(5);
  });

  it('count runs started and ended by kind and status, none left active, with time to first token and duration', () => {
    for (const [kind, n] of [
      ['browser', 1],
      ['v1', 1],
      ['rest', 2],
      ['sub_agent', 1],
    ] as const) {
      expect(added('baton_runs_started_total', { kind }), kind).toBe(n);
      expect(added('baton_runs_ended_total', { kind, status: 'succeeded' }), kind).toBe(n);
      expect(added('baton_run_duration_seconds_count', { kind, status: 'succeeded' }), kind).toBe(n);
      expect(added('baton_run_first_token_seconds_count', { kind }), kind).toBe(n);
      expect(value(after, 'baton_runs_active', { kind }), kind).toBe(0);
    }
    expect(added('baton_run_first_token_seconds_sum', { kind: 'browser' })).toBeGreaterThan(0);
  });

  it('count tokens in and out by provider and model', () => {
    const model = { provider: 'demo', model: DEMO_MODEL_ID };
    expect(added('baton_tokens_total', { direction: 'input', ...model })).toBeGreaterThan(0);
    expect(added('baton_tokens_total', { direction: 'output', ...model })).toBeGreaterThan(0);
  });

  it('count delegations by outcome and depth, and MCP calls by server and result', () => {
    expect(added('baton_delegations_total', { outcome: 'success', depth: '1' })).toBe(1);
    expect(added('baton_mcp_calls_total', { server: new URL(mcp.url).host, result: 'ok' })).toBe(1);
  });

  it('time the Redis event log', () => {
    expect(added('baton_run_event_log_lag_seconds_count')).toBe(2);
    expect(added('baton_run_event_log_errors_total')).toBe(0);
  });

  it('hold no id, secret or text in any label', () => {
    const values = samples(after).flatMap((s) => Object.values(s.labels));
    expect(values.length).toBeGreaterThan(100);
    for (const v of values) expect(v).not.toMatch(/\b(ws|agent|prov|chat|msg|run|key|inv|steer|mcp|file)_[\w-]{6,}/);
    const cookieValue = t.owner.cookie.split('=')[1]!;
    for (const secret of [...ids, TOKEN, MCP_SECRET, t.owner.apiKey, cookieValue, 'Hello there', 'Hello from a program', 'otters', 'Facts for metrics']) {
      expect(after, `the metrics hold ${secret}`).not.toContain(secret);
    }
  });
});

describe('delegations that never ran', () => {
  it('are counted by why: refused by the rules, or rejected by a person; not as ended delegations', async () => {
    const before = await metricsNow();
    // Lead is not its own sub-agent: the rules refuse the call.
    const refusing = await json(await t.request(`${ws}/chats`, { json: { agentId: agents.Lead!.id } }));
    const refusedTurn = await json(await t.request(`${ws}/chats/${refusing.id}/messages`, { json: { text: '/delegate Lead: not mine to call' } }));
    expect(refusedTurn.messages.at(-1).parts.find((p: { type: string }) => p.type === 'tool-newTask').output).toMatchObject({
      outcome: 'error',
      subChatId: null,
    });
    // An agent that asks before each delegation, and a person who says no.
    const careful = await json(
      await t.request(`${ws}/agents`, { json: { name: 'Careful lead', subAgentIds: [agents.Researcher!.id], delegation: { requireApproval: true } } }),
    );
    const carefulChat = await json(await t.request(`${ws}/chats`, { json: { agentId: careful.id } }));
    const paused = await json(await t.request(`${ws}/chats/${carefulChat.id}/messages`, { json: { text: '/delegate Researcher: facts about owls' } }));
    expect(paused.run.status).toBe('awaiting_approval');
    const waiting = paused.messages.at(-1).parts.find((p: { type: string }) => p.type === 'tool-newTask');
    const rejected = await t.request(`${ws}/chats/${carefulChat.id}/approvals/${waiting.toolCallId}`, { json: { approve: false, reason: 'not now' } });
    expect(rejected.status).toBe(200);
    await waitFor('the rejected answer ends', async () =>
      (await json(await t.request(`${ws}/chats/${carefulChat.id}`))).activeRun === null ? true : undefined,
    );

    const after = await metricsNow();
    const added = (name: string, labels: Record<string, string> = {}) => value(after, name, labels) - value(before, name, labels);
    expect(added('baton_delegations_refused_total', { reason: 'rules' })).toBe(1);
    expect(added('baton_delegations_refused_total', { reason: 'rejected' })).toBe(1);
    expect(added('baton_delegations_total', { outcome: 'error', depth: '1' })).toBe(0);
  });
});
