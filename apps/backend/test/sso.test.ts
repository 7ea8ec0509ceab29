import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { account, user } from '../src/db/schema';
import { type Account, invite, signIn } from './support/accounts';
import { CookieJar, signInAtProvider, startOidcProvider, type TestOidcProvider } from './support/oidc-provider';
import { json, useTestApp } from './support/test-app';

// Single sign-on against a real OpenID Connect provider (oidc-provider) over HTTP: the whole
// authorization-code flow (discovery, PKCE, the provider's login and consent pages, the code
// exchange, the ID token checked against its keys), and Baton's sign-up rules for new accounts.
const PUBLIC_URL = 'http://baton.example';
let idp: TestOidcProvider;
beforeAll(async () => {
  idp = await startOidcProvider({
    redirectUris: [`${PUBLIC_URL}/api/auth/callback/oidc`],
    accounts: [
      { id: 'ada', email: 'ada@corp.test', name: 'Ada Lovelace' },
      { id: 'grace', email: 'grace@corp.test', name: 'Grace Hopper' },
      { id: 'the-owner', email: 'owner@baton.test', name: 'Owner at the IdP' },
    ],
  });
});
afterAll(() => idp?.close());

const t = useTestApp({
  publicUrl: PUBLIC_URL,
  sso: () => ({
    discoveryUrl: `${idp.issuer}/.well-known/openid-configuration`,
    clientId: idp.clientId,
    clientSecret: idp.clientSecret,
    label: 'Acme SSO',
    scopes: ['openid', 'email', 'profile'],
    linkByEmail: false,
  }),
});

/** A browser's whole single sign-on: Baton → the provider (sign in as `accountId`) → Baton's callback. */
async function signInWithSso(accountId: string, body: { next?: string; inviteToken?: string } = {}) {
  const jar = new CookieJar();
  const start = await t.anonymous('/api/auth/sign-in/sso', {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: PUBLIC_URL },
    body: JSON.stringify(body),
  });
  expect(start.status, await start.clone().text()).toBe(200);
  jar.take(start);
  const { url } = await json(start);
  expect(url.startsWith(`${idp.issuer}/`)).toBe(true);
  const back = await signInAtProvider(url, accountId);
  expect(`${back.origin}${back.pathname}`).toBe(`${PUBLIC_URL}/api/auth/callback/oidc`);
  const callback = await t.anonymous(`${back.pathname}${back.search}`, { headers: { cookie: jar.header() } });
  jar.take(callback);
  const session = jar.get('baton.session_token');
  return { status: callback.status, location: callback.headers.get('location') ?? '', session: session ? `baton.session_token=${session}` : undefined, jar };
}
const me = (cookie: string) => t.anonymous('/api/me', { headers: { cookie } });
const users = async () => Number((await t.handle.db.select({ n: count() }).from(user))[0]!.n);

