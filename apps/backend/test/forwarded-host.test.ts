import { describe, expect, it } from 'vitest';
import { json, useTestApp } from './support/test-app';

// The same-origin check compares a session's Origin with the origin the request addressed.
// Behind the web app, its server names that origin in X-Forwarded-Host/-Proto; a request
// straight to the backend names it in Host. X-Forwarded-Host is believed only from a
// trusted proxy (BATON_TRUSTED_PROXIES, like X-Forwarded-For): from anyone else it would let
// a request name whatever origin its Origin header claims. Over real sockets here, since
// the peer's address is what decides.
const W = '/api/workspaces/default';

/** A session write naming `origin` both as Origin and as the forwarded host. */
function forgedWrite(t: ReturnType<typeof useTestApp>, path: string, origin: string, body: unknown) {
  const { host, protocol } = new URL(origin);
  return fetch(`${t.baseUrl}${path}`, {
    method: 'POST',
    headers: {
      cookie: t.owner.cookie,
      'content-type': 'application/json',
      origin,
      'x-forwarded-host': host,
      'x-forwarded-proto': protocol.replace(':', ''),
    },
    body: JSON.stringify(body),
  });
}

describe('X-Forwarded-Host from a peer that is not a trusted proxy', () => {
  // Only 192.0.2.10 is a proxy: this machine's loopback, where the test connects from, is not.
  const t = useTestApp({ trustedProxies: '192.0.2.10' });

  it('does not make another site’s Origin the request’s own: the write is refused and changes nothing', async () => {
    const before = await t.snapshot();
    const res = await forgedWrite(t, `${W}/agents`, 'http://evil.example', { name: 'Forged' });
    expect(res.status, await res.clone().text()).toBe(403);
    expect((await json(res)).error.code).toBe('forbidden');
    expect(await t.snapshot()).toBe(before);
  });

  it('does not let another site’s page sign the person out either (better-auth’s own origin check)', async () => {
    const res = await forgedWrite(t, '/api/auth/sign-out', 'http://evil.example', {});
    expect(res.status, await res.clone().text()).toBe(403);
    expect((await t.fetch(`${t.baseUrl}/api/me`)).status).toBe(200);
  });

  it('the origin the request addressed itself (Host) still passes', async () => {
    const res = await fetch(`${t.baseUrl}${W}/agents`, {
      method: 'POST',
      headers: { cookie: t.owner.cookie, 'content-type': 'application/json', origin: t.baseUrl },
      body: JSON.stringify({ name: 'Direct' }),
    });
    expect(res.status, await res.clone().text()).toBe(201);
  });
});

describe('X-Forwarded-Host from a trusted proxy (loopback by default: the web app’s server)', () => {
  const t = useTestApp();

  it('names the origin the browser addressed, so the web app’s own pages pass', async () => {
    const res = await forgedWrite(t, `${W}/agents`, 'http://baton.lan:3000', { name: 'Through the web app' });
    expect(res.status, await res.clone().text()).toBe(201);
  });
});
