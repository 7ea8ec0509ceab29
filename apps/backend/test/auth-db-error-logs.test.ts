import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { signIn, TEST_PASSWORD } from './support/accounts';
import { useTestApp } from './support/test-app';
import { consoleDuring } from './support/console-capture';

// Sign-ins while the database fails (better-auth's own queries, through its Drizzle adapter):
// the log says what failed, never the query's values — the email, a session token, a user id.
const t = useTestApp();

afterEach(() => vi.restoreAllMocks());

/** Runs `work` with `table` gone (every query on it fails in the database), then puts it back. */
async function withoutTable(table: string, work: () => Promise<void>) {
  await t.handle.db.execute(sql.raw(`alter table "${table}" rename to "${table}_away"`));
  try {
    await work();
  } finally {
    await t.handle.db.execute(sql.raw(`alter table "${table}_away" rename to "${table}"`));
  }
}

const signInBody = (email: string) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ email, password: TEST_PASSWORD }),
});

describe('database errors during sign-in and session checks', () => {
  it('are logged without the email, the session token or the user id, and answered in Baton’s shape', async () => {
    const email = t.owner.email;
    // A session of its own (not in the session cache), whose token the failing lookup would carry.
    const session = await signIn(t.anonymous, email);
    const token = decodeURIComponent(session.cookie.split('=')[1]!).split('.')[0]!;
    expect(token.length).toBeGreaterThan(16);
    const statuses: number[] = [];
    const bodies: string[] = [];
    const record = async (res: Response) => {
      statuses.push(res.status);
      bodies.push(await res.text());
    };
    const printed = await consoleDuring(async () => {
      // Looking the email up fails.
      await withoutTable('user', async () => record(await t.anonymous('/api/auth/sign-in/email', signInBody(email))));
      // The password is checked, then storing the new session (its token among the values) fails.
      await withoutTable('session', async () => {
        await record(await t.anonymous('/api/auth/sign-in/email', signInBody(email)));
        // Reading a session by its token fails: better-auth's own route, and Baton's check of every request.
        await record(await t.anonymous('/api/auth/get-session', { headers: { cookie: session.cookie } }));
        await record(await t.anonymous('/api/me', { headers: { cookie: session.cookie } }));
      });
      // Reading the account (its password hash) fails.
      await withoutTable('account', async () => record(await t.anonymous('/api/auth/sign-in/email', signInBody(email))));
      // The rate limit's row (keyed by the client address) fails.
      await withoutTable('rate_limit', async () => record(await t.anonymous('/api/auth/sign-in/email', signInBody(email))));
    });
    // None of the values…
    expect(printed).not.toContain(email);
    expect(printed).not.toContain(token);
    expect(printed).not.toContain(session.userId);
    expect(printed).not.toMatch(/params:|"params"|# SERVER_ERROR/);
    // …but what the operator needs.
    expect(printed).toMatch(/database query failed: select .* from "user"/);
    expect(printed).toMatch(/database query failed: insert into "session"/);
    expect(printed).toMatch(/42P01 relation "session" does not exist/);
    expect(statuses).toEqual([500, 500, 500, 500, 500, 500]);
    const errors = bodies.map((body) => JSON.parse(body).error);
    // better-auth's get-session says which step failed; everything else is Baton's plain 500.
    expect(errors[2]).toEqual({ code: 'failed_to_get_session', message: 'Failed to get session' });
    for (const error of errors.filter((_, i) => i !== 2)) expect(error).toEqual({ code: 'internal_error', message: 'something went wrong on the server' });
    expect(bodies.join('\n')).not.toMatch(new RegExp(`${token}|${email}|select|params`));
  });
});
