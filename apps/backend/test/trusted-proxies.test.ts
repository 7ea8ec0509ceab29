import { describe, expect, it } from 'vitest';
import { useTestApp } from './support/test-app';

// The sign-in limit counts attempts per client address. Over a real socket from a peer that
// is not a configured proxy, X-Forwarded-For is the client's own claim: rotating it must
// not buy more attempts. Here only 192.0.2.10 is a proxy, so this machine's loopback is not.
const t = useTestApp({ signInAttemptsPerMinute: 3, trustedProxies: '192.0.2.10' });

const attempt = (forwardedFor: string) =>
  fetch(`${t.baseUrl}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
    body: JSON.stringify({ email: t.owner.email, password: 'wrong password' }),
  });

describe('X-Forwarded-For from a peer that is not a trusted proxy', () => {
  it('is ignored: rotating it still hits the sign-in limit of the peer’s own address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await attempt(`198.51.100.${i + 1}`)).status);
    expect(statuses).toEqual([401, 401, 401, 429, 429, 429]);
  });
});
