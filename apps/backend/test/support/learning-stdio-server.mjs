// A stdio MCP server whose tools change while it runs: calling `learn` adds the tool named in
// its argument, and the SDK sends `notifications/tools/list_changed` (mcp-list-changed.test.ts).
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'learning', version: '1.0.0' });
server.registerTool('learn', { description: 'Adds a tool of the given name.', inputSchema: { name: z.string() } }, async ({ name }) => {
  server.registerTool(name, { description: `Learned at run time: ${name}.` }, async () => ({ content: [{ type: 'text', text: `${name} works` }] }));
  return { content: [{ type: 'text', text: `learned ${name}` }] };
});
await server.connect(new StdioServerTransport());
