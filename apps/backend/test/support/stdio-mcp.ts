import { fileURLToPath } from 'node:url';

/**
 * `@modelcontextprotocol/server-everything` (the MCP project's own test server, from npm) run
 * over stdio: `echo`, `get-sum`, `get-env` (its whole environment as JSON) and more.
 */
export const EVERYTHING_SERVER_JS = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url));

export const everythingServerEntry = (name: string, env: Record<string, string> = {}) => ({
  kind: 'stdio' as const,
  name,
  command: process.execPath,
  args: [EVERYTHING_SERVER_JS, 'stdio'],
  env,
});

/** Whether a process with this id still exists. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
