import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBackend, workspaceApi } from './support/backend-process';
import { EVERYTHING_SERVER_JS, processAlive } from './support/stdio-mcp';
import { waitFor } from './support/wait';

// BATON_MCP_CONFIG read by the real server process: a bad file stops the start with what to
// fix; a good one's stdio server runs beside the backend and ends with it (graceful shutdown).
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'baton-mcp-stdio-'));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const env = (configPath: string) => ({
  DATABASE_URL: undefined,
  REDIS_URL: undefined,
  HOST: undefined,
  BATON_DATA_DIR: join(dir, 'data'),
  PORT: '0',
  BATON_MCP_CONFIG: configPath,
});

/** The processes whose parent is `pid`. */
function childrenOf(pid: number): number[] {
  try {
    return execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .map((l) => Number(l.trim()))
      .filter((n) => n > 0);
  } catch {
    return [];
  }
}

describe('BATON_MCP_CONFIG in the backend process', () => {
  it('a malformed file stops the start with the file, the entry and the problem, without a stack trace', async () => {
    const path = join(dir, 'bad.json');
    await writeFile(path, JSON.stringify({ mcpServers: { files: { command: 'npx', url: 'https://example.com/mcp' } } }));
    const failure = await startBackend(env(path)).then(
      async (b) => {
        await b.stop();
        return 'started';
      },
      (err: Error) => err.message,
    );
    expect(failure).toMatch(/backend exited with 1/);
    // The backend logs JSON lines (ops/logger.ts): the messages as a person reads them.
    const messages = failure
      .split('\n')
      .map((line) => {
        try {
          return String(JSON.parse(line).msg);
        } catch {
          return line;
        }
      })
      .join('\n');
    expect(messages).toContain(`Baton backend cannot start: BATON_MCP_CONFIG (${path}): mcpServers.files: needs either "command" (a stdio server) or "url"`);
    expect(failure).not.toMatch(/\n\s+at /);
  }, 120_000);

  it('starts the stdio server with the backend and stops it on shutdown (SIGTERM)', async () => {
    const path = join(dir, 'good.json');
    await writeFile(path, JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING_SERVER_JS, 'stdio'] } } }));
    const backend = await startBackend(env(path));
    let child: number | undefined;
    try {
      expect(backend.output()).toContain('1 MCP server(s) from BATON_MCP_CONFIG');
      const api = workspaceApi(backend);
      const server = await waitFor(
        'the stdio server is listed with its tools',
        async () => {
          const listed = (await api.get('/mcp-servers'))?.data.find((s: { id: string }) => s.id === 'inst_everything');
          return listed?.tools.length > 0 ? listed : undefined;
        },
        30_000,
      );
      expect(server).toMatchObject({ scope: 'instance', transport: 'stdio', enabled: false });
      [child] = childrenOf(backend.process.pid!);
      expect(child).toBeDefined();
      expect(processAlive(child!)).toBe(true);
    } finally {
      await backend.stop();
    }
    expect(backend.process.exitCode).toBe(0);
    expect(processAlive(child!)).toBe(false);
  }, 120_000);
});
