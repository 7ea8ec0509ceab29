import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { agent } from '../src/db/schema';
import { json, useTestApp } from './support/test-app';

const t = useTestApp();

/** Each test in its own workspace, so one test's leftovers never fail another. */
async function newWorkspace() {
  const ws = await json(await t.request('/api/workspaces', { json: { name: 'Race' } }));
  const agents = `/api/workspaces/${ws.id}/agents`;
  return {
    agents,
    async createAgent(body: Record<string, unknown>) {
      const res = await t.request(agents, { json: body });
      expect(res.status, await res.clone().text()).toBe(201);
      return json(res);
    },
    /** Ids in a subAgentIds list that name no agent. */
    async danglingSubAgentIds() {
      const rows = await t.handle.db.select({ id: agent.id, subAgentIds: agent.subAgentIds }).from(agent).where(eq(agent.workspaceId, ws.id));
      const ids = new Set(rows.map((r) => r.id));
      return rows.flatMap((r) => r.subAgentIds.filter((id) => !ids.has(id)).map((id) => `${r.id} → ${id}`));
    },
  };
}

// PGlite runs one statement at a time, so only real Postgres can interleave the two transactions.
describe.skipIf(!process.env.DATABASE_URL)('saving sub-agents while one of them is deleted (Postgres)', () => {
  it('never leaves a dangling id: the PATCH either wins and is unlinked by the delete, or fails with 400', async () => {
    const { agents, createAgent, danglingSubAgentIds } = await newWorkspace();
    for (let i = 0; i < 30; i++) {
      const parent = await createAgent({ name: `Parent ${i}` });
      const sub = await createAgent({ name: `Sub ${i}` });
      const [patch, del] = await Promise.all([
        t.request(`${agents}/${parent.id}`, { method: 'PATCH', json: { subAgentIds: [sub.id] } }),
        t.request(`${agents}/${sub.id}`, { method: 'DELETE' }),
      ]);
      expect([200, 400], await patch.clone().text()).toContain(patch.status);
      expect(del.status).toBe(204);
      expect(await danglingSubAgentIds()).toEqual([]);
    }
  });

  it('the same when the PATCH sends back a list that already held the sub-agent', async () => {
    const { agents, createAgent, danglingSubAgentIds } = await newWorkspace();
    for (let i = 0; i < 30; i++) {
      const sub = await createAgent({ name: `Listed sub ${i}` });
      const parent = await createAgent({ name: `Listing parent ${i}`, subAgentIds: [sub.id] });
      const [patch, del] = await Promise.all([
        t.request(`${agents}/${parent.id}`, { method: 'PATCH', json: { name: `Renamed ${i}`, subAgentIds: [sub.id] } }),
        t.request(`${agents}/${sub.id}`, { method: 'DELETE' }),
      ]);
      expect([200, 400], await patch.clone().text()).toContain(patch.status);
      expect(del.status).toBe(204);
      expect(await danglingSubAgentIds()).toEqual([]);
    }
  });

  it('the same for a new agent created with the sub-agent', async () => {
    const { agents, createAgent, danglingSubAgentIds } = await newWorkspace();
    for (let i = 0; i < 30; i++) {
      const sub = await createAgent({ name: `New sub ${i}` });
      const [create, del] = await Promise.all([
        t.request(agents, { json: { name: `New parent ${i}`, subAgentIds: [sub.id] } }),
        t.request(`${agents}/${sub.id}`, { method: 'DELETE' }),
      ]);
      expect([201, 400], await create.clone().text()).toContain(create.status);
      expect(del.status).toBe(204);
      expect(await danglingSubAgentIds()).toEqual([]);
    }
  });

  it('two agents can be made each other’s sub-agents at the same time without a deadlock', async () => {
    const { agents, createAgent } = await newWorkspace();
    for (let i = 0; i < 30; i++) {
      const a = await createAgent({ name: `Mutual A ${i}` });
      const b = await createAgent({ name: `Mutual B ${i}` });
      const [pa, pb] = await Promise.all([
        t.request(`${agents}/${a.id}`, { method: 'PATCH', json: { subAgentIds: [b.id] } }),
        t.request(`${agents}/${b.id}`, { method: 'PATCH', json: { subAgentIds: [a.id] } }),
      ]);
      expect([pa.status, pb.status]).toEqual([200, 200]);
    }
  });
});

describe('a stored list that already holds an id of a deleted agent', () => {
  it('can be sent back unchanged: the missing id is dropped, a newly added missing id is still refused', async () => {
    const { agents, createAgent } = await newWorkspace();
    const kept = await createAgent({ name: 'Kept' });
    const parent = await createAgent({ name: 'Legacy parent', subAgentIds: [kept.id] });
    // Data written before deletes and saves were serialised: an id that no longer exists.
    await t.handle.db
      .update(agent)
      .set({ subAgentIds: [kept.id, 'agent_gone'] })
      .where(eq(agent.id, parent.id));

    const res = await t.request(`${agents}/${parent.id}`, { method: 'PATCH', json: { name: 'Renamed', subAgentIds: [kept.id, 'agent_gone'] } });
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await json(res)).subAgentIds).toEqual([kept.id]);

    const before = await t.snapshot();
    const added = await t.request(`${agents}/${parent.id}`, { method: 'PATCH', json: { subAgentIds: [kept.id, 'agent_never'] } });
    expect(added.status).toBe(400);
    expect((await json(added)).error.message).toContain('agent_never');
    expect(await t.snapshot()).toBe(before);
  });
});
