import { describe, expect, it } from 'vitest';
import { useTestApp } from './support/test-app';

// By default loopback is a trusted proxy: a proxy on this machine that appends the browser's
// address (what the bundled web app's server is to do: docs/security.md, "Access and sign-in")
// gets each browser counted on its own — and what a browser wrote into X-Forwarded-For itself is not.
const t = useTestApp({ signInAttemptsPerMinute: 3 });

const attempt = (forwardedFor: string) =>
  fetch(`${t.baseUrl}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
    body: JSON.stringify({ email: t.owner.email, password: 'wrong password' }),
  });

describe('behind the web app’s server on loopback (the default)', () => {
  it('counts the address the proxy appended, not what the client claimed before it', async () => {
    const statuses: number[] = [];
    // The same browser (203.0.113.7), claiming another address each time.
    for (let i = 0; i < 5; i++) statuses.push((await attempt(`10.9.9.${i}, 203.0.113.7`)).status);
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    // Another browser is not slowed down by the first.
    expect((await attempt('203.0.113.8')).status).toBe(401);
  });
});
