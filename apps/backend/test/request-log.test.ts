import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logTo } from '../src/ops/logger';
import { TEST_PASSWORD } from './support/accounts';
import { useLeadTeam } from './support/fixtures';
import { json, useTestApp } from './support/test-app';

// The backend's log (issue 23): a JSON line per request with its id (the caller's, or a new
// one, echoed in X-Request-Id), the route's pattern, status, duration and who asked; lines for
// runs; and nothing a person would call secret or private, whatever the requests carried.
const METRICS_TOKEN = 'metrics-token-for-the-log-5d2e8f';
const t = useTestApp({ metricsToken: METRICS_TOKEN });
const team = useLeadTeam(t);
const ws = '/api/workspaces/default';
const lines: Record<string, unknown>[] = [];
let raw = '';
let restore: () => void;

beforeAll(() => {
  restore = logTo({
    write: (line: string) => {
      raw += line;
      lines.push(JSON.parse(line));
    },
  });
});
afterAll(() => restore());

let agentId = '';
beforeAll(async () => {
  agentId = (await json(await t.request(`${ws}/agents`, { json: { name: 'Logged agent' } }))).id;
});

const requestLines = (requestId: string) => lines.filter((l) => l.msg === 'request' || l.msg === 'request failed').filter((l) => l.requestId === requestId);

