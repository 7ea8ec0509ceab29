import { describe, expect, it } from 'vitest';
import { SessionCache, sessionCookieValue } from './session-cache';

describe('SessionCache', () => {
  const far = new Date(Date.now() + 3600_000);

  it('remembers a session for its ttl, never past the session’s own end', () => {
    const cache = new SessionCache(10_000);
    cache.set('tok.sig', 'user_1', far, 1_000);
    expect(cache.get('tok.sig', 10_999)).toBe('user_1');
    expect(cache.get('tok.sig', 11_000)).toBeUndefined();
    cache.set('short.sig', 'user_2', new Date(2_000), 1_000);
    expect(cache.get('short.sig', 1_999)).toBe('user_2');
    expect(cache.get('short.sig', 2_000)).toBeUndefined();
  });

  it('forgets a signed-out session at once, and drops the oldest entry when full', () => {
    const cache = new SessionCache(10_000, 2);
    cache.set('a', 'u', far);
    cache.forget('a');
    expect(cache.get('a')).toBeUndefined();
    cache.set('b', 'u', far);
    cache.set('c', 'u', far);
    cache.set('d', 'u', far);
    expect([cache.get('b'), cache.get('c'), cache.get('d')]).toEqual([undefined, 'u', 'u']);
  });

  it('reads only the session cookie', () => {
    expect(sessionCookieValue('a=1; baton.session_token=tok.sig%3D; b=2')).toBe('tok.sig%3D');
    expect(sessionCookieValue('xbaton.session_token=nope')).toBeUndefined();
    expect(sessionCookieValue(undefined)).toBeUndefined();
  });
});
