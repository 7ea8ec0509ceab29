import { DEFAULT_DELEGATION_SETTINGS } from '@baton/schemas';
import { describe, expect, it } from 'vitest';
import { json, useTestApp } from './support/test-app';

const t = useTestApp();
const agents = '/api/workspaces/default/agents';

async function createAgent(body: Record<string, unknown>, base = agents) {
  const res = await t.request(base, { json: body });
  expect(res.status, await res.clone().text()).toBe(201);
  return json(res);
}

describe('agents CRUD', () => {
  it('creates an agent with defaults and reads it back', async () => {
    const created = await createAgent({ name: 'Planner', description: 'Plans things' });
    expect(created).toMatchObject({
      workspaceId: 'default',
      name: 'Planner',
      description: 'Plans things',
      systemPrompt: '',
      providerId: null,
      modelId: null,
      temperature: null,
      maxSteps: 20,
      toolIds: [],
      subAgentIds: [],
      // Not reachable over A2A until someone publishes it.
      a2aPublished: false,
    });
    expect(Date.parse(created.createdAt)).not.toBeNaN();
    const fetched = await json(await t.request(`${agents}/${created.id}`));
    expect(fetched).toEqual(created);
  });

  it('keeps the delegation settings: defaults on create, one field at a time on update, concurrent updates both land', async () => {
    const a = await createAgent({ name: 'Root', delegation: { maxDepth: 2, contextMode: 'summary' } });
    expect(a.delegation).toEqual({ ...DEFAULT_DELEGATION_SETTINGS, maxDepth: 2, contextMode: 'summary' });
    const patch = (delegation: Record<string, unknown>) => t.request(`${agents}/${a.id}`, { method: 'PATCH', json: { delegation } });
    const [r1, r2] = await Promise.all([patch({ maxConcurrent: 3 }), patch({ maxTokensPerTree: 5_000 })]);
    expect([r1.status, r2.status]).toEqual([200, 200]);
    const fetched = await json(await t.request(`${agents}/${a.id}`));
    expect(fetched.delegation).toEqual({ ...DEFAULT_DELEGATION_SETTINGS, maxDepth: 2, contextMode: 'summary', maxConcurrent: 3, maxTokensPerTree: 5_000 });
    for (const bad of [{ maxDepth: 4 }, { maxConcurrent: 0 }, { contextMode: 'everything' }, { maxResultChars: 'lots' }, { unknown: true }]) {
      const res = await patch(bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect((await json(res)).error.code).toBe('invalid_request');
    }
    expect((await json(await t.request(`${agents}/${a.id}`))).delegation).toEqual(fetched.delegation);
  });

  it('patches only the given fields', async () => {
    const a = await createAgent({ name: 'Patchable', systemPrompt: 'Be brief.' });
    const res = await t.request(`${agents}/${a.id}`, { method: 'PATCH', json: { temperature: 0.3, maxSteps: 5 } });
    expect(res.status).toBe(200);
    const updated = await json(res);
    expect(updated).toMatchObject({ name: 'Patchable', systemPrompt: 'Be brief.', temperature: 0.3, maxSteps: 5 });
    expect(Date.parse(updated.updatedAt)).toBeGreaterThanOrEqual(Date.parse(a.updatedAt));
  });

  it('lists agents page by page', async () => {
    const ws = await json(await t.request('/api/workspaces', { json: { name: 'Paging' } }));
    const base = `/api/workspaces/${ws.id}/agents`;
    // A new workspace starts with the three starter agents (oldest first, so listed first).
    for (let i = 0; i < 4; i++) await createAgent({ name: `Agent ${i}` }, base);
    const names: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: { data: { name: string }[]; nextCursor: string | null } = await json(await t.request(`${base}?limit=2${cursor ? `&cursor=${cursor}` : ''}`));
      names.push(...page.data.map((a) => a.name));
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(4);
    expect(names.slice(0, 3).sort()).toEqual(['Assistant', 'Researcher', 'Writer']);
    expect(names.slice(3)).toEqual(['Agent 0', 'Agent 1', 'Agent 2', 'Agent 3']);
  });

  it('deletes an agent and returns 204, then 404', async () => {
    const a = await createAgent({ name: 'Short-lived' });
    expect((await t.request(`${agents}/${a.id}`, { method: 'DELETE' })).status).toBe(204);
    const res = await t.request(`${agents}/${a.id}`);
    expect(res.status).toBe(404);
    expect((await json(res)).error.code).toBe('not_found');
    expect((await t.request(`${agents}/${a.id}`, { method: 'DELETE' })).status).toBe(404);
  });
});

describe('subAgentIds', () => {
  it('accepts agents of the same workspace', async () => {
    const r = await createAgent({ name: 'Researcher' });
    const w = await createAgent({ name: 'Writer' });
    const parent = await createAgent({ name: 'Lead', subAgentIds: [r.id, w.id] });
    expect(parent.subAgentIds).toEqual([r.id, w.id]);
  });

  it('rejects the agent itself on update, naming the id, and writes nothing', async () => {
    const a = await createAgent({ name: 'Self' });
    const before = await t.snapshot();
    const res = await t.request(`${agents}/${a.id}`, { method: 'PATCH', json: { name: 'Renamed', subAgentIds: [a.id] } });
    expect(res.status).toBe(400);
    const body = await json(res);
    expect(body.error.code).toBe('invalid_request');
    expect(body.error.message).toContain(a.id);
    expect(await t.snapshot()).toBe(before);
  });

  it('rejects unknown ids, duplicates and ids of another workspace', async () => {
    const other = await json(await t.request('/api/workspaces', { json: { name: 'Other' } }));
    const foreign = await createAgent({ name: 'Foreign' }, `/api/workspaces/${other.id}/agents`);
    const local = await createAgent({ name: 'Local' });
    const cases = [
      { ids: ['agent_missing'], offending: 'agent_missing' },
      { ids: [local.id, local.id], offending: local.id },
      { ids: [foreign.id], offending: foreign.id },
    ];
    for (const { ids, offending } of cases) {
      const before = await t.snapshot();
      const res = await t.request(agents, { json: { name: 'Bad parent', subAgentIds: ids } });
      expect(res.status).toBe(400);
      expect((await json(res)).error.message).toContain(offending);
      const patch = await t.request(`${agents}/${local.id}`, { method: 'PATCH', json: { subAgentIds: ids } });
      expect(patch.status).toBe(400);
      expect(await t.snapshot()).toBe(before);
    }
  });

  it('deleting an agent removes it from every sub-agent list', async () => {
    const sub = await createAgent({ name: 'Helper' });
    const keep = await createAgent({ name: 'Keeper' });
    const p1 = await createAgent({ name: 'P1', subAgentIds: [sub.id, keep.id] });
    const p2 = await createAgent({ name: 'P2', subAgentIds: [sub.id] });
    expect((await t.request(`${agents}/${sub.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await json(await t.request(`${agents}/${p1.id}`))).subAgentIds).toEqual([keep.id]);
    expect((await json(await t.request(`${agents}/${p2.id}`))).subAgentIds).toEqual([]);
  });

  it('allows an agent with sub-agents to be a sub-agent itself (depth is limited at run time)', async () => {
    const leaf = await createAgent({ name: 'Leaf' });
    const middle = await createAgent({ name: 'Middle', subAgentIds: [leaf.id] });
    const top = await createAgent({ name: 'Top', subAgentIds: [middle.id] });
    expect(top.subAgentIds).toEqual([middle.id]);
  });
});

describe('providerId', () => {
  it('must name a provider of this workspace', async () => {
    const res = await t.request(agents, { json: { name: 'X', providerId: 'prov_nope', modelId: 'm' } });
    expect(res.status).toBe(400);
    expect((await json(res)).error.message).toContain('prov_nope');
    const prov = await json(
      await t.request('/api/workspaces/default/providers', { json: { name: 'Local', baseUrl: 'http://localhost:11434/v1', modelIds: ['llama3'] } }),
    );
    const a = await createAgent({ name: 'Uses provider', providerId: prov.id, modelId: 'llama3' });
    expect(a.providerId).toBe(prov.id);
    // Removing the provider leaves the agent on the default model rather than dangling.
    expect((await t.request(`/api/workspaces/default/providers/${prov.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await json(await t.request(`${agents}/${a.id}`))).providerId).toBeNull();
  });
});
