// Standalone, from this package's directory (tsx resolves from here): `node --import tsx src/cli.ts --port 4020 [--token secret | --oauth]`,
// or `pnpm --filter @baton/mcp-test-server start --port 4020` from anywhere in the repo.
// Prints the MCP endpoint URL as its first line; stops on SIGINT/SIGTERM.
import { parseArgs } from 'node:util';
import { startOAuthMcpServer } from './oauth-server';
import { startTestMcpServer } from './server';

const { values } = parseArgs({
  options: { port: { type: 'string', default: '0' }, token: { type: 'string' }, hostname: { type: 'string' }, oauth: { type: 'boolean', default: false } },
});
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`--port must be a port number, got '${values.port}'`);
  process.exit(1);
}
// --oauth: protected by OAuth (its own authorization server, which approves every request at once).
const server = values.oauth ? await startOAuthMcpServer({ port }) : await startTestMcpServer({ port, token: values.token, hostname: values.hostname });
const access = values.oauth ? '; OAuth: connect it in Baton' : values.token ? '; bearer token required' : '';
console.log(`Baton test MCP server at ${server.url} (tools: lookup_fact, add${access})`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    server.close().finally(() => process.exit(0));
  });
}
