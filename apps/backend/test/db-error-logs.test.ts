import { sql } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { errorTextForLog, errorTextForUser } from '../src/error-text';
import { json, useTestApp } from './support/test-app';
import { consoleDuring } from './support/console-capture';

// A failed database write must not print its parameters (an API key among them) to the
// log, nor put them in a response.
const t = useTestApp();
const ws = '/api/workspaces/default';
const KEY = 'sk-must-not-reach-the-log-4242';

afterEach(() => vi.restoreAllMocks());

beforeAll(async () => {
  // A rule the API does not know about makes the insert itself fail in the database.
  await t.handle.db.execute(sql`alter table provider add constraint test_name_is_short check (length(name) < 20)`);
});

describe('database errors in logs', () => {
  it('a failing provider write logs the query and the reason, never its parameters or the row', async () => {
    let status = 0;
    let body = '';
    const printed = await consoleDuring(async () => {
      const res = await t.request(`${ws}/providers`, {
        json: { name: 'A name longer than twenty characters', baseUrl: 'https://api.example.com/v1', apiKey: KEY },
      });
      status = res.status;
      body = await res.text();
    });
    expect(status).toBe(500);
    expect(JSON.parse(body).error).toEqual({ code: 'internal_error', message: 'something went wrong on the server' });
    // What the operator needs is there…
    expect(printed).toMatch(/unhandled error on POST \/api\/workspaces\/default\/providers: database query failed: insert into "provider"/);
    expect(printed).toMatch(/23514 new row for relation "provider" violates check constraint "test_name_is_short"/);
    // …and no value of the row: not the key, not its ciphertext, not pg's "Failing row contains (…)".
    expect(printed).not.toContain(KEY);
    expect(printed).not.toMatch(/params:|Failing row|v1:[\w-]{16}:|api\.example\.com|longer than twenty/);
    expect(body).not.toContain(KEY);
  });

  it('values quoted in the driver’s own message (data exceptions) are cut off too', async () => {
    const secret = 'sk-in-a-bad-cast-777';
    const err = await t.handle.db.execute(sql`select ${secret}::integer`).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(Error);
    // The raw error carries it three times over (message params, driver message, maybe detail).
    expect(String((err as Error).message)).toContain(secret);
    const logged = errorTextForLog(err);
    expect(logged).toMatch(/database query failed: select \$1::integer/);
    expect(logged).toMatch(/22P02 invalid input syntax for type integer/);
    expect(logged).not.toContain(secret);
    expect(errorTextForUser(err)).toBe('a database query failed');
    expect(errorTextForUser(new Error('wrapped', { cause: err }))).toBe('a database query failed');
  });

  it('a turn that fails on a database error says only that, not the query or its values', async () => {
    const { id: providerId } = await json(
      await t.request(`${ws}/providers`, { json: { name: 'Hidden', baseUrl: 'https://api.example.com/v1', apiKey: KEY, modelIds: ['m'] } }),
    );
    const agent = await json(await t.request(`${ws}/agents`, { json: { name: 'Talker', providerId, modelId: 'm' } }));
    const chat = await json(await t.request(`${ws}/chats`, { json: { agentId: agent.id } }));
    // Reading the agent's provider (the first step of the turn) now fails.
    await t.handle.db.execute(sql`alter table provider rename to provider_away`);
    try {
      const res = await t.request(`${ws}/chats/${chat.id}/messages`, { json: { text: 'hello' } });
      const text = await res.text();
      expect(JSON.parse(text).error).toEqual({ code: 'internal_error', message: 'a database query failed' });
      expect(text).not.toMatch(/params:|select|provider_away|default,/i);
    } finally {
      await t.handle.db.execute(sql`alter table provider_away rename to provider`);
    }
  });
});
