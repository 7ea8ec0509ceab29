import { describe, expect, it } from 'vitest';
import { type Account, bearer, createApiKey, invite, signIn, signUp, TEST_PASSWORD } from './support/accounts';
import { json, useTestApp } from './support/test-app';

// Sign-up rules (owner first, then by invitation), sessions, roles and API keys, through
// the real better-auth routes on a real database.
const t = useTestApp();
const W = '/api/workspaces/default';
const session = (a: Account) => ({ cookie: a.cookie });
const signUpBody = (email: string, extra: Record<string, unknown> = {}) => ({ name: email.split('@')[0], email, password: TEST_PASSWORD, ...extra });
const anonymousPost = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  t.anonymous(path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

describe('signing up', () => {
  it('the first account owns the default workspace; the instance no longer needs an owner', async () => {
    expect(await json(await t.anonymous('/api/auth-status'))).toEqual({ needsOwner: false, openSignup: false, mail: false, sso: null });
    const me = await json(await t.request('/api/me'));
    expect(me.user).toMatchObject({ id: t.owner.userId, email: 'owner@baton.test', name: 'Owner' });
    expect(me.memberships).toEqual([{ workspaceId: 'default', workspaceName: 'Default', role: 'owner' }]);
  });

  it('without an invitation a second sign-up is refused and writes nothing', async () => {
    const before = await t.snapshot();
    const res = await anonymousPost('/api/auth/sign-up/email', signUpBody('stranger@baton.test'));
    expect(res.status).toBe(403);
    expect((await json(res)).error).toMatchObject({ code: 'forbidden', message: expect.stringContaining('invitation') });
    expect(await t.snapshot()).toBe(before);
  });

  it('an invitation link joins its workspace with its role, once', async () => {
    const token = await invite(t.anonymous, t.owner, 'default', 'admin');
    expect(await json(await t.anonymous(`/api/invitations/${token}`))).toMatchObject({ workspaceId: 'default', workspaceName: 'Default', role: 'admin' });
    const admin = await signUp(t.anonymous, { email: 'admin@baton.test', inviteToken: token });
    const me = await json(await t.request('/api/me', { headers: session(admin) }));
    expect(me.memberships).toEqual([{ workspaceId: 'default', workspaceName: 'Default', role: 'admin' }]);
    // Used: neither a second sign-up nor a preview gets anything from it.
    const before = await t.snapshot();
    const again = await anonymousPost('/api/auth/sign-up/email', signUpBody('late@baton.test', { inviteToken: token }));
    expect(again.status).toBe(404);
    expect((await t.anonymous(`/api/invitations/${token}`)).status).toBe(404);
    expect(await t.snapshot()).toBe(before);
  });

  it('a signed-in person joins another workspace through a link; a revoked link is dead', async () => {
    const other = await json(await t.request('/api/workspaces', { json: { name: 'Side project' } }));
    const member = await signUp(t.anonymous, { email: 'joiner@baton.test', inviteToken: await invite(t.anonymous, t.owner) });
    const token = await invite(t.anonymous, t.owner, other.id);
    const joined = await t.request(`/api/invitations/${token}/accept`, { method: 'POST', headers: session(member) });
    expect(await json(joined)).toEqual({ workspaceId: other.id, workspaceName: 'Side project', role: 'member' });
    const list = await json(await t.request('/api/workspaces', { headers: session(member) }));
    expect(list.data.map((w: { id: string; role: string }) => [w.id, w.role])).toEqual([
      ['default', 'member'],
      [other.id, 'member'],
    ]);
    const revoked = await json(await t.request(`/api/workspaces/${other.id}/invitations`, { json: { role: 'member' } }));
    expect((await t.request(`/api/workspaces/${other.id}/invitations/${revoked.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await t.anonymous(`/api/invitations/${revoked.token}`)).status).toBe(404);
  });

  it('bad sign-up input is a 400 naming the field, never a failed insert', async () => {
    for (const [body, field] of [
      [signUpBody('nul@baton.test', { name: 'a\u0000b' }), 'name'],
      [signUpBody('not-an-email'), 'email'],
      [signUpBody('short@baton.test', { password: 'short' }), 'password'],
      [{ email: 'x@baton.test' }, 'name'],
    ] as const) {
      const before = await t.snapshot();
      const res = await anonymousPost('/api/auth/sign-up/email', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await json(res)).error.message).toContain(field);
      expect(await t.snapshot()).toBe(before);
    }
  });
});

describe('signing in', () => {
  it('a wrong password is 401 in Baton’s error shape; the right one sets an httpOnly, SameSite=Lax session cookie', async () => {
    const wrong = await anonymousPost('/api/auth/sign-in/email', { email: 'owner@baton.test', password: 'not the password' });
    expect(wrong.status).toBe(401);
    expect((await json(wrong)).error.code).toBe('invalid_email_or_password');
    const ok = await anonymousPost('/api/auth/sign-in/email', { email: 'owner@baton.test', password: TEST_PASSWORD });
    expect(ok.status).toBe(200);
    const cookie = ok.headers.getSetCookie().find((c) => c.startsWith('baton.session_token='))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).not.toMatch(/Secure/i);
  });

  it('scripts sign in without an Origin (Node fetch adds Sec-Fetch headers); another site’s page cannot', async () => {
    const body = JSON.stringify({ email: 'owner@baton.test', password: TEST_PASSWORD });
    const post = (headers: Record<string, string>) =>
      t.anonymous('/api/auth/sign-in/email', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
    expect((await post({ 'sec-fetch-mode': 'cors', 'sec-fetch-site': 'same-origin', 'sec-fetch-dest': 'empty' })).status).toBe(200);
    const forged = await post({ origin: 'https://evil.example', 'sec-fetch-mode': 'cors', 'sec-fetch-site': 'cross-site' });
    expect(forged.status).toBe(403);
    expect(forged.headers.getSetCookie()).toEqual([]);
  });

  it('signing out ends the session', async () => {
    const a = await signIn(t.anonymous, 'owner@baton.test');
    expect((await t.request('/api/me', { headers: session(a) })).status).toBe(200);
    // A page of another site cannot sign anyone out; Baton's own page can (browsers send Origin).
    const signOut = (origin: string) =>
      t.request('/api/auth/sign-out', { method: 'POST', headers: { ...session(a), origin, 'content-type': 'application/json' }, body: '{}' });
    expect((await signOut('https://evil.example')).status).toBe(403);
    expect((await t.request('/api/me', { headers: session(a) })).status).toBe(200);
    const out = await signOut('http://localhost:3000');
    expect(out.status).toBe(200);
    expect((await t.request('/api/me', { headers: session(a) })).status).toBe(401);
  });

  it('a session cannot be used from another site: cross-site writes are refused, same-site ones pass', async () => {
    const crossSite: Record<string, string>[] = [{ origin: 'https://evil.example' }, { origin: 'null' }, { 'sec-fetch-site': 'cross-site' }];
    for (const headers of crossSite) {
      const before = await t.snapshot();
      const res = await t.request(`${W}/agents`, { json: { name: 'Forged' }, headers });
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(await t.snapshot()).toBe(before);
    }
    // The web app's own origin (forwarded by its server) and requests without Origin pass.
    const same = await t.request(`${W}/agents`, {
      json: { name: 'Mine' },
      headers: { origin: 'http://localhost:3000', 'x-forwarded-host': 'localhost:3000', 'x-forwarded-proto': 'http' },
    });
    expect(same.status).toBe(201);
    // An API key is not a cookie: no browser attaches it on its own, so Origin does not matter.
    const withKey = await t.request(`${W}/agents`, {
      json: { name: 'Scripted' },
      headers: { ...bearer(t.owner.apiKey), cookie: '', origin: 'https://elsewhere.example' },
    });
    expect(withKey.status).toBe(201);
  });
});

describe('API keys', () => {
  it('are shown once, stored hashed, work with Bearer, and stop working once revoked', async () => {
    const created = await t.request(`${W}/api-keys`, { json: { name: 'ci script' } });
    expect(created.status).toBe(201);
    const key = await json(created);
    expect(key).toEqual({
      id: expect.any(String),
      name: 'ci script',
      key: expect.stringMatching(/^baton_[\w-]{40,}$/),
      prefix: key.key.slice(0, 12),
      createdAt: expect.any(String),
    });
    expect(await t.snapshot()).not.toContain(key.key);
    const listed = (await json(await t.request(`${W}/api-keys`))).data.find((k: { id: string }) => k.id === key.id);
    expect(listed).toEqual({ id: key.id, name: 'ci script', prefix: key.prefix, userId: t.owner.userId, createdAt: key.createdAt, lastUsedAt: null });
    expect(JSON.stringify(listed)).not.toContain(key.key);

    const withKey = { ...bearer(key.key), cookie: '' };
    expect((await t.request(`${W}/agents`, { headers: withKey })).status).toBe(200);
    await expect.poll(async () => (await json(await t.request(`${W}/api-keys`))).data.find((k: { id: string }) => k.id === key.id).lastUsedAt).not.toBeNull();
    expect((await t.request(`${W}/api-keys/${key.id}`, { method: 'DELETE' })).status).toBe(204);
    const after = await t.request(`${W}/agents`, { headers: withKey });
    expect(after.status).toBe(401);
    expect((await json(after)).error.code).toBe('unauthorized');
  });

  it('members see and revoke their own keys; admins see and revoke everyone’s', async () => {
    const member = await signUp(t.anonymous, { email: 'keys@baton.test', inviteToken: await invite(t.anonymous, t.owner) });
    const mine = await createApiKey(t.anonymous, member, 'default', 'member key');
    const memberList = await json(await t.request(`${W}/api-keys`, { headers: session(member) }));
    expect(memberList.data.map((k: { id: string }) => k.id)).toEqual([mine.id]);
    const ownerList = await json(await t.request(`${W}/api-keys`));
    expect(ownerList.data.map((k: { id: string }) => k.id)).toContain(mine.id);
    expect((await t.request(`${W}/api-keys/${mine.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await t.request(`${W}/agents`, { headers: { ...bearer(mine.key), cookie: '' } })).status).toBe(401);
  });
});

describe('members and roles', () => {
  it('chats are private to their author: a member lists none of the owner’s and cannot delegate from them', async () => {
    const agent = await json(await t.request(`${W}/agents`, { json: { name: 'Private' } }));
    const ownersChat = await json(await t.request(`${W}/chats`, { json: { agentId: agent.id, title: 'secret plans' } }));
    const member = await signUp(t.anonymous, { email: 'private@baton.test', inviteToken: await invite(t.anonymous, t.owner) });
    const memberChat = await json(await t.request(`${W}/chats`, { json: { agentId: agent.id, title: 'my own' }, headers: session(member) }));
    const list = await json(await t.request(`${W}/chats`, { headers: session(member) }));
    expect(list.data.map((c: { id: string }) => c.id)).toEqual([memberChat.id]);
    expect((await json(await t.request(`${W}/chats`))).data.map((c: { id: string }) => c.id)).not.toContain(memberChat.id);
    const before = await t.snapshot();
    const res = await t.request(`${W}/chat`, {
      headers: session(member),
      json: {
        id: 'chat_sub_attempt',
        agentId: agent.id,
        parentChatId: ownersChat.id,
        parentToolCallId: 'call_x',
        message: { id: 'm_x', role: 'user', parts: [{ type: 'text', text: 'x' }] },
      },
    });
    expect(res.status).toBe(400);
    expect((await json(res)).error.message).toContain('does not exist');
    expect(await t.snapshot()).toBe(before);
  });

  it('admins change roles and remove members (whose keys go with them); the owner stays, and hands over', async () => {
    const bob = await signUp(t.anonymous, { email: 'bob@baton.test', inviteToken: await invite(t.anonymous, t.owner) });
    const bobKey = await createApiKey(t.anonymous, bob);
    const promoted = await t.request(`${W}/members/${bob.userId}`, { method: 'PATCH', json: { role: 'admin' } });
    expect(await json(promoted)).toMatchObject({ userId: bob.userId, role: 'admin' });
    // An admin cannot touch the owner, nor make anyone owner.
    for (const [method, body] of [
      ['PATCH', { role: 'member' }],
      ['DELETE', undefined],
    ] as const) {
      const res = await t.request(`${W}/members/${t.owner.userId}`, { method, headers: session(bob), ...(body ? { json: body } : {}) });
      expect(res.status).toBe(403);
    }
    const carol = await signUp(t.anonymous, { email: 'carol@baton.test', inviteToken: await invite(t.anonymous, t.owner) });
    expect((await t.request(`${W}/members/${carol.userId}`, { method: 'PATCH', json: { role: 'owner' }, headers: session(bob) })).status).toBe(403);
    // Removing bob revokes his key.
    expect((await t.request(`${W}/members/${bob.userId}`, { method: 'DELETE' })).status).toBe(204);
    expect((await t.request(`${W}/agents`, { headers: { ...bearer(bobKey.key), cookie: '' } })).status).toBe(401);
    expect((await t.request(`${W}/agents`, { headers: session(bob) })).status).toBe(404);
    // Carol leaves by herself.
    expect((await t.request(`${W}/members/${carol.userId}`, { method: 'DELETE', headers: session(carol) })).status).toBe(204);

    // Handing over: a fresh workspace, so the default one keeps its owner for other tests.
    const side = await json(await t.request('/api/workspaces', { json: { name: 'Handover' } }));
    const dana = await signUp(t.anonymous, { email: 'dana@baton.test', inviteToken: await invite(t.anonymous, t.owner, side.id) });
    const handed = await t.request(`/api/workspaces/${side.id}/members/${dana.userId}`, { method: 'PATCH', json: { role: 'owner' } });
    expect(await json(handed)).toMatchObject({ role: 'owner' });
    const members = await json(await t.request(`/api/workspaces/${side.id}/members`));
    expect(Object.fromEntries(members.data.map((m: { email: string; role: string }) => [m.email, m.role]))).toEqual({
      'owner@baton.test': 'admin',
      'dana@baton.test': 'owner',
    });
  });
});
