import { afterEach, describe, expect, it, vi } from 'vitest';
import { safeNext, signInHref } from './sign-in-redirect';

describe('where sign-in leads afterwards', () => {
  it('follows paths of this site', () => {
    expect(safeNext('/w/default/chat/chat_1?x=1')).toBe('/w/default/chat/chat_1?x=1');
    expect(safeNext('/invite/tok')).toBe('/invite/tok');
  });

  it('never leads to another site, nor back to sign-in', () => {
    for (const next of [
      'https://evil.example',
      '//evil.example',
      '/\\evil.example',
      '/\t/evil.example',
      'w/default',
      '',
      null,
      undefined,
      '/sign-in?next=/w',
      '/setup',
    ]) {
      expect(safeNext(next), String(next)).toBeUndefined();
    }
  });

  it('puts the destination into the sign-in link', () => {
    expect(signInHref('/w/a b')).toBe('/sign-in?next=%2Fw%2Fa%20b');
    expect(signInHref('/')).toBe('/sign-in');
    expect(signInHref('//evil.example')).toBe('/sign-in');
  });
});

describe('a 401 on a signed-in page', () => {
  async function freshPage(pathname: string, search = '') {
    vi.resetModules();
    const assign = vi.fn();
    vi.stubGlobal('window', { location: { pathname, search, assign } });
    const { redirectToSignIn } = await import('./sign-in-redirect');
    return { assign, redirectToSignIn };
  }

  afterEach(() => vi.unstubAllGlobals());

  it('goes to sign-in once, however many requests fail together, and comes back afterwards', async () => {
    const { assign, redirectToSignIn } = await freshPage('/w/default/agents', '?q=1');
    redirectToSignIn();
    redirectToSignIn();
    redirectToSignIn();
    expect(assign.mock.calls).toEqual([['/sign-in?next=%2Fw%2Fdefault%2Fagents%3Fq%3D1']]);
  });

  it('never leaves the pages where one signs in', async () => {
    for (const path of ['/sign-in', '/setup', '/invite/tok', '/forgot-password', '/reset-password/tok']) {
      const { assign, redirectToSignIn } = await freshPage(path);
      redirectToSignIn();
      expect(assign, path).not.toHaveBeenCalled();
    }
  });
});
