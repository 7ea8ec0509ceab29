/**
 * The web app's Content-Security-Policy, sent with every page (proxy.ts).
 *
 * - Scripts: only those carrying this response's nonce, and what they load ('strict-dynamic').
 *   Next puts the nonce on its own scripts and inline data when it finds it in the request's
 *   CSP header; next-themes' inline script gets it from the root layout. `next dev` also needs
 *   'unsafe-eval' (React rebuilds server error stacks with eval in development).
 * - Images: this origin (uploads' thumbnails are Baton file URLs, proxied like all of /api),
 *   data: and blob: URLs (the composer's local previews of attached images), and the operator's allow list
 *   (BATON_IMAGE_HOSTS). A markdown image from anywhere else in model output cannot load,
 *   so it cannot carry the conversation out in its URL; a person who clicks "Load image"
 *   gets it through the backend (`/api/image`, same origin).
 * - Styles allow inline: React renders `style` attributes into the server HTML, and Radix
 *   and sonner set them too. CSS cannot run code, and what it could fetch (fonts, images) is
 *   held by font-src and img-src.
 * - No plugins, no framing of Baton by other sites, forms and `<base>` to this origin only,
 *   fetches and the dev server's websocket to this origin only ('self' covers ws: there).
 */
export function contentSecurityPolicy({ nonce, dev, imageHosts }: { nonce: string; dev: boolean; imageHosts: readonly string[] }): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ''}`,
    "style-src 'self' 'unsafe-inline'",
    ['img-src', "'self'", 'data:', 'blob:', ...imageHosts].join(' '),
    "font-src 'self'",
    "connect-src 'self'",
    "media-src 'self'",
    "object-src 'none'",
    "frame-src 'none'",
    "worker-src 'self' blob:",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** A fresh nonce per response: 128 random bits, base64. */
export function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}
