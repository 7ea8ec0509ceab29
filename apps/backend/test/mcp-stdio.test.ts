import { startTestMcpServer, type TestMcpServer } from '@baton/mcp-test-server';
import { mcpToolId } from '@baton/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InstanceMcpServers } from '../src/mcp/instance-servers';
import { createOutbound } from '../src/outbound/guarded-fetch';
import { invitedAccount } from './support/accounts';
import { partsText, type StoredPart } from './support/messages';
import { everythingServerEntry, processAlive } from './support/stdio-mcp';
import { json, useTestApp } from './support/test-app';
import { waitFor } from './support/wait';

// The operator's stdio servers (BATON_MCP_CONFIG) with a real one from npm,
// @modelcontextprotocol/server-everything, run by the backend over stdio.
const FILE_TOKEN = 'file-token-given-to-the-server-42';
// Secrets of the backend's own environment: the process must not see them.
const BACKEND_SECRETS = { OPENAI_API_KEY: 'sk-backend-secret-must-not-leak', BATON_SECRET_KEY: 'backend-secret-key-must-not-leak' };
const saved = Object.fromEntries(Object.keys(BACKEND_SECRETS).map((k) => [k, process.env[k]]));
Object.assign(process.env, BACKEND_SECRETS);

// A URL entry too: the operator's own server on loopback (the operator fetch allows private addresses).
const URL_TOKEN = 'url-entry-token-77';
let facts: TestMcpServer;
beforeAll(async () => {
  facts = await startTestMcpServer({ token: URL_TOKEN });
});

let pool: InstanceMcpServers;
const t = useTestApp({
  instanceMcp: () => {
    pool = new InstanceMcpServers(
      [
        everythingServerEntry('everything', { EVERYTHING_TOKEN: FILE_TOKEN }),
        { kind: 'url', name: 'facts', url: facts.url, headers: { Authorization: `Bearer ${URL_TOKEN}` }, transport: 'auto' },
      ],
      createOutbound({ allowPrivateAddresses: false }).operatorFetch,
      {
        startTimeoutMs: 20_000,
        backoffMs: 200,
        maxBackoffMs: 1_000,
        stableMs: 60_000,
      },
    );
    pool.start();
    return pool;
  },
});
afterAll(async () => {
  await pool?.close();
  await facts?.close();
  for (const [k, v] of Object.entries(saved))
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
});

const ws = '/api/workspaces/default';
const ID = 'inst_everything';
type Server = {
  id: string;
  scope: string;
  transport: string;
  url: string | null;
  enabled: boolean;
  tools: { id: string; name: string }[];
  toolsError: unknown;
  stderr: string[] | null;
};

const listed = async (headers?: Record<string, string>) =>
  ((await json(await t.request(`${ws}/mcp-servers`, { headers }))).data as Server[]).find((s) => s.id === ID);
const ready = () => waitFor('the stdio server listed its tools', async () => ((await listed())?.tools.length ? listed() : undefined), 20_000);

