import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { StdioMcpProcess } from '../src/mcp/stdio-process';
import { waitFor } from './support/wait';

// A stdio server that announces new tools (MCP's tools/list_changed) is listed again at once,
// so the next turn offers them without anyone pressing Refresh.
const SERVER = fileURLToPath(new URL('./support/learning-stdio-server.mjs', import.meta.url));

describe('a stdio server whose tools change', () => {
  const process_ = new StdioMcpProcess({ name: 'learning', command: process.execPath, args: [SERVER], env: {} });
  afterAll(() => process_.stop());

  it('is listed again when it sends tools/list_changed', async () => {
    await process_.start();
    const names = () => (process_.status().listing?.tools ?? []).map((t) => t.name).sort();
    expect(names()).toEqual(['learn']);
    const { client } = await process_.connection();
    await client.callTool({ name: 'learn', arguments: { name: 'recall' } });
    await waitFor('the new tool in the listing', async () => (names().includes('recall') ? true : undefined));
    expect(names()).toEqual(['learn', 'recall']);
  });
});
