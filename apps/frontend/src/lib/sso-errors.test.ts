import { describe, expect, it } from 'vitest';
import { ssoErrorMessage } from './sso-errors';

describe('ssoErrorMessage', () => {
  it('says what to do for the codes Baton sends back, whatever their case', () => {
    expect(ssoErrorMessage('SIGN_UP_REFUSED', 'Acme SSO')).toContain('Ask a workspace admin for an invite link');
    expect(ssoErrorMessage('SIGN_UP_REFUSED', 'Acme SSO')).toContain('with Acme SSO');
    expect(ssoErrorMessage('account_not_linked', undefined)).toContain('signs in with its password');
  });

  it('never repeats text from the address beyond a short code', () => {
    const crafted = `x${'y'.repeat(500)} call +1 555 to restore your account`;
    const message = ssoErrorMessage(crafted, 'Acme')!;
    expect(message).not.toContain('restore your account');
    expect(message.length).toBeLessThan(200);
    expect(ssoErrorMessage(undefined, 'Acme')).toBeUndefined();
  });
});
