import { describe, expect, it } from 'vitest';
import { modelToolNames } from './mcp-tools';

const pick = (serverName: string, toolName: string) => ({ serverName, toolName, key: `${serverName}:${toolName}` });

describe('modelToolNames', () => {
  it('keeps a valid, unique MCP tool name as it is', () => {
    expect([...modelToolNames([pick('Facts', 'lookup_fact')], ['calculator', 'newTask']).values()]).toEqual(['lookup_fact']);
  });

  it('prefixes the server slug when the name is taken (by another tool or a server before), or not a valid OpenAI function name', () => {
    const names = modelToolNames(
      [pick('Facts', 'search'), pick('Web Tools!', 'search'), pick('Facts', 'calculator'), pick('Files', 'read.file'), pick('Über Server', 'a b')],
      ['calculator'],
    );
    expect([...names.values()]).toEqual(['search', 'web_tools_search', 'facts_calculator', 'files_read_file', 'ber_server_a_b']);
    for (const name of names.values()) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
  });

  it('keeps the first server’s name for a tool whatever servers after it offer the same name', () => {
    const one = modelToolNames([pick('A', 'echo')], []);
    const three = modelToolNames([pick('A', 'echo'), pick('B', 'echo'), pick('C', 'echo')], []);
    expect(one.get('A:echo')).toBe('echo');
    expect([...three.values()]).toEqual(['echo', 'b_echo', 'c_echo']);
  });

  it('cuts long names to 64 characters and numbers what still collides', () => {
    const long = 'x'.repeat(70);
    const names = [...modelToolNames([pick('S', long), pick('S', `${long}y`)], []).values()];
    expect(names[0]).toHaveLength(64);
    expect(names[1]).toHaveLength(64);
    expect(names[1]).toMatch(/_2$/);
    expect(new Set(names).size).toBe(2);
  });
});
