/**
 * Headers for every UI message stream (SSE) response. `no-transform` keeps compressing
 * proxies from buffering the stream: Next.js's production server, which proxies `/api`
 * for the browser, gzips responses and would otherwise deliver a whole answer at once.
 */
export const STREAM_HEADERS = { 'cache-control': 'no-cache, no-transform' } as const;
