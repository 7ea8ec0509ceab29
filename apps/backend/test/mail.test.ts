import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invitedAccount, signIn, TEST_PASSWORD } from './support/accounts';
import { startSmtpServer, type TestSmtpServer } from './support/smtp-server';
import { json, useTestApp } from './support/test-app';
import { waitFor } from './support/wait';

// With BATON_SMTP_URL: "Forgot password?" mails a reset link and invitations can be mailed.
// The mails go to a real SMTP server the test runs, and are read from there.
const PUBLIC_URL = 'http://baton.example';
let smtp: TestSmtpServer;
beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(() => smtp?.close());

const t = useTestApp({ publicUrl: PUBLIC_URL, mail: () => ({ smtpUrl: smtp.url, from: 'Baton <baton@baton.test>' }) });
const post = (path: string, body: unknown) =>
  t.anonymous(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const mailTo = (address: string) => smtp.mails.filter((m) => m.to.includes(address));

describe('mail', () => {
  it('the sign-in page is told mail works', async () => {
    expect(await json(await t.anonymous('/api/auth-status'))).toMatchObject({ mail: true, sso: null });
  });

  it('"Forgot password?" mails a one-time link that sets a new password; an unknown address gets the same answer and no mail', async () => {
    await invitedAccount(t.anonymous, t.owner, 'forgot@baton.test');
    const res = await post('/api/auth/request-password-reset', { email: 'forgot@baton.test' });
    expect(res.status).toBe(200);
    const mail = await waitFor('the reset mail', async () => mailTo('forgot@baton.test')[0]);
    expect(mail.from).toBe('baton@baton.test');
    expect(mail.subject).toBe('Reset your Baton password');
    const link = mail.text.match(/http:\/\/baton\.example\/reset-password\/([A-Za-z0-9_-]+)/);
    expect(link, mail.text).not.toBeNull();
    expect((await post('/api/auth/reset-password', { token: link![1], newPassword: 'set from the mail 📬' })).status).toBe(200);
    expect((await signIn(t.anonymous, 'forgot@baton.test', 'set from the mail 📬')).userId).toBeTruthy();
    expect((await post('/api/auth/reset-password', { token: link![1], newPassword: 'and once more' })).status).toBe(400);

    const sent = smtp.mails.length;
    const unknown = await post('/api/auth/request-password-reset', { email: 'nobody@baton.test' });
    expect(unknown.status).toBe(200);
    expect(await unknown.json()).toEqual(await (await post('/api/auth/request-password-reset', { email: 'owner@baton.test' })).json());
    await waitFor('the owner’s reset mail', async () => mailTo('owner@baton.test')[0]);
    expect(smtp.mails.length).toBe(sent + 1);
    expect(mailTo('nobody@baton.test')).toEqual([]);
    // Asking for a mail changes nothing by itself.
    expect((await signIn(t.anonymous, 'owner@baton.test', TEST_PASSWORD)).userId).toBe(t.owner.userId);
  });

  it('an invitation can be mailed: the mail carries the link, which works', async () => {
    const res = await t.request('/api/workspaces/default/invitations', { json: { role: 'admin', email: 'new.person@baton.test' } });
    expect(res.status).toBe(201);
    const created = await json(res);
    expect(created.emailedTo).toBe('new.person@baton.test');
    const mail = mailTo('new.person@baton.test')[0]!;
    expect(mail.subject).toBe('Owner invited you to Default on Baton');
    expect(mail.text).toContain(`${PUBLIC_URL}/invite/${created.token}`);
    expect(mail.text).toContain('as an admin');
    expect(await json(await t.anonymous(`/api/invitations/${created.token}`))).toMatchObject({ workspaceId: 'default', role: 'admin' });
  });

  it('a mail server that refuses the address leaves no invitation behind (502), and bad addresses are a 400', async () => {
    const before = await t.snapshot();
    smtp.refuse('bounce@baton.test');
    const refused = await t.request('/api/workspaces/default/invitations', { json: { role: 'member', email: 'bounce@baton.test' } });
    expect(refused.status).toBe(502);
    expect((await json(refused)).error).toMatchObject({ code: 'unavailable', message: expect.stringContaining('nothing was created') });
    for (const email of ['not an address', 'a\u0000b@baton.test', 'x@baton.test\r\nBcc: all@baton.test']) {
      expect((await t.request('/api/workspaces/default/invitations', { json: { role: 'member', email } })).status, email).toBe(400);
    }
    expect(await t.snapshot()).toBe(before);
  });
});