/** A turn through the real HTTP server (a socket, not app.request). */
async function turnOverHttp(agentId: string, text: string) {
  const post = (path: string, body: unknown) =>
    t.fetch(`${t.baseUrl}${ws}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(json);
  const chat = await post('/chats', { agentId });
  const body = await post(`/chats/${chat.id}/messages`, { text });
  return { run: body.run, parts: body.messages.at(-1).parts as StoredPart[] };
}

describe("the operator's stdio MCP servers", () => {
  beforeAll(async () => {
    await ready();
  });

  it('are listed in every workspace as the instance’s: stdio, no URL, off by default, with their tools', async () => {
    const server = await listed();
    expect(server).toMatchObject({ scope: 'instance', transport: 'stdio', url: null, enabled: false, toolsError: null, headerNames: [] });
    expect(server!.tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['echo', 'get-env', 'get-sum']));
    expect(server!.tools.find((tool) => tool.name === 'echo')!.id).toBe(mcpToolId(ID, 'echo'));
    expect((await json(await t.request(`${ws}/mcp-servers/${ID}`))).scope).toBe('instance');
    // The workspace's catalog lists them, unavailable until switched on.
    const tools = (await json(await t.request(`${ws}/tools`))).data as { id: string; available: boolean; serverName: string }[];
    expect(tools.find((tool) => tool.id === mcpToolId(ID, 'echo'))).toMatchObject({ available: false, serverName: 'everything' });
    // Another workspace lists it too.
    const other = await json(await t.request('/api/workspaces', { json: { name: 'Other stdio' } }));
    const there = (await json(await t.request(`/api/workspaces/${other.id}/mcp-servers`))).data as Server[];
    expect(there.find((s) => s.id === ID)).toMatchObject({ scope: 'instance', enabled: false });
  });

  it('are read-only in a workspace: admins switch them on and off, nothing else; members only read', async () => {
    for (const patch of [{ name: 'Renamed' }, { url: 'https://example.com/mcp' }, { enabled: true, headers: {} }]) {
      const res = await t.request(`${ws}/mcp-servers/${ID}`, { method: 'PATCH', json: patch });
      expect(res.status).toBe(403);
      expect((await json(res)).error.message).toMatch(/BATON_MCP_CONFIG/);
    }
    expect((await t.request(`${ws}/mcp-servers/${ID}`, { method: 'DELETE' })).status).toBe(403);
    expect((await t.request(`${ws}/mcp-servers/inst_nope`, { method: 'PATCH', json: { enabled: true } })).status).toBe(404);
    const member = await invitedAccount(t.anonymous, t.owner, 'member-stdio@baton.test');
    expect((await t.request(`${ws}/mcp-servers/${ID}`, { method: 'PATCH', json: { enabled: true }, headers: { cookie: member.cookie } })).status).toBe(403);
    expect((await listed({ cookie: member.cookie }))?.scope).toBe('instance');

    const on = await t.request(`${ws}/mcp-servers/${ID}`, { method: 'PATCH', json: { enabled: true } });
    expect(on.status).toBe(200);
    expect((await json(on)).enabled).toBe(true);
    expect((await listed())?.enabled).toBe(true);
    const tools = (await json(await t.request(`${ws}/tools`))).data as { id: string; available: boolean }[];
    expect(tools.find((tool) => tool.id === mcpToolId(ID, 'echo'))?.available).toBe(true);
    // Per workspace: the other one still has it off.
    const others = (await json(await t.request('/api/workspaces'))).data as { id: string; name: string }[];
    const other = others.find((w) => w.name === 'Other stdio')!;
    expect(((await json(await t.request(`/api/workspaces/${other.id}/mcp-servers`))).data as Server[]).find((s) => s.id === ID)?.enabled).toBe(false);
  });

  it('an agent uses a stdio tool in a chat turn; the process is shared, not started per turn', async () => {
    await t.request(`${ws}/mcp-servers/${ID}`, { method: 'PATCH', json: { enabled: true } });
    const agent = await json(await t.request(`${ws}/agents`, { json: { name: 'Echoer', toolIds: [mcpToolId(ID, 'echo')] } }));
    expect(agent.id).toBeDefined();
    const pid = pool.process(ID)!.pid;
    const { run, parts } = await turnOverHttp(agent.id, '/tool echo {"message":"hello from stdio"}');
    expect(run.status).toBe('succeeded');
    expect(parts.find((p) => p.type === 'tool-echo')).toMatchObject({
      state: 'output-available',
      input: { message: 'hello from stdio' },
      output: 'Echo: hello from stdio',
    });
    expect(partsText(parts)).toContain('Echo: hello from stdio');
    expect(pool.process(ID)!.pid).toBe(pid);
    expect(processAlive(pid!)).toBe(true);
  });

  it('a workspace that has not switched it on does not get its tools', async () => {
    await t.request(`${ws}/mcp-servers/${ID}`, { method: 'PATCH', json: { enabled: true } });
    const agent = await json(await t.request(`${ws}/agents`, { json: { name: 'Echo off', toolIds: [mcpToolId(ID, 'echo')] } }));
    await t.request(`${ws}/mcp-servers/${ID}`, { method: 'PATCH', json: { enabled: false } });
    const { run, parts } = await turnOverHttp(agent.id, '/tool echo {"message":"nobody home"}');
    expect(run.status).toBe('succeeded');
    expect(parts.some((p) => p.type === 'tool-echo')).toBe(false);
    await t.request(`${ws}/mcp-servers/${ID}`, { method: 'PATCH', json: { enabled: true } });
  });

  it("the process gets the file's env and a minimal safe set, never the backend's secrets", async () => {
    const agent = await json(await t.request(`${ws}/agents`, { json: { name: 'Env reader', toolIds: [mcpToolId(ID, 'get-env')] } }));
    const { parts } = await turnOverHttp(agent.id, '/tool get-env {}');
    const output = parts.find((p) => p.type === 'tool-get-env') as { output: string } | undefined;
    const env = JSON.parse(output!.output) as Record<string, string>;
    expect(env.EVERYTHING_TOKEN).toBe(FILE_TOKEN);
    expect(env.PATH).toBe(process.env.PATH);
    // The MCP SDK's own short list (HOME, LOGNAME, PATH, SHELL, TERM, USER) and Baton's (LANG, TMPDIR) at most.
    const allowed = new Set(['EVERYTHING_TOKEN', 'PATH', 'HOME', 'LANG', 'TMPDIR', 'LOGNAME', 'SHELL', 'TERM', 'USER']);
    expect(Object.keys(env).filter((k) => !allowed.has(k))).toEqual([]);
    for (const secret of [...Object.values(BACKEND_SECRETS), process.env.DATABASE_URL].filter(Boolean)) expect(output!.output).not.toContain(secret);
  });

  it('a process that dies is listed with the error and its stderr, restarted with backoff, and used again', async () => {
    const process = pool.process(ID)!;
    const pid = process.pid!;
    globalThis.process.kill(pid, 'SIGKILL');
    const failed = await waitFor('the listing shows the failure', async () => {
      const s = await listed();
      return s?.toolsError ? s : undefined;
    });
    expect(failed.toolsError).toMatchObject({ kind: 'process_failed', message: expect.stringMatching(/exited/) });
    // server-everything says what it starts on stderr.
    expect(failed.stderr!.join('\n')).toMatch(/Starting default \(STDIO\) server/);
    const back = await waitFor(
      'the process is restarted',
      async () => {
        const s = await listed();
        return s?.toolsError === null && s.tools.length > 0 ? s : undefined;
      },
      20_000,
    );
    expect(back.enabled).toBe(true);
    expect(process.pid).not.toBe(pid);
    expect(process.status().restarts).toBe(1);
    const agent = await json(await t.request(`${ws}/agents`, { json: { name: 'Echo again', toolIds: [mcpToolId(ID, 'echo')] } }));
    const { parts } = await turnOverHttp(agent.id, '/tool echo {"message":"back again"}');
    expect(parts.find((p) => p.type === 'tool-echo')).toMatchObject({ output: 'Echo: back again' });
  });

  it('a URL entry is listed with its header names (never values), switched on, and used in a turn, its session closed after', async () => {
    const id = 'inst_facts';
    const server = await waitFor('the URL entry is listed', async () => {
      const s = ((await json(await t.request(`${ws}/mcp-servers`))).data as Server[]).find((x) => x.id === id);
      return s?.tools.length ? s : undefined;
    });
    expect(server).toMatchObject({ scope: 'instance', transport: 'auto', url: facts.url, headerNames: ['Authorization'], stderr: null, toolsError: null });
    expect(JSON.stringify(server)).not.toContain(URL_TOKEN);
    expect((await t.request(`${ws}/mcp-servers/${id}`, { method: 'PATCH', json: { enabled: true } })).status).toBe(200);
    const agent = await json(await t.request(`${ws}/agents`, { json: { name: 'Fact checker', toolIds: [mcpToolId(id, 'lookup_fact')] } }));
    const { parts } = await turnOverHttp(agent.id, '/tool lookup_fact {"topic":"otters"}');
    expect(parts.find((p) => p.type === 'tool-lookup_fact')).toMatchObject({ state: 'output-available', output: expect.stringContaining('Sea otters') });
    expect(facts.openSessions()).toBe(0);
  });

  it('stopping (shutdown) ends the process and restarts nothing', async () => {
    const pid = pool.process(ID)!.pid!;
    expect(processAlive(pid)).toBe(true);
    await pool.close();
    await waitFor('the process is gone', async () => (processAlive(pid) ? undefined : true));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(pool.process(ID)!.pid).toBeNull();
    expect(pool.process(ID)!.status().state).toBe('stopped');
  });
});
