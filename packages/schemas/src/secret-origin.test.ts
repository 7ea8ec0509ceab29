import { describe, expect, it } from 'vitest';
import { secretOriginChanged, urlOrigin } from './secret-origin';

describe('secretOriginChanged', () => {
  it('keeps a secret on the same scheme, host and port, whatever the path', () => {
    expect(secretOriginChanged('https://api.example.com/v1', 'https://API.example.com:443/v2/')).toBe(false);
    expect(secretOriginChanged('http://10.0.0.5:11434/v1', 'http://10.0.0.5:11434')).toBe(false);
  });

  it('asks for it again on another host, port or scheme, or when a URL is unreadable', () => {
    expect(secretOriginChanged('https://api.example.com/v1', 'https://attacker.example/v1')).toBe(true);
    expect(secretOriginChanged('https://api.example.com/v1', 'https://api.example.com.attacker.example/v1')).toBe(true);
    expect(secretOriginChanged('http://10.0.0.5:11434/v1', 'http://10.0.0.5:8080/v1')).toBe(true);
    expect(secretOriginChanged('https://api.example.com/v1', 'http://api.example.com/v1')).toBe(true);
    expect(secretOriginChanged('not a url', 'https://api.example.com/v1')).toBe(true);
    expect(urlOrigin('nope')).toBeUndefined();
  });
});
