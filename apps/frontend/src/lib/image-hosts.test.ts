import { describe, expect, it } from 'vitest';
import { isAllowedImageUrl, parseImageHosts } from './image-hosts';

describe('the image host allow list (BATON_IMAGE_HOSTS)', () => {
  it('reads host names with ports and subdomain wildcards, separated by commas or spaces', () => {
    expect(parseImageHosts(' Images.Example.com, *.githubusercontent.com  cdn.example.org:8443,,')).toEqual([
      'images.example.com',
      '*.githubusercontent.com',
      'cdn.example.org:8443',
    ]);
    expect(parseImageHosts(undefined)).toEqual([]);
    expect(parseImageHosts('')).toEqual([]);
  });

  it('drops what is not a host: it would be written into the Content-Security-Policy', () => {
    expect(parseImageHosts("example.com; script-src * 'unsafe-inline' https://x.example * https: 'self' a/b ok.example")).toEqual(['script-src', 'ok.example']);
  });

  it('matches a URL by host and port; a wildcard covers subdomains only', () => {
    const hosts = parseImageHosts('images.example.com, *.cdn.example, 127.0.0.1:4000');
    expect(isAllowedImageUrl('https://images.example.com/a.png', hosts)).toBe(true);
    expect(isAllowedImageUrl('http://IMAGES.example.com/a.png?q=1', hosts)).toBe(true);
    expect(isAllowedImageUrl('https://images.example.com:8443/a.png', hosts)).toBe(false);
    expect(isAllowedImageUrl('https://images.example.com.evil.test/a.png', hosts)).toBe(false);
    expect(isAllowedImageUrl('https://a.b.cdn.example/x.png', hosts)).toBe(true);
    expect(isAllowedImageUrl('https://cdn.example/x.png', hosts)).toBe(false);
    expect(isAllowedImageUrl('https://evilcdn.example/x.png', hosts)).toBe(false);
    expect(isAllowedImageUrl('http://127.0.0.1:4000/x.png', hosts)).toBe(true);
    expect(isAllowedImageUrl('http://127.0.0.1/x.png', hosts)).toBe(false);
    expect(isAllowedImageUrl('https://user:pw@images.example.com/a.png', hosts)).toBe(false);
    expect(isAllowedImageUrl('ftp://images.example.com/a.png', hosts)).toBe(false);
    expect(isAllowedImageUrl('/relative.png', hosts)).toBe(false);
  });
});
