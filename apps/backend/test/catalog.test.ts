import { describe, expect, it } from 'vitest';
import { json, useTestApp } from './support/test-app';

const t = useTestApp();

describe('catalog', () => {
  it('lists the built-in tools', async () => {
    const body = await json(await t.request('/api/tools'));
    expect(body.data.map((x: { id: string }) => x.id).sort()).toEqual(['calculator', 'currentTime']);
    for (const tool of body.data) expect(tool.description.length).toBeGreaterThan(10);
  });

  it('says which default model is active', async () => {
    expect(await json(await t.request('/api/models'))).toEqual({
      default: { kind: 'demo', modelId: 'baton-demo', demoSyntax: '/delegate <sub-agent name>: <task>' },
    });
  });

  it('rejects unknown and duplicate tool ids on agents, naming them', async () => {
    const before = await t.snapshot();
    const unknown = await t.request('/api/workspaces/default/agents', { json: { name: 'T', toolIds: ['calculator', 'rm-rf'] } });
    expect(unknown.status).toBe(400);
    expect((await json(unknown)).error.message).toContain('rm-rf');
    const dup = await t.request('/api/workspaces/default/agents', { json: { name: 'T', toolIds: ['calculator', 'calculator'] } });
    expect(dup.status).toBe(400);
    expect(await t.snapshot()).toBe(before);
    const ok = await t.request('/api/workspaces/default/agents', { json: { name: 'T', toolIds: ['calculator'] } });
    expect(ok.status).toBe(201);
  });
});
