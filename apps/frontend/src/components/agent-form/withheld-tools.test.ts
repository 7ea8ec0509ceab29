import { DEFAULT_DELEGATION_SETTINGS, type Agent, type WorkspaceTool } from '@baton/schemas';
import { describe, expect, it } from 'vitest';
import { withheldByDelegators } from './withheld-tools';

const agent = (id: string, fields: Partial<Agent> = {}): Agent =>
  ({
    id,
    name: id.toUpperCase(),
    toolIds: [],
    subAgentIds: [],
    delegation: { ...DEFAULT_DELEGATION_SETTINGS },
    ...fields,
  }) as Agent;
const tool = (id: string, name: string): WorkspaceTool => ({ id, name, description: '', source: 'mcp', serverId: 's1', serverName: 'Facts', available: true });
const tools = [tool('mcp:s1:lookup_fact', 'lookup_fact'), tool('calculator', 'Calculator')];

describe('withheldByDelegators', () => {
  it('names the delegating agents that lack a selected tool under the intersect policy', () => {
    const agents = [agent('lead', { subAgentIds: ['res'], toolIds: ['calculator'] }), agent('res'), agent('other')];
    expect(withheldByDelegators('res', ['mcp:s1:lookup_fact', 'calculator'], agents, tools)).toEqual([
      { agentId: 'lead', agentName: 'LEAD', toolNames: ['lookup_fact'] },
    ]);
  });

  it('says nothing when the delegating agent has the tools or lets sub-agents use their own', () => {
    const agents = [
      agent('has', { subAgentIds: ['res'], toolIds: ['mcp:s1:lookup_fact'] }),
      agent('own', { subAgentIds: ['res'], delegation: { ...DEFAULT_DELEGATION_SETTINGS, toolPolicy: 'own' } }),
    ];
    expect(withheldByDelegators('res', ['mcp:s1:lookup_fact'], agents, tools)).toEqual([]);
  });

  it('says nothing for a new agent or one without tools', () => {
    const agents = [agent('lead', { subAgentIds: ['res'] })];
    expect(withheldByDelegators(undefined, ['calculator'], agents, tools)).toEqual([]);
    expect(withheldByDelegators('res', [], agents, tools)).toEqual([]);
  });
});
