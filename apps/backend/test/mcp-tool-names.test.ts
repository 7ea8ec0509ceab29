import { startTestMcpServer, type TestMcpServer } from '@baton/mcp-test-server';
import { mcpToolId } from '@baton/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredPart } from './support/messages';
import { json, useTestApp } from './support/test-app';

// Issue 22, item 3: a tool's model-facing name does not change when other servers offering a
// tool of the same name are attached (`/tool echo` failed once three servers offered `echo`).
const t = useTestApp({ allowPrivateUrls: true });
const ws = '/api/workspaces/default';
const OTTER_FACT = 'Fact about otters: Sea otters hold hands while they sleep so they do not drift apart.';

let mcp: TestMcpServer;
beforeAll(async () => {
  mcp = await startTestMcpServer({});
});
afterAll(async () => {
  await mcp?.close();
});

async function addServer(name: string): Promise<string> {
  const row = await json(await t.request(`${ws}/mcp-servers`, { json: { name, url: mcp.url } }));
  expect(row.toolsError).toBeNull();
  return row.id;
}

async function send(agentId: string, text: string) {
  const chat = await json(await t.request(`${ws}/chats`, { json: { agentId } }));
  const body = await json(await t.request(`${ws}/chats/${chat.id}/messages`, { json: { text } }));
  expect(body.run.status).toBe('succeeded');
  return body.messages.at(-1).parts as StoredPart[];
}

describe('MCP tool names in a turn', () => {
  it('the first server keeps the bare name when later servers offer the same tool; theirs are prefixed', async () => {
    const first = await addServer('Facts');
    const agent = await json(await t.request(`${ws}/agents`, { json: { name: 'Fact checker', toolIds: [mcpToolId(first, 'lookup_fact')] } }));
    const ask = '/tool lookup_fact {"topic":"otters"}';
    expect((await send(agent.id, ask)).find((p) => p.type === 'tool-lookup_fact')).toMatchObject({ state: 'output-available', output: OTTER_FACT });

    // Two more servers with a lookup_fact, both given to the agent too.
    const second = await addServer('More facts');
    const third = await addServer('Even more facts');
    const toolIds = [third, second, first].map((id) => mcpToolId(id, 'lookup_fact'));
    expect((await t.request(`${ws}/agents/${agent.id}`, { method: 'PATCH', json: { toolIds } })).status).toBe(200);
    expect((await send(agent.id, ask)).find((p) => p.type === 'tool-lookup_fact')).toMatchObject({ state: 'output-available', output: OTTER_FACT });
    // The later ones by their prefixed names.
    const parts = await send(agent.id, '/tool even_more_facts_lookup_fact {"topic":"otters"}');
    expect(parts.find((p) => p.type === 'tool-even_more_facts_lookup_fact')).toMatchObject({ state: 'output-available', output: OTTER_FACT });
  });
});
