import { describe, expect, it } from 'vitest';
import { json, useTestApp } from './support/test-app';

// better-auth's update-user, passed through under /api/auth: checked with Baton's schema
// like every other route (a 400 naming the field in Baton's shape), never a 500 or a
// million-character name in every member list.
const t = useTestApp();
const updateUser = (body: unknown) =>
  t.anonymous('/api/auth/update-user', {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: t.owner.cookie, origin: 'http://localhost:3000' },
    body: JSON.stringify(body),
  });
const ownName = async () => (await json(await t.request('/api/me'))).user.name as string;

describe('POST /api/auth/update-user', () => {
  it('refuses names sign-up would refuse, a NUL byte, any image, and unknown fields — writing nothing', async () => {
    const before = await t.snapshot();
    for (const [body, path] of [
      [{ name: 'x'.repeat(1_000_000) }, 'name'],
      [{ name: '' }, 'name'],
      [{ name: '   ' }, 'name'],
      [{ name: 'Null\u0000byte' }, 'name'],
      [{ image: 'javascript:alert(1)' }, ''],
      [{ name: 'Fine', image: 'https://example.com/me.png' }, ''],
      [{ name: 'Fine', emailVerified: true }, ''],
      [{}, 'name'],
    ] as const) {
      const res = await updateUser(body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      const { error } = await json(res);
      expect(error.code).toBe('invalid_request');
      if (path) expect(error.details.map((d: { path: string[] }) => d.path.join('.'))).toContain(path);
    }
    expect(await t.snapshot()).toBe(before);
  });

  it('changes the name when it is one sign-up would take (trimmed)', async () => {
    const res = await updateUser({ name: '  Olivia Owner  ' });
    expect(res.status).toBe(200);
    expect(await ownName()).toBe('Olivia Owner');
  });
});

describe('the rest of better-auth’s routes', () => {
  it('refuse a NUL byte in any string of the body with a 400 naming it, not a failed query (500)', async () => {
    for (const [path, body, field] of [
      ['/api/auth/revoke-session', { token: 'a\u0000b' }, 'token'],
      ['/api/auth/reset-password', { token: 'a\u0000', newPassword: 'a new password 123' }, 'token'],
    ] as const) {
      const res = await t.anonymous(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: t.owner.cookie, origin: 'http://localhost:3000' },
        body: JSON.stringify(body),
      });
      expect(res.status, path).toBe(400);
      expect((await json(res)).error).toMatchObject({ code: 'invalid_request', details: [{ path: [field], message: expect.stringMatching(/NUL/) }] });
    }
  });
});
