import { mcpToolId } from '@baton/schemas';
import { afterAll, describe, expect, it } from 'vitest';
import { HOSTILE_TOOL, startHostileMcpServer, type HostileMcpServer, type McpBehaviour, type McpMethod } from './support/hostile-mcp';
import { json, useTestApp } from './support/test-app';
import { type StoredPart, partsText } from './support/messages';

/*
 * Every MCP request has a deadline that rejects it, whatever the server does: connecting and
 * listing share one (here 1 s, 10 s by default), each tool call has its own (here 1 s,
 * BATON_MCP_CALL_TIMEOUT_MS). The servers are hostile fixtures: real HTTP servers that answer
 * a request with an SSE stream ending without the response, or never answer it at all.
 */
const t = useTestApp({ allowPrivateUrls: true, mcpTimeoutMs: 1_000, mcpCallTimeoutMs: 1_000 });
const ws = '/api/workspaces/default';
const ASK = `/tool ${HOSTILE_TOOL} {"topic":"otters"}`;
const MISBEHAVIOURS: McpBehaviour[] = ['sse-without-answer', 'no-answer'];

const servers: HostileMcpServer[] = [];
async function hostile(): Promise<HostileMcpServer> {
  const server = await startHostileMcpServer();
  servers.push(server);
  return server;
}
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

let named = 0;
async function addServer(url: string) {
  const res = await t.request(`${ws}/mcp-servers`, { json: { name: `Hostile ${named++}`, url } });
  expect(res.status).toBe(201);
  return json(res);
}

async function answerWith(serverId: string, text: string) {
  const agent = await json(await t.request(`${ws}/agents`, { json: { name: `Hostile user ${named++}`, toolIds: [mcpToolId(serverId, HOSTILE_TOOL)] } }));
  const c = await json(await t.request(`${ws}/chats`, { json: { agentId: agent.id } }));
  const res = await t.request(`${ws}/chats/${c.id}/messages`, { json: { text } });
  expect(res.status).toBe(200);
  const body = await json(res);
  return { run: body.run as { status: string }, parts: body.messages.at(-1).parts as StoredPart[] };
}

describe('MCP deadlines', () => {
  for (const method of ['initialize', 'tools/list'] as McpMethod[]) {
    for (const behaviour of MISBEHAVIOURS) {
      it(`adding or editing a server whose ${method} gets ${behaviour} answers with a timeout`, async () => {
        const server = await hostile();
        server.set(method, behaviour);
        const added = await addServer(server.url);
        expect(added.toolsError).toEqual({ kind: 'timeout', message: expect.stringContaining('within 1 s') });
        expect(server.received(method)).toBe(1);

        // Editing a working server to point at it.
        const good = await hostile();
        const edited = await addServer(good.url);
        expect(edited.toolsError).toBeNull();
        const res = await t.request(`${ws}/mcp-servers/${edited.id}`, { method: 'PATCH', json: { url: server.url } });
        expect(res.status).toBe(200);
        expect((await json(res)).toolsError).toEqual({ kind: 'timeout', message: expect.stringContaining('within 1 s') });
      });
    }
  }

  it('a turn whose server stops answering initialize is offered the stored listing; the call is an error result and the turn finishes', async () => {
    const server = await hostile();
    const { id } = await addServer(server.url);
    server.set('initialize', 'sse-without-answer');
    const { run, parts } = await answerWith(id, ASK);
    expect(run.status).toBe('succeeded');
    expect(server.received('tools/call')).toBe(0);
    expect(parts.find((p) => p.type === `tool-${HOSTILE_TOOL}`)).toMatchObject({
      state: 'output-error',
      errorText: expect.stringMatching(/could not be reached: .*within 1 s/),
    });
    expect(partsText(parts)).toContain(`**${HOSTILE_TOOL}**`);
  });

  for (const behaviour of MISBEHAVIOURS) {
    it(`a tool call that gets ${behaviour} becomes an error result the model reads, and the turn finishes`, async () => {
      const server = await hostile();
      const { id } = await addServer(server.url);
      server.set('tools/call', behaviour);
      const { run, parts } = await answerWith(id, ASK);
      expect(run.status).toBe('succeeded');
      expect(server.received('tools/call')).toBe(1);
      expect(parts.find((p) => p.type === `tool-${HOSTILE_TOOL}`)).toMatchObject({
        state: 'output-error',
        errorText: expect.stringMatching(/did not answer the call within 1 s/),
      });
      // The model got the error and answered after it.
      expect(partsText(parts)).toContain(`**${HOSTILE_TOOL}**`);
    });
  }

  it('a tool call that is answered in time is still a result', async () => {
    const server = await hostile();
    const { id } = await addServer(server.url);
    const { run, parts } = await answerWith(id, ASK);
    expect(run.status).toBe('succeeded');
    expect(parts.find((p) => p.type === `tool-${HOSTILE_TOOL}`)).toMatchObject({ state: 'output-available', output: 'The slow answer.' });
  });
});
