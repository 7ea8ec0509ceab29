import { readFile } from 'node:fs/promises';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { agent, workspace } from '../src/db/schema';
import { seedStarterAgents } from '../src/services/starter-agents';
import { json, useTestApp } from './support/test-app';

const t = useTestApp();

let wsCount = 0;
/** Each test in its own workspace, so names used by one never collide with another's. */
async function newWorkspace() {
  const ws = await json(await t.request('/api/workspaces', { json: { name: `Names ${++wsCount}` } }));
  const agents = `/api/workspaces/${ws.id}/agents`;
  return {
    id: ws.id as string,
    agents,
    create: (body: Record<string, unknown>) => t.request(agents, { json: body }),
    async createOk(body: Record<string, unknown>) {
      const res = await t.request(agents, { json: body });
      expect(res.status, await res.clone().text()).toBe(201);
      return json(res);
    },
    rename: (id: string, name: string) => t.request(`${agents}/${id}`, { method: 'PATCH', json: { name } }),
    async names() {
      const rows = await t.handle.db.select({ name: agent.name }).from(agent).where(eq(agent.workspaceId, ws.id));
      return rows.map((r) => r.name).sort();
    },
  };
}

async function expectNameConflict(res: Response, name: string) {
  expect(res.status, await res.clone().text()).toBe(409);
  const message = `An agent named "${name}" already exists in this workspace`;
  expect(await json(res)).toEqual({ error: { code: 'conflict', message, details: [{ path: ['name'], message }] } });
}

