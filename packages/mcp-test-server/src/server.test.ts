import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startTestMcpServer, type TestMcpServer } from './server';

let server: TestMcpServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function connect(url: string, headers: Record<string, string> = {}) {
  const client = new Client({ name: 'test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
  await client.connect(transport);
  return { client, transport };
}

describe('test MCP server', () => {
  it('lists its two tools, answers calls deterministically and counts sessions', async () => {
    server = await startTestMcpServer();
    const { client, transport } = await connect(server.url);
    expect(server.openSessions()).toBe(1);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['add', 'lookup_fact']);
    const fact = await client.callTool({ name: 'lookup_fact', arguments: { topic: 'otters' } });
    expect(fact.content).toEqual([{ type: 'text', text: 'Fact about otters: Sea otters hold hands while they sleep so they do not drift apart.' }]);
    const sum = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
    expect(sum.content).toEqual([{ type: 'text', text: '5' }]);
    expect(server.calls()).toEqual([
      { name: 'lookup_fact', args: { topic: 'otters' } },
      { name: 'add', args: { a: 2, b: 3 } },
    ]);
    await transport.terminateSession();
    await client.close();
    expect(server.openSessions()).toBe(0);
  });

  it('serves the same tools over the older HTTP+SSE transport, and counts its session until the stream ends', async () => {
    server = await startTestMcpServer({ token: 'sesame' });
    const headers = { authorization: 'Bearer sesame' };
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(
      new SSEClientTransport(new URL(server.sseUrl), {
        requestInit: { headers },
        eventSourceInit: { fetch: (url, init) => fetch(url, { ...init, headers: { ...(init?.headers as Record<string, string>), ...headers } }) },
      }),
    );
    expect(server.openSessions()).toBe(1);
    const sum = await client.callTool({ name: 'add', arguments: { a: 20, b: 22 } });
    expect(sum.content).toEqual([{ type: 'text', text: '42' }]);
    await client.close();
    await vi.waitFor(() => expect(server!.openSessions()).toBe(0));
  });

  it('refuses a request without the bearer token when one is set', async () => {
    server = await startTestMcpServer({ token: 'sesame' });
    await expect(connect(server.url)).rejects.toThrow();
    const { client } = await connect(server.url, { authorization: 'Bearer sesame' });
    expect((await client.listTools()).tools).toHaveLength(2);
    await client.close();
  });

  it('dies right after the next listing when asked to', async () => {
    server = await startTestMcpServer();
    const { client } = await connect(server.url);
    server.dieAfterNextListing();
    await client.listTools();
    await expect(client.callTool({ name: 'add', arguments: { a: 1, b: 1 } })).rejects.toThrow();
    await client.close();
  });
});
