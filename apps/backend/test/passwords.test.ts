import { describe, expect, it } from 'vitest';
import { verification } from '../src/db/schema';
import { type Account, invitedAccount, signIn, signUp, TEST_PASSWORD } from './support/accounts';
import { json, useTestApp } from './support/test-app';

// Changing a password, and the one-time reset links admins issue when a member forgot theirs
// (no mail server needed), through the real better-auth routes on a real database.
const t = useTestApp({ publicUrl: 'http://baton.example' });
const W = '/api/workspaces/default';
const post = (path: string, body: unknown, who?: Account, headers: Record<string, string> = {}) =>
  t.anonymous(path, {
    method: 'POST',
    // As a browser sends it: better-auth wants the Origin of cookie-authenticated writes.
    headers: { 'content-type': 'application/json', ...(who ? { cookie: who.cookie, origin: 'http://baton.example' } : {}), ...headers },
    body: JSON.stringify(body),
  });
const me = (who: Account) => t.anonymous('/api/me', { headers: { cookie: who.cookie } });
const issueLink = (admin: Account, userId: string, workspace = W) => post(`${workspace}/members/${userId}/password-reset`, {}, admin);
const signInStatus = async (email: string, password: string) => (await post('/api/auth/sign-in/email', { email, password })).status;

describe('changing your password', () => {
  it('needs the current password; signs out every other session and keeps this one', async () => {
    const member = await invitedAccount(t.anonymous, t.owner, 'changer@baton.test');
    const laptop = await signIn(t.anonymous, 'changer@baton.test');
    // Used once before: a session this process has seen (and may remember) must end all the same.
    expect((await me(laptop)).status).toBe(200);
    const wrong = await post('/api/auth/change-password', { currentPassword: 'not it at all', newPassword: 'a brand new password' }, member);
    expect(wrong.status, JSON.stringify(await wrong.clone().json())).toBe(400);
    expect((await json(wrong)).error).toEqual({ code: 'invalid_password', message: 'the current password is wrong' });
    expect(await signInStatus('changer@baton.test', 'a brand new password')).toBe(401);

    const res = await post('/api/auth/change-password', { currentPassword: TEST_PASSWORD, newPassword: 'a brand new password 🔑' }, member);
    expect(res.status).toBe(200);
    const renewed = res.headers
      .getSetCookie()
      .find((c) => c.startsWith('baton.session_token='))!
      .split(';')[0]!;
    expect((await me({ ...member, cookie: renewed })).status).toBe(200);
    // The other sessions, the one that asked included (it got a new cookie), are over.
    expect((await me(laptop)).status).toBe(401);
    expect((await me(member)).status).toBe(401);
    expect(await signInStatus('changer@baton.test', TEST_PASSWORD)).toBe(401);
    expect(await signInStatus('changer@baton.test', 'a brand new password 🔑')).toBe(200);
  });

  it('is refused signed out, with an API key, and for bad input (nothing changes)', async () => {
    const body = { currentPassword: TEST_PASSWORD, newPassword: 'whatever it is now' };
    expect((await post('/api/auth/change-password', body)).status).toBe(401);
    const withKey = await post('/api/auth/change-password', body, undefined, { authorization: `Bearer ${t.owner.apiKey}` });
    expect(withKey.status).toBe(401);
    for (const [bad, field] of [
      [{ currentPassword: TEST_PASSWORD, newPassword: 'short' }, 'newPassword'],
      [{ currentPassword: TEST_PASSWORD, newPassword: 'nul \u0000 inside the password' }, 'newPassword'],
      [{ currentPassword: '', newPassword: 'long enough password' }, 'currentPassword'],
      [{ currentPassword: TEST_PASSWORD, newPassword: 'long enough password', revokeOtherSessions: false }, 'revokeOtherSessions'],
    ] as const) {
      const before = await t.snapshot();
      const res = await post('/api/auth/change-password', bad, t.owner);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect((await json(res)).error.message).toContain(field);
      expect(await t.snapshot()).toBe(before);
    }
    expect(await signInStatus('owner@baton.test', TEST_PASSWORD)).toBe(200);
  });
});

