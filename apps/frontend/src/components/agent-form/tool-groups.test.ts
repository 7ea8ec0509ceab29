import type { WorkspaceTool } from '@baton/schemas';
import { describe, expect, it } from 'vitest';
import { groupTools } from './tool-groups';

const builtIn = (id: string): WorkspaceTool => ({
  id,
  name: id,
  description: `${id} tool`,
  source: 'builtIn',
  serverId: null,
  serverName: null,
  available: true,
});
const mcp = (serverId: string, serverName: string, name: string, available = true): WorkspaceTool => ({
  id: `mcp:${serverId}:${name}`,
  name,
  description: `${name} from ${serverName}`,
  source: 'mcp',
  serverId,
  serverName,
  available,
});

describe('groupTools', () => {
  it('puts built-in tools first, then one group per server in catalog order', () => {
    const groups = groupTools([mcp('s1', 'Facts', 'lookup_fact'), builtIn('calculator'), mcp('s2', 'Maths', 'add'), mcp('s1', 'Facts', 'list_topics')], []);
    expect(groups.map((g) => [g.title, g.rows.map((r) => r.name)])).toEqual([
      ['Built-in', ['calculator']],
      ['Facts', ['lookup_fact', 'list_topics']],
      ['Maths', ['add']],
    ]);
  });

  it('marks selected tools and explains unavailable ones', () => {
    const [, facts] = groupTools([builtIn('calculator'), mcp('s1', 'Facts', 'lookup_fact', false)], ['mcp:s1:lookup_fact']);
    expect(facts!.rows[0]).toMatchObject({ selected: true, available: false });
    expect(facts!.rows[0]!.hint).toMatch(/disabled or could not be listed/);
  });

  it('keeps a selected tool its server no longer lists under that server', () => {
    const groups = groupTools([mcp('s1', 'Facts', 'lookup_fact')], ['mcp:s1:gone']);
    expect(groups).toHaveLength(1);
    expect(groups[0]!.rows.map((r) => [r.name, r.selected, r.available])).toEqual([
      ['lookup_fact', false, true],
      ['gone', true, false],
    ]);
    expect(groups[0]!.rows[1]!.hint).toMatch(/No longer listed/);
  });

  it('keeps selected tools of a removed server and unknown built-ins visible so they can be removed', () => {
    const groups = groupTools([builtIn('calculator')], ['mcp:deleted:lookup_fact', 'old_tool']);
    expect(groups.map((g) => [g.title, g.rows.map((r) => r.id)])).toEqual([
      ['Built-in', ['calculator', 'old_tool']],
      ['Removed tool servers', ['mcp:deleted:lookup_fact']],
    ]);
    expect(groups[1]!.rows[0]).toMatchObject({ name: 'lookup_fact', selected: true, available: false });
  });

  it('is empty without tools or selections', () => {
    expect(groupTools([], [])).toEqual([]);
  });
});
