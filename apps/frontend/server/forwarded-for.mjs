/**
 * `X-Forwarded-For` as a proxy passes it on: what the request carried (a client's claim, or
 * the hops of proxies before this one), then the address this server was reached from.
 * Next's `/api` and `/v1` rewrites forward a request's headers as they are and add no
 * address (next 16: `proxy-request.js`; `base-server.js` fills the header in only when it is
 * missing), so the backend — which believes this server (loopback, by default) — would count
 * whatever address a client wrote. The backend reads the hops from the right, skipping its
 * trusted proxies: the one added here is the first it does not trust, the browser.
 *
 * @param {Record<string, string | string[] | undefined>} headers Node's `IncomingMessage.headers`, changed in place
 * @param {string | undefined} peer the socket's remote address
 */
export function appendForwardedFor(headers, peer) {
  const prior = headers['x-forwarded-for'];
  if (!peer) {
    // No address to add (the socket already closed): nothing the client claimed stays.
    delete headers['x-forwarded-for'];
    return;
  }
  const hops = (Array.isArray(prior) ? prior : prior ? [prior] : []).filter(Boolean);
  headers['x-forwarded-for'] = [...hops, peer].join(', ');
}
