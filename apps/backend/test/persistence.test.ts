import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ownerSession, startBackend } from './support/backend-process';
import { withCredentials } from './support/credentials';

// The embedded default must keep data across restarts: this runs the real server twice
// on one PGlite data directory, whatever database the rest of the suite uses.
const signedInFetch = (url: string, init: RequestInit = {}) => fetch(url, { ...init, headers: withCredentials(init.headers) });
describe('embedded PGlite persistence', () => {
  let dataDir: string;
  afterAll(async () => {
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('keeps agents and chats across a backend restart, and migrations run once', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'baton-persist-'));
    const env = { DATABASE_URL: undefined, BATON_DATA_DIR: dataDir, PORT: '0' };

    const first = await startBackend(env);
    let agentId: string;
    try {
      expect(await (await fetch(`${first.url}/api/health`)).json()).toEqual({ status: 'ok', database: 'pglite' });
      await ownerSession(first);
      // A first start seeds the starter agents so delegation can be tried at once.
      const starters = await (await signedInFetch(`${first.url}/api/workspaces/default/agents`)).json();
      const byName = Object.fromEntries(starters.data.map((a: { name: string }) => [a.name, a]));
      expect(Object.keys(byName).sort()).toEqual(['Assistant', 'Researcher', 'Writer']);
      expect(byName.Assistant.subAgentIds.sort()).toEqual([byName.Researcher.id, byName.Writer.id].sort());
      const agent = await (
        await signedInFetch(`${first.url}/api/workspaces/default/agents`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'Survivor' }),
        })
      ).json();
      agentId = agent.id;
      const chat = await signedInFetch(`${first.url}/api/workspaces/default/chats`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ agentId, title: 'Remember me' }),
      });
      expect(chat.status).toBe(201);
    } finally {
      await first.stop();
    }

    const second = await startBackend(env);
    try {
      // The session made on the first run is still valid (stored, same secret key).
      const agent = await (await signedInFetch(`${second.url}/api/workspaces/default/agents/${agentId}`)).json();
      expect(agent.name).toBe('Survivor');
      // Not seeded twice.
      const agents = await (await signedInFetch(`${second.url}/api/workspaces/default/agents`)).json();
      expect(agents.data).toHaveLength(4);
      const chats = await (await signedInFetch(`${second.url}/api/workspaces/default/chats`)).json();
      expect(chats.data.map((c: { title: string }) => c.title)).toContain('Remember me');
      const workspaces = await (await signedInFetch(`${second.url}/api/workspaces`)).json();
      expect(workspaces.data.filter((w: { id: string }) => w.id === 'default')).toHaveLength(1);
    } finally {
      await second.stop();
    }
    // Two process starts: on a machine loaded by other suites, each can take well over 10 s.
  }, 150_000);
});
