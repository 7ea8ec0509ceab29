import { describe, expect, it } from 'vitest';
import { betterAuthStorages } from '../src/auth/async-context';
import { signIn, signUp } from './support/accounts';
import { useTestApp } from './support/test-app';

/*
 * better-auth's AsyncLocalStorage instances are enabled only while better-auth runs: before
 * Node 24 an enabled one puts promise hooks on every promise of the process (a tenth of the
 * backend's CPU in the relay benchmark). `enabled` is Node's own field on those versions; on
 * a version without it (AsyncContextFrame) there are no hooks to remove.
 */
const enabled = () => betterAuthStorages().filter((s) => (s as { enabled?: boolean }).enabled === true);

describe('better-auth’s request contexts', () => {
  const t = useTestApp({ openSignup: true });

  it('are disabled once sign-up, sign-in and a session check have ended, and work again on the next call', async () => {
    const account = await signUp(t.anonymous, { email: 'async-context@baton.test' });
    expect(betterAuthStorages().length).toBeGreaterThan(0);
    expect(enabled()).toEqual([]);

    const again = await signIn(t.anonymous, 'async-context@baton.test');
    expect(enabled()).toEqual([]);
    // A cookie the session cache has not seen yet goes through better-auth's getSession.
    const res = await t.anonymous('/api/workspaces', { headers: { cookie: again.cookie } });
    expect(res.status).toBe(200);
    expect(enabled()).toEqual([]);

    // Two calls at once: the contexts stay on until the last one has ended, and both succeed.
    const both = await Promise.all([
      t.anonymous('/api/auth/get-session', { headers: { cookie: account.cookie } }),
      t.anonymous('/api/auth/get-session', { headers: { cookie: again.cookie } }),
    ]);
    for (const r of both) expect(((await r.json()) as { user?: { email?: string } }).user?.email).toBe('async-context@baton.test');
    expect(enabled()).toEqual([]);
  });
});
