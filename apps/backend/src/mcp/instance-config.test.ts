import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { loadInstanceMcpConfig, parseInstanceMcpConfig } from './instance-config';
import { stdioEnvironment } from './stdio-process';

const dir = mkdtempSync(join(tmpdir(), 'baton-mcp-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

describe('BATON_MCP_CONFIG', () => {
  it('reads a Claude Desktop / Cursor file as it is: stdio and URL servers, their extra fields ignored, disabled ones skipped', () => {
    const path = file(
      'claude.json',
      JSON.stringify({
        mcpServers: {
          filesystem: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/srv/files'], autoApprove: [] },
          memory: { type: 'stdio', command: 'mcp-memory', env: { MEMORY_FILE: '/data/memory.json' }, cwd: 'servers' },
          remote: { url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer t0ken' }, type: 'sse' },
          off: { command: 'nothing', disabled: true },
        },
        globalShortcut: 'Ctrl+Space',
      }),
    );
    expect(loadInstanceMcpConfig(path)).toEqual([
      { kind: 'stdio', name: 'filesystem', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/srv/files'], env: {} },
      { kind: 'stdio', name: 'memory', command: 'mcp-memory', args: [], env: { MEMORY_FILE: '/data/memory.json' }, cwd: join(dir, 'servers') },
      { kind: 'url', name: 'remote', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer t0ken' }, transport: 'sse' },
    ]);
    expect(loadConfig({ BATON_MCP_CONFIG: path }).mcpServers).toHaveLength(3);
    expect(loadConfig({}).mcpServers).toEqual([]);
  });

  it('refuses a bad file with an error naming the file, the entry and the problem', () => {
    const cases: [unknown, RegExp][] = [
      [{}, /mcpServers: /],
      [{ mcpServers: { x: { command: 'a', url: 'https://a.example' } } }, /mcpServers\.x: needs either "command" \(a stdio server\) or "url"/],
      [{ mcpServers: { x: {} } }, /mcpServers\.x: needs either/],
      [{ mcpServers: { x: { command: '' } } }, /mcpServers\.x\.command: must not be empty/],
      [{ mcpServers: { x: { command: 'a', args: 'not an array' } } }, /mcpServers\.x\.args: /],
      [{ mcpServers: { x: { command: 'a', env: { A: 1 } } } }, /mcpServers\.x\.env\.A: /],
      [{ mcpServers: { x: { url: 'ftp://example.com' } } }, /mcpServers\.x\.url: must be an http\(s\) URL/],
      [{ mcpServers: { 'has space': { command: 'a' } } }, /server names are letters, digits/],
      [{ mcpServers: { Files: { command: 'a' }, files: { command: 'b' } } }, /mcpServers\.files: another server has the same name/],
    ];
    for (const [raw, message] of cases) {
      expect(() => parseInstanceMcpConfig(raw, '/etc/baton/mcp.json')).toThrow(message);
      expect(() => parseInstanceMcpConfig(raw, '/etc/baton/mcp.json')).toThrow(/^BATON_MCP_CONFIG \(\/etc\/baton\/mcp\.json\): /);
    }
    expect(() => loadInstanceMcpConfig(file('broken.json', '{ "mcpServers": { '))).toThrow(/BATON_MCP_CONFIG \(.*broken\.json\): not valid JSON/);
    expect(() => loadInstanceMcpConfig(join(dir, 'missing.json'))).toThrow(/BATON_MCP_CONFIG: cannot read .*missing\.json \(ENOENT\)/);
    expect(() => loadConfig({ BATON_MCP_CONFIG: join(dir, 'missing.json') })).toThrow(/BATON_MCP_CONFIG/);
  });

  it('gives a process PATH, HOME, LANG and TMPDIR of the backend, the file’s env over them, and nothing else', () => {
    const backend = {
      PATH: '/usr/bin',
      HOME: '/home/baton',
      LANG: 'C.UTF-8',
      TMPDIR: '/tmp',
      DATABASE_URL: 'postgres://secret',
      BATON_SECRET_KEY: 'k',
      OPENAI_API_KEY: 'sk',
    };
    expect(stdioEnvironment({ TOKEN: 't', LANG: 'de_DE.UTF-8' }, backend)).toEqual({
      PATH: '/usr/bin',
      HOME: '/home/baton',
      LANG: 'de_DE.UTF-8',
      TMPDIR: '/tmp',
      TOKEN: 't',
    });
  });
});