describe('request log lines', () => {
  it('keep the caller’s request id, echo it, and say method, route pattern, status, duration, workspace and user', async () => {
    const res = await t.request(`${ws}/agents`, { headers: { 'x-request-id': 'trace-4711.a:b' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe('trace-4711.a:b');
    const [line, ...more] = requestLines('trace-4711.a:b');
    expect(more).toEqual([]);
    expect(line).toMatchObject({
      level: 'info',
      method: 'GET',
      route: '/api/workspaces/:workspaceId/agents',
      status: 200,
      durationMs: expect.any(Number),
      workspaceId: 'default',
      userId: expect.any(String),
      service: 'baton-backend',
      time: expect.any(String),
    });
  });

  it('make an id when the caller sent none or one that is not a plain token', async () => {
    for (const claimed of [undefined, 'has spaces in it', 'x'.repeat(200)]) {
      const res = await t.request(`${ws}/agents`, claimed ? { headers: { 'x-request-id': claimed } } : {});
      const id = res.headers.get('x-request-id');
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(requestLines(id!)).toHaveLength(1);
    }
  });

  it('are written for refusals and unknown routes too, with the status sent', async () => {
    const refused = await t.request(`${ws}/agents`, { headers: { cookie: '', 'x-request-id': 'no-session' } });
    expect(refused.status).toBe(401);
    expect(requestLines('no-session')[0]).toMatchObject({ status: 401, route: '/api/workspaces/:workspaceId/agents' });
    expect(requestLines('no-session')[0]).not.toHaveProperty('userId');
    const missing = await t.request('/api/nothing/here', { headers: { 'x-request-id': 'no-route' } });
    expect(missing.status).toBe(404);
    expect(requestLines('no-route')[0]).toMatchObject({ status: 404, method: 'GET' });
  });

  it('name the route that answered, not a catch-all matched after it (/v1 has one for its own 404s)', async () => {
    const apiKey = { authorization: `Bearer ${t.owner.apiKey}`, cookie: '' };
    expect((await t.request('/v1/models', { headers: { ...apiKey, 'x-request-id': 'v1-models' } })).status).toBe(200);
    expect(requestLines('v1-models')[0]).toMatchObject({ status: 200, route: '/v1/models' });
    expect((await t.request('/v1/models/nothing-here', { headers: { ...apiKey, 'x-request-id': 'v1-model' } })).status).toBe(404);
    expect(requestLines('v1-model')[0]).toMatchObject({ status: 404, route: '/v1/models/:id' });
    expect((await t.request('/v1/no/such/thing', { headers: { ...apiKey, 'x-request-id': 'v1-none' } })).status).toBe(404);
    expect(requestLines('v1-none')[0]).toMatchObject({ status: 404, route: '/v1/*' });
  });
});

describe('run log lines', () => {
  it('say when a run starts and how it ended, with its tokens', async () => {
    const res = await t.request('/v1/chat/completions', {
      headers: { authorization: `Bearer ${t.owner.apiKey}`, cookie: '' },
      json: { model: agentId, messages: [{ role: 'user', content: 'Hello there' }] },
    });
    expect(res.status).toBe(200);
    const chatId = res.headers.get('x-baton-chat-id');
    const started = lines.find((l) => l.msg === 'run started' && l.chatId === chatId);
    const ended = lines.find((l) => l.msg === 'run ended' && l.chatId === chatId);
    expect(started).toMatchObject({ runId: expect.any(String), workspaceId: 'default', kind: expect.any(String) });
    expect(ended).toMatchObject({
      runId: started!.runId,
      status: 'succeeded',
      stored: true,
      inputTokens: expect.any(Number),
      outputTokens: expect.any(Number),
    });
    expect(ended!.outputTokens).toBeGreaterThan(0);
  });
});

describe('nothing secret or private in the log', () => {
  it('after requests that carried a password, a session, an API key, a provider key, MCP headers, a message text, a delegated task and the metrics token', async () => {
    const providerKey = 'sk-log-test-7f3a9c1e55d04b2a';
    const mcpSecret = 'mcp-header-secret-0b1c2d3e';
    const privateText = 'my private medical question 9d8c7b';
    const privateTask = 'summarise the private contract 3e4f5a';
    await t.anonymous('/api/auth/sign-in/email', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'owner@baton.test', password: TEST_PASSWORD }),
    });
    await t.anonymous('/api/auth/sign-in/email', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'owner@baton.test', password: 'a wrong password 5e6f' }),
    });
    await t.request(`${ws}/providers`, { json: { name: 'Logged', baseUrl: 'https://provider.example/v1', apiKey: providerKey, modelIds: ['m'] } });
    await t.request(`${ws}/mcp-servers`, { json: { name: 'Logged MCP', url: 'https://mcp.example/mcp', headers: { Authorization: `Bearer ${mcpSecret}` } } });
    await t.request('/v1/chat/completions', {
      headers: { authorization: `Bearer ${t.owner.apiKey}`, cookie: '' },
      json: { model: agentId, messages: [{ role: 'user', content: privateText }] },
    });
    // A sub-agent's run (its task is its first message) and the parent's, on the server.
    const parent = await json(await t.request(`${ws}/chats`, { json: { agentId: team.Lead!.id } }));
    const delegated = await json(await t.request(`${ws}/chats/${parent.id}/messages`, { json: { text: `/delegate Researcher: ${privateTask}` } }));
    expect(delegated.run.status).toBe('succeeded');
    expect(lines.some((l) => l.msg === 'run ended' && l.kind === 'sub_agent')).toBe(true);
    // Scrapes with a wrong token and the right one.
    for (const token of ['not-the-metrics-token-000', METRICS_TOKEN]) await t.anonymous('/metrics', { headers: { authorization: `Bearer ${token}` } });
    expect(lines.filter((l) => l.route === '/metrics').map((l) => l.status)).toEqual([401, 200]);
    // A request that fails on the server logs its error: still nothing of what it carried.
    await t.request(`${ws}/chats/${encodeURIComponent(privateText)}`);

    const cookieValue = t.owner.cookie.split('=')[1]!;
    expect(lines.length).toBeGreaterThan(10);
    const secrets = [TEST_PASSWORD, 'a wrong password 5e6f', providerKey, mcpSecret, privateText, privateTask, METRICS_TOKEN, t.owner.apiKey, cookieValue];
    for (const secret of [...secrets, 'owner@baton.test']) {
      expect(raw, `the log holds ${secret}`).not.toContain(secret);
    }
  });
});