describe('agent names are unique per workspace', () => {
  it('refuses a second agent of the same name with 409 and writes nothing', async () => {
    const ws = await newWorkspace();
    await ws.createOk({ name: 'Critic' });
    const before = await t.snapshot();
    await expectNameConflict(await ws.create({ name: 'Critic', description: 'another one' }), 'Critic');
    expect(await t.snapshot()).toBe(before);
  });

  it('compares names case-insensitively, after trimming', async () => {
    const ws = await newWorkspace();
    await ws.createOk({ name: 'Critic' });
    await expectNameConflict(await ws.create({ name: 'critic' }), 'critic');
    await expectNameConflict(await ws.create({ name: '  CRITIC ' }), 'CRITIC');
    expect((await ws.names()).filter((n) => n.toLowerCase() === 'critic')).toEqual(['Critic']);
  });

  it('refuses renaming into another agent’s name, but an agent may change the case of its own', async () => {
    const ws = await newWorkspace();
    const critic = await ws.createOk({ name: 'Critic' });
    const editor = await ws.createOk({ name: 'Editor' });
    await expectNameConflict(await ws.rename(editor.id, 'CRITIC'), 'CRITIC');
    expect((await json(await t.request(`${ws.agents}/${editor.id}`))).name).toBe('Editor');

    const recased = await ws.rename(critic.id, 'CRITIC');
    expect(recased.status, await recased.clone().text()).toBe(200);
    expect((await json(recased)).name).toBe('CRITIC');
    // A PATCH that leaves the name out never conflicts.
    const other = await t.request(`${ws.agents}/${editor.id}`, { method: 'PATCH', json: { description: 'Edits' } });
    expect(other.status).toBe(200);
  });

  it('of two creates of one name at once, exactly one succeeds and the other is 409', async () => {
    const ws = await newWorkspace();
    for (let i = 0; i < 10; i++) {
      const name = `Twin ${i}`;
      const results = await Promise.all([ws.create({ name }), ws.create({ name: name.toUpperCase() })]);
      const statuses = results.map((r) => r.status).sort();
      expect(statuses, await Promise.all(results.map((r) => r.clone().text())).then((b) => b.join('\n'))).toEqual([201, 409]);
      const loser = results.find((r) => r.status === 409)!;
      expect((await json(loser)).error.details).toEqual([{ path: ['name'], message: expect.stringContaining('already exists in this workspace') }]);
      expect((await ws.names()).filter((n) => n.toLowerCase() === name.toLowerCase())).toHaveLength(1);
    }
  });

  it('of two renames into one name at once, exactly one succeeds', async () => {
    const ws = await newWorkspace();
    for (let i = 0; i < 5; i++) {
      const a = await ws.createOk({ name: `Left ${i}` });
      const b = await ws.createOk({ name: `Right ${i}` });
      const results = await Promise.all([ws.rename(a.id, `Middle ${i}`), ws.rename(b.id, `middle ${i}`)]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    }
  });

  it('another workspace may use the same name', async () => {
    const one = await newWorkspace();
    const two = await newWorkspace();
    await one.createOk({ name: 'Critic' });
    await two.createOk({ name: 'critic' });
    // The starter agents of every new workspace are named alike, too.
    expect(await one.names()).toEqual(expect.arrayContaining(['Assistant', 'Researcher', 'Writer']));
    expect(await two.names()).toEqual(expect.arrayContaining(['Assistant', 'Researcher', 'Writer']));
  });
});

describe('the migration that makes names unique', () => {
  it('renames later duplicates " (2)", " (3)", … (skipping taken names) before creating the index', async () => {
    const db = t.handle.db;
    await db.execute(sql`DROP INDEX agent_workspace_name_unique`);
    const ws = await newWorkspace();
    const other = await newWorkspace();
    const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s));
    await db.insert(agent).values([
      { id: 'dup_a1', workspaceId: ws.id, name: 'Critic', createdAt: at(1) },
      { id: 'dup_a2', workspaceId: ws.id, name: 'critic', createdAt: at(2) },
      { id: 'dup_a3', workspaceId: ws.id, name: 'CRITIC', createdAt: at(3) },
      { id: 'dup_a4', workspaceId: ws.id, name: 'Critic (2)', createdAt: at(4) },
      { id: 'dup_b1', workspaceId: other.id, name: 'Critic', createdAt: at(5) },
      { id: 'dup_c1', workspaceId: ws.id, name: 'x'.repeat(200), createdAt: at(6) },
      { id: 'dup_c2', workspaceId: ws.id, name: 'X'.repeat(200), createdAt: at(7) },
    ]);
    const file = await readFile(new URL('../drizzle/0004_unique_agent_names.sql', import.meta.url), 'utf8');
    for (const statement of file.split('--> statement-breakpoint')) await db.execute(sql.raw(statement));

    const rows = await db.select({ id: agent.id, name: agent.name }).from(agent).where(sql`${agent.id} like 'dup_%'`);
    expect(Object.fromEntries(rows.map((r) => [r.id, r.name]))).toEqual({
      dup_a1: 'Critic',
      dup_a2: 'critic (3)',
      dup_a3: 'CRITIC (4)',
      dup_a4: 'Critic (2)',
      dup_b1: 'Critic',
      dup_c1: 'x'.repeat(200),
      dup_c2: `${'X'.repeat(196)} (2)`,
    });
    // The index is back and enforced.
    await expectNameConflict(await ws.create({ name: 'critic (3)' }), 'critic (3)');
  });
});

// PGlite runs one statement at a time, so only real Postgres can interleave the two transactions.
describe.skipIf(!process.env.DATABASE_URL)('seeding the starter agents (Postgres)', () => {
  it('gives up, seeding nothing, when an agent of a starter’s name is created meanwhile', async () => {
    const db = t.handle.db;
    await db.insert(workspace).values({ id: 'ws_seed_race', name: 'Seed race' });
    let seeded: Promise<boolean> | undefined;
    await db.transaction(async (tx) => {
      await tx.insert(agent).values({ id: 'agent_user_writer', workspaceId: 'ws_seed_race', name: 'writer' });
      // The seed sees an empty workspace (the insert above is not committed) and waits on the index.
      seeded = seedStarterAgents(db, 'ws_seed_race');
      for (let i = 0; i < 200; i++) {
        const [waiting] = await db
          .execute<{ n: number }>(sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`)
          .then((r) => (r as unknown as { rows: { n: number }[] }).rows);
        if (waiting!.n > 0) break;
        await new Promise((r) => setTimeout(r, 20));
      }
    });
    expect(await seeded).toBe(false);
    const rows = await db
      .select({ name: agent.name })
      .from(agent)
      .where(and(eq(agent.workspaceId, 'ws_seed_race')));
    expect(rows.map((r) => r.name)).toEqual(['writer']);
  });
});
