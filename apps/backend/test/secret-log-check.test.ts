import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findSecretsInLogs } from './support/secret-log-check';
import { observeSecrets, suiteLogFile } from './support/suite-secrets';
import { readFile } from 'node:fs/promises';

// The suite-wide "no secret in any log line" check (global-setup.ts's teardown) must be able
// to fail: a log holding a secret a request carried is found, masked, with its file.
describe('the suite-wide secret check', () => {
  const dirs: string[] = [];
  afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

  async function logDir(secrets: string[], lines: string[]) {
    const dir = await mkdtemp(join(tmpdir(), 'secret-check-'));
    dirs.push(dir);
    await writeFile(join(dir, 'secrets-1.txt'), secrets.map((s) => `${JSON.stringify(s)}\n`).join(''));
    await writeFile(join(dir, 'log-1.txt'), lines.join('\n'));
    return dir;
  }

  it('finds a secret anywhere in a line, and nothing when the log is clean', async () => {
    const key = 'bk_live_0123456789abcdef';
    const password = 'correct horse 🐎 battery';
    const dir = await logDir(
      [key, password],
      ['{"msg":"request","route":"/api/x"}', `{"msg":"oops","error":"Bearer ${key} refused"}`, `{"password":"${password}"}`],
    );
    const { hits, secrets, lines } = await findSecretsInLogs(dir);
    expect({ secrets, lines }).toEqual({ secrets: 2, lines: 3 });
    expect(hits).toHaveLength(2);
    expect(hits[0]).toContain('bk_l…(24 chars)');
    expect(hits.join('\n')).toContain('log-1.txt');

    const clean = await logDir([key], ['{"msg":"request","route":"/api/x"}']);
    expect((await findSecretsInLogs(clean)).hits).toEqual([]);
  });

  it('what a request carries and an answer hands out is listed as secret', async () => {
    const handler = observeSecrets(async () =>
      Response.json({ id: 'key_1', key: 'bk_handed_out_abcdef12' }, { headers: { 'set-cookie': 'session=sess.value%2Bsigned; Path=/' } }),
    );
    await handler(
      new Request('http://localhost/api/x?code=oauth-code-98765', {
        method: 'POST',
        headers: { authorization: 'Bearer bk_request_key_1234', cookie: 'a=cookie-value-123', 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'server', headers: { 'x-token': 'mcp-header-value-1' }, provider: { apiKey: 'sk-provider-key-1' } }),
      }),
    );
    const listed = await readFile(join(suiteLogFile(), '..', `secrets-${process.pid}.txt`), 'utf8');
    for (const secret of [
      'bk_handed_out_abcdef12',
      'sess.value+signed',
      'oauth-code-98765',
      'bk_request_key_1234',
      'cookie-value-123',
      'mcp-header-value-1',
      'sk-provider-key-1',
    ]) {
      expect(listed).toContain(JSON.stringify(secret));
    }
    // Names and ids are not secrets.
    expect(listed).not.toContain('"server"');
  });
});
