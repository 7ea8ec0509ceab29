import { count } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { agent, user, workspaceMember } from '../src/db/schema';
import { seedStarterAgents } from '../src/services/starter-agents';
import { signUp, TEST_PASSWORD } from './support/accounts';
import { json, useTestApp } from './support/test-app';

// A fresh instance (no account yet), with open sign-up and a tight sign-in limit.
const t = useTestApp({ withOwner: false, openSignup: true, signInAttemptsPerMinute: 3 });
// Each from its own address: sign-ups count against the per-address limit too.
const post = (path: string, body: unknown, from: string) =>
  t.anonymous(path, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': from }, body: JSON.stringify(body) });

describe('a fresh instance', () => {
  it('asks for its owner, and of five sign-ups at once exactly one becomes the owner', async () => {
    // The default workspace's starter agents are seeded at start-up, before anyone signs up.
    expect(await seedStarterAgents(t.handle.db)).toBe(true);
    expect(await json(await t.anonymous('/api/auth-status'))).toEqual({ needsOwner: true, openSignup: true, mail: false, sso: null });
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        post('/api/auth/sign-up/email', { name: `First ${i}`, email: `first${i}@baton.test`, password: TEST_PASSWORD }, `192.0.2.${i}`),
      ),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    const owners = await t.handle.db.select().from(workspaceMember);
    // With open sign-up the others get workspaces of their own; the default one has one owner.
    expect(owners.filter((m) => m.workspaceId === 'default')).toEqual([expect.objectContaining({ role: 'owner' })]);
    expect(owners.filter((m) => m.workspaceId !== 'default').map((m) => m.role)).toEqual(['owner', 'owner', 'owner', 'owner']);
    // The owner becomes the author of those starter agents (each new workspace's are its creator's).
    const ownerId = owners.find((m) => m.workspaceId === 'default')!.userId;
    const agents = await t.handle.db.select().from(agent);
    expect(agents.length).toBe(3 * 5);
    for (const a of agents) expect(a.authorId, a.name).toBe(owners.find((m) => m.workspaceId === a.workspaceId)!.userId);
    expect(agents.filter((a) => a.authorId === ownerId).map((a) => a.workspaceId)).toEqual(['default', 'default', 'default']);
    const [users] = await t.handle.db.select({ n: count() }).from(user);
    expect(Number(users!.n)).toBe(5);
    expect(await json(await t.anonymous('/api/auth-status'))).toEqual({ needsOwner: false, openSignup: true, mail: false, sso: null });
  });

  it('an open sign-up gets a workspace of its own with the starter agents, and nothing of anyone else', async () => {
    const fromElsewhere = (path: string, init?: RequestInit) => t.anonymous(path, { ...init, headers: { ...init?.headers, 'x-forwarded-for': '192.0.2.99' } });
    const newcomer = await signUp(fromElsewhere, { email: 'newcomer@baton.test', name: 'Newcomer' });
    const me = await json(await t.anonymous('/api/me', { headers: { cookie: newcomer.cookie } }));
    expect(me.memberships).toEqual([{ workspaceId: expect.stringMatching(/^ws_/), workspaceName: "Newcomer's workspace", role: 'owner' }]);
    const agents = await json(await t.anonymous(`/api/workspaces/${me.memberships[0].workspaceId}/agents`, { headers: { cookie: newcomer.cookie } }));
    expect(agents.data.map((a: { name: string }) => a.name).sort()).toEqual(['Assistant', 'Researcher', 'Writer']);
    expect((await t.anonymous('/api/workspaces/default/agents', { headers: { cookie: newcomer.cookie } })).status).toBe(404);
  });

  it('repeated sign-in attempts from one address are slowed down (429, Baton’s error shape)', async () => {
    const attempt = () =>
      t.anonymous('/api/auth/sign-in/email', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.7' },
        body: JSON.stringify({ email: 'first0@baton.test', password: 'wrong password' }),
      });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await attempt()).status);
    expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
    expect(statuses.slice(3)).toEqual([429, 429]);
    const limited = await json(await attempt());
    expect(limited.error).toMatchObject({ code: 'too_many_requests', message: expect.stringContaining('try again') });
    // Another address is not affected; the header a client sends about itself is not trusted beyond the last hop.
    const other = await t.anonymous('/api/auth/sign-in/email', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.7, 198.51.100.9' },
      body: JSON.stringify({ email: 'first0@baton.test', password: TEST_PASSWORD }),
    });
    expect(other.status).toBe(200);
  });

  it('every other way in is limited the same: reset links, reset mails, password changes, single sign-on', async () => {
    const from = '203.0.113.50';
    for (const [path, body] of [
      ['/api/auth/reset-password', { token: 'guessed-token', newPassword: 'a long enough password' }],
      ['/api/auth/change-password', { currentPassword: 'guessed password', newPassword: 'a long enough password' }],
      ['/api/auth/callback/oidc?code=guessed&state=guessed', undefined],
    ] as const) {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        const res = body ? await post(path, body, from) : await t.anonymous(path, { headers: { 'x-forwarded-for': from } });
        statuses.push(res.status);
      }
      expect(statuses.slice(0, 3), path).not.toContain(429);
      expect(statuses.slice(3), path).toEqual([429, 429]);
    }
  });
});