describe('single sign-on with OpenID Connect', () => {
  it('the sign-in page is told to offer it', async () => {
    expect(await json(await t.anonymous('/api/auth-status'))).toMatchObject({ sso: { providerId: 'oidc', label: 'Acme SSO' }, mail: false });
  });

  it('a stranger without an invitation is sent back to the sign-in page, and no account is made', async () => {
    const before = await users();
    const result = await signInWithSso('ada');
    expect(result.status).toBe(302);
    expect(result.location).toMatch(/^\/sign-in\?error=SIGN_UP_REFUSED&error_description=sign-up\+is\+by\+invitation/);
    expect(result.session).toBeUndefined();
    expect(await users()).toBe(before);
  });

  it('with an invite link, a new account joins its workspace with its role, signed in; the link is used', async () => {
    const inviteToken = await invite(t.anonymous, t.owner, 'default', 'member');
    const result = await signInWithSso('ada', { inviteToken, next: '/w/default' });
    expect(result.status).toBe(302);
    expect(result.location).toMatch(/\/w\/default$/);
    const mine = await json(await me(result.session!));
    expect(mine.user).toMatchObject({ email: 'ada@corp.test', name: 'Ada Lovelace' });
    expect(mine.memberships).toEqual([{ workspaceId: 'default', workspaceName: 'Default', role: 'member' }]);
    expect((await t.anonymous(`/api/invitations/${inviteToken}`)).status).toBe(404);
    // The provider's identity is linked to the account: no password, an `oidc` account.
    const accounts = await t.handle.db.select().from(account).where(eq(account.userId, mine.user.id));
    expect(accounts.map((a) => a.providerId)).toEqual(['oidc']);

    // Signing in again needs no invitation, and makes nothing new.
    const before = await users();
    const again = await signInWithSso('ada');
    expect(again.location).toMatch(/^(http:\/\/baton\.example)?\/$/);
    expect((await json(await me(again.session!))).user.id).toBe(mine.user.id);
    expect(await users()).toBe(before);
  });

  it('an existing account that comes through an invite link is sent to that link to join, which is still unused', async () => {
    const side = await json(await t.request('/api/workspaces', { json: { name: 'Side' } }));
    const inviteToken = await invite(t.anonymous, t.owner, side.id, 'member');
    const result = await signInWithSso('ada', { inviteToken, next: `/w/${side.id}` });
    expect(result.location).toBe(`/invite/${inviteToken}`);
    expect((await t.anonymous(`/api/invitations/${inviteToken}`)).status).toBe(200);
    const joined = await t.anonymous(`/api/invitations/${inviteToken}/accept`, { method: 'POST', headers: { cookie: result.session!, origin: PUBLIC_URL } });
    expect(await json(joined)).toEqual({ workspaceId: side.id, workspaceName: 'Side', role: 'member' });
  });

  it('a dead invitation is refused before leaving for the provider; a foreign `next` is a 400', async () => {
    const post = (body: unknown) =>
      t.anonymous('/api/auth/sign-in/sso', { method: 'POST', headers: { 'content-type': 'application/json', origin: PUBLIC_URL }, body: JSON.stringify(body) });
    expect((await post({ inviteToken: 'no-such-invitation' })).status).toBe(404);
    for (const next of ['https://evil.example/', '//evil.example', '/\\evil.example', '/ok\u0000', '/tab\tinside']) {
      const res = await post({ next });
      expect(res.status, next).toBe(400);
    }
  });

  it('an existing password account with the same email is not taken over (linking by email is off)', async () => {
    const before = await users();
    const result = await signInWithSso('the-owner');
    expect(result.location).toMatch(/\/sign-in\?error=account_not_linked/i);
    expect(result.session).toBeUndefined();
    expect(await users()).toBe(before);
    const owner: Account = await signIn(t.anonymous, 'owner@baton.test');
    expect((await me(owner.cookie)).status).toBe(200);
  });

  it('a forged or replayed callback signs nobody in', async () => {
    const inviteToken = await invite(t.anonymous, t.owner);
    const jar = new CookieJar();
    const start = await t.anonymous('/api/auth/sign-in/sso', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: PUBLIC_URL },
      body: JSON.stringify({ inviteToken }),
    });
    jar.take(start);
    const back = await signInAtProvider((await json(start)).url, 'grace');
    // Without the browser's state cookie (another browser replaying the URL): refused.
    const stranger = await t.anonymous(`${back.pathname}${back.search}`);
    expect(stranger.status).toBe(302);
    expect(stranger.headers.get('location')).toMatch(/error=/);
    expect(stranger.headers.getSetCookie().some((c) => c.startsWith('baton.session_token=') && !c.includes('Max-Age=0'))).toBe(false);
    // A made-up code: refused too.
    const forged = new URL(back);
    forged.searchParams.set('code', 'made-up-code');
    const fake = await t.anonymous(`${forged.pathname}${forged.search}`, { headers: { cookie: jar.header() } });
    expect(fake.headers.get('location')).toMatch(/error=/);
    expect((await t.anonymous(`/api/invitations/${inviteToken}`)).status).toBe(200);
  });
});