describe('a reset link issued by an admin', () => {
  it('is shown once, works once within the hour, signs the member out everywhere, and the old password no longer works', async () => {
    const member = await invitedAccount(t.anonymous, t.owner, 'forgetful@baton.test');
    const res = await issueLink(t.owner, member.userId);
    expect(res.status).toBe(201);
    const link = await json(res);
    expect(link.url).toBe(`http://baton.example/reset-password/${link.token}`);
    const minutes = (Date.parse(link.expiresAt) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(58);
    expect(minutes).toBeLessThanOrEqual(60);
    // Kept hashed: the table does not hold the token.
    expect(JSON.stringify(await t.handle.db.select().from(verification))).not.toContain(link.token);

    const reset = await post('/api/auth/reset-password', { token: link.token, newPassword: 'chosen after the reset' });
    expect(reset.status).toBe(200);
    expect((await me(member)).status).toBe(401);
    expect(await signInStatus('forgetful@baton.test', TEST_PASSWORD)).toBe(401);
    expect(await signInStatus('forgetful@baton.test', 'chosen after the reset')).toBe(200);

    const again = await post('/api/auth/reset-password', { token: link.token, newPassword: 'a second try at it' });
    expect(again.status).toBe(400);
    expect((await json(again)).error).toMatchObject({ code: 'invalid_token', message: expect.stringContaining('expired or was already used') });
    expect(await signInStatus('forgetful@baton.test', 'a second try at it')).toBe(401);
  });

  it('used twice at once, sets exactly one password', async () => {
    const member = await invitedAccount(t.anonymous, t.owner, 'racer@baton.test');
    const { token } = await json(await issueLink(t.owner, member.userId));
    const results = await Promise.all(
      ['first of the two racers', 'second of the two racers'].map((newPassword) => post('/api/auth/reset-password', { token, newPassword })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    const winner = results[0]!.status === 200 ? 'first of the two racers' : 'second of the two racers';
    const loser = winner.startsWith('first') ? 'second of the two racers' : 'first of the two racers';
    expect(await signInStatus('racer@baton.test', winner)).toBe(200);
    expect(await signInStatus('racer@baton.test', loser)).toBe(401);
  });

  it('a newer link revokes the older one; an expired link is dead', async () => {
    const member = await invitedAccount(t.anonymous, t.owner, 'twice@baton.test');
    const first = await json(await issueLink(t.owner, member.userId));
    const second = await json(await issueLink(t.owner, member.userId));
    expect((await post('/api/auth/reset-password', { token: first.token, newPassword: 'from the first link' })).status).toBe(400);
    // Expire the second one as the clock would.
    await t.handle.db.update(verification).set({ expiresAt: new Date(Date.now() - 1000) });
    expect((await post('/api/auth/reset-password', { token: second.token, newPassword: 'from the second link' })).status).toBe(400);
    expect(await signInStatus('twice@baton.test', TEST_PASSWORD)).toBe(200);
    expect((await post('/api/auth/reset-password', { token: 'made-up-token', newPassword: 'from no link at all' })).status).toBe(400);
  });

  it('only admins of a workspace the member is in; never for the owner; not across workspaces', async () => {
    const admin = await invitedAccount(t.anonymous, t.owner, 'admin@baton.test', { role: 'admin' });
    const member = await invitedAccount(t.anonymous, t.owner, 'plain@baton.test');
    const other = await invitedAccount(t.anonymous, t.owner, 'other@baton.test');
    // A member cannot; an admin cannot for the owner or themselves.
    expect((await issueLink(member, other.userId)).status).toBe(403);
    const forOwner = await issueLink(admin, t.owner.userId);
    expect(forOwner.status).toBe(403);
    expect((await json(forOwner)).error.message).toContain('owner');
    expect((await issueLink(admin, admin.userId)).status).toBe(400);
    // An API key cannot, even the owner's.
    const byKey = await t.anonymous(`${W}/members/${member.userId}/password-reset`, { method: 'POST', headers: { authorization: `Bearer ${t.owner.apiKey}` } });
    expect(byKey.status).toBe(403);
    // Someone outside the workspace is not found; so is an unknown id, and a NUL in the id is a 400.
    const outsider = await signUp(t.anonymous, {
      email: 'outsider@baton.test',
      inviteToken: await json(await post('/api/workspaces', { name: 'Elsewhere' }, t.owner)).then(async (ws) => {
        const inv = await json(await post(`/api/workspaces/${ws.id}/invitations`, { role: 'member' }, t.owner));
        return inv.token as string;
      }),
    });
    const before = await t.snapshot();
    expect((await issueLink(admin, outsider.userId)).status).toBe(404);
    expect((await issueLink(admin, 'no-such-user')).status).toBe(404);
    expect((await issueLink(admin, 'nul%00id')).status).toBe(400);
    expect((await issueLink(member, other.userId)).status).toBe(403);
    expect((await issueLink(admin, t.owner.userId)).status).toBe(403);
    expect(await t.snapshot()).toBe(before);

    // An admin here who is an admin of a workspace the caller does not run: refused, it would hand that over too.
    const mine = await json(await post('/api/workspaces', { name: 'Admin’s own' }, admin));
    const colleague = await invitedAccount(t.anonymous, admin, 'colleague@baton.test', { workspaceId: mine.id, role: 'admin' });
    const joined = await post(
      `/api/invitations/${await json(await post(`${W}/invitations`, { role: 'member' }, t.owner)).then((i) => i.token)}/accept`,
      {},
      colleague,
    );
    expect(joined.status).toBe(200);
    const crossing = await issueLink(t.owner, colleague.userId);
    expect(crossing.status).toBe(403);
    expect((await json(crossing)).error.message).toContain('Admin’s own');
    // The admin who runs both may.
    expect((await issueLink(admin, member.userId)).status).toBe(201);
  });
});

describe('forgot password without mail', () => {
  it('the API says mail is not configured, and auth-status says so', async () => {
    const res = await post('/api/auth/request-password-reset', { email: 'plain@baton.test' });
    expect(res.status).toBe(400);
    expect((await json(res)).error).toMatchObject({ code: 'mail_not_configured', message: expect.stringContaining('reset link') });
    expect(await json(await t.anonymous('/api/auth-status'))).toMatchObject({ mail: false, sso: null });
    const before = await t.snapshot();
    const mailed = await post(`${W}/invitations`, { role: 'member', email: 'someone@baton.test' }, t.owner);
    expect(mailed.status).toBe(400);
    expect((await json(mailed)).error.code).toBe('mail_not_configured');
    expect(await t.snapshot()).toBe(before);
  });
});

describe('the API reference', () => {
  it('documents every new way in', async () => {
    const doc = await json(await t.anonymous('/api/openapi.json'));
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/auth/change-password',
        '/api/auth/reset-password',
        '/api/auth/request-password-reset',
        '/api/auth/sign-in/sso',
        '/api/workspaces/{workspaceId}/members/{userId}/password-reset',
      ]),
    );
    expect(doc.components.schemas.PasswordResetLink).toBeDefined();
  });
});
