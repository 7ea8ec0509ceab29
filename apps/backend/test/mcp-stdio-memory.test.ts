import { mkdtempSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mcpToolId } from '@baton/schemas';
import { afterAll, describe, expect, it } from 'vitest';
import { InstanceMcpServers } from '../src/mcp/instance-servers';
import { createOutbound } from '../src/outbound/guarded-fetch';
import type { StoredPart } from './support/messages';
import { json, useTestApp } from './support/test-app';
import { waitFor } from './support/wait';

// A second stdio server from npm, the kind people keep in their Claude Desktop file:
// @modelcontextprotocol/server-memory (a knowledge graph in a JSON file). Written through one
// turn's tool call and read back through the next, with the process shared between them.
const MEMORY_SERVER_JS = fileURLToPath(new URL('../node_modules/@modelcontextprotocol/server-memory/dist/index.js', import.meta.url));
const ID = 'inst_memory';
const ws = '/api/workspaces/default';

// Made before the test app starts the server (which is given the file's path).
const dir = mkdtempSync(join(tmpdir(), 'baton-mcp-memory-'));
let pool: InstanceMcpServers;
const memoryFile = () => join(dir, 'memory.jsonl');
const t = useTestApp({
  instanceMcp: () => {
    pool = new InstanceMcpServers(
      [{ kind: 'stdio', name: 'memory', command: process.execPath, args: [MEMORY_SERVER_JS], env: { MEMORY_FILE_PATH: memoryFile() } }],
      createOutbound({ allowPrivateAddresses: false }).operatorFetch,
      { startTimeoutMs: 20_000, backoffMs: 200, maxBackoffMs: 1_000, stableMs: 60_000 },
    );
    pool.start();
    return pool;
  },
});

afterAll(async () => {
  await pool?.close();
  await rm(dir, { recursive: true, force: true });
});

async function turn(agentId: string, text: string) {
  const chat = await json(await t.request(`${ws}/chats`, { json: { agentId } }));
  const body = await json(await t.request(`${ws}/chats/${chat.id}/messages`, { json: { text } }));
  return body.messages.at(-1).parts as StoredPart[];
}

describe('@modelcontextprotocol/server-memory over stdio', () => {
  it('stores an entity in one turn and reads it back in the next', async () => {
    const server = await waitFor(
      'the memory server listed',
      async () => {
        const s = ((await json(await t.request(`${ws}/mcp-servers`))).data as { id: string; tools: { name: string }[] }[]).find((x) => x.id === ID);
        return s?.tools.length ? s : undefined;
      },
      20_000,
    );
    expect(server.tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['create_entities', 'read_graph']));
    expect((await t.request(`${ws}/mcp-servers/${ID}`, { method: 'PATCH', json: { enabled: true } })).status).toBe(200);
    const agent = await json(
      await t.request(`${ws}/agents`, { json: { name: 'Rememberer', toolIds: [mcpToolId(ID, 'create_entities'), mcpToolId(ID, 'read_graph')] } }),
    );

    const entity = { name: 'Ada Lovelace 🧮', entityType: 'person', observations: ['wrote the first program'] };
    const wrote = await turn(agent.id, `/tool create_entities ${JSON.stringify({ entities: [entity] })}`);
    expect(wrote.find((p) => p.type === 'tool-create_entities')).toMatchObject({ state: 'output-available' });
    // Arguments the tool's schema refuses never reach the server (checked by Baton).
    const refused = await turn(agent.id, '/tool create_entities {"entities":"Ada"}');
    expect(refused.find((p) => p.type === 'tool-create_entities')).toMatchObject({
      state: 'output-error',
      errorText: expect.stringMatching(/arguments\/entities must be array/),
    });

    const read = await turn(agent.id, '/tool read_graph {}');
    const call = read.find((p) => p.type === 'tool-read_graph') as { state: string; output: unknown };
    expect(call.state).toBe('output-available');
    expect(JSON.stringify(call.output)).toContain('Ada Lovelace 🧮');
    // The server's own file holds it: a real process wrote it.
    expect(await readFile(memoryFile(), 'utf8')).toContain('wrote the first program');
  });
});
