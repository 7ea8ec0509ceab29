import { describe, expect, it } from 'vitest';
import { safeNext, signInHref } from './sign-in-redirect';

describe('where sign-in leads afterwards', () => {
  it('follows paths of this site', () => {
    expect(safeNext('/w/default/chat/chat_1?x=1')).toBe('/w/default/chat/chat_1?x=1');
    expect(safeNext('/invite/tok')).toBe('/invite/tok');
  });

  it('never leads to another site, nor back to sign-in', () => {
    for (const next of ['https://evil.example', '//evil.example', '/\\evil.example', '/\t/evil.example', 'w/default', '', null, undefined, '/sign-in?next=/w', '/setup']) {
      expect(safeNext(next), String(next)).toBeUndefined();
    }
  });

  it('puts the destination into the sign-in link', () => {
    expect(signInHref('/w/a b')).toBe('/sign-in?next=%2Fw%2Fa%20b');
    expect(signInHref('/')).toBe('/sign-in');
    expect(signInHref('//evil.example')).toBe('/sign-in');
  });
});
