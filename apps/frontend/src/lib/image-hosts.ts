/**
 * The operator's allow list of image hosts (`BATON_IMAGE_HOSTS`): images from these hosts in
 * a model's answer are shown at once; every other remote image waits for a click.
 *
 * Entries are host names with an optional port, `*.` for every subdomain, separated by commas
 * or spaces: `images.example.com, *.githubusercontent.com, cdn.example.org:8443`. No scheme:
 * the page's own decides (an https page loads https only). Anything else in the list is
 * ignored — it also goes into the Content-Security-Policy, where a stray `;` or quote would
 * change the policy itself.
 */
const HOST_ENTRY = /^(\*\.)?([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*(:\d{1,5})?$/;

export function parseImageHosts(value: string | undefined): string[] {
  if (!value) return [];
  const hosts = value
    .toLowerCase()
    .split(/[\s,]+/)
    .filter((entry) => entry.length <= 253 && HOST_ENTRY.test(entry));
  return [...new Set(hosts)];
}

/** Whether `src` is an http(s) image on a host of the list (`*.example.com` matches sub.example.com, not example.com). */
export function isAllowedImageUrl(src: string, hosts: readonly string[]): boolean {
  let url: URL;
  try {
    url = new URL(src);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (url.username || url.password) return false;
  const hostname = url.hostname.toLowerCase();
  return hosts.some((entry) => {
    const [pattern, port] = entry.split(':') as [string, string | undefined];
    if (port !== undefined ? url.port !== port : url.port !== '') return false;
    return pattern.startsWith('*.') ? hostname.endsWith(pattern.slice(1)) : hostname === pattern;
  });
}
