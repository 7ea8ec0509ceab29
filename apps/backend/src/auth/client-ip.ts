import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import ipaddr from 'ipaddr.js';

/** The header better-auth reads the client address from; Baton sets it, a client never can. */
export const CLIENT_IP_HEADER = 'x-baton-client-ip';

type Address = ipaddr.IPv4 | ipaddr.IPv6;
type Range = [Address, number];

/** The peers whose `X-Forwarded-For` is believed (`BATON_TRUSTED_PROXIES`). */
export interface TrustedProxies {
  ranges: Range[];
}

/** What "loopback" stands for: the bundled web app's server forwards `/api` from this machine. */
const LOOPBACK = ['127.0.0.0/8', '::1/128'];

/** `::ffff:127.0.0.1` is 127.0.0.1: a dual-stack socket reports IPv4 peers that way. */
function parseAddress(text: string): Address | undefined {
  const trimmed = text.trim();
  if (!ipaddr.isValid(trimmed)) return undefined;
  const address = ipaddr.parse(trimmed);
  return address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() ? (address as ipaddr.IPv6).toIPv4Address() : address;
}

function parseRange(entry: string): Range {
  if (entry.includes('/')) {
    try {
      return ipaddr.parseCIDR(entry);
    } catch {
      // Reported below with the entry.
    }
  } else {
    const address = parseAddress(entry);
    if (address) return [address, address.kind() === 'ipv4' ? 32 : 128];
  }
  throw new Error(`BATON_TRUSTED_PROXIES: "${entry}" is not an IP address or a CIDR range (e.g. 10.0.0.5, 10.0.0.0/8, loopback, or none)`);
}

/**
 * `BATON_TRUSTED_PROXIES`: addresses and CIDR ranges separated by commas or spaces, `loopback`
 * for 127.0.0.0/8 and ::1, or `none`. Unset (or empty): `loopback`, so that behind the bundled
 * web app — whose server forwards every browser request from this machine — each browser's
 * own address is counted. A wrong entry stops the start.
 */
export function parseTrustedProxies(raw: string | undefined): TrustedProxies {
  const entries = (raw ?? '').split(/[\s,]+/).filter(Boolean);
  if (entries.length === 0) return parseTrustedProxies('loopback');
  if (entries.length === 1 && entries[0]!.toLowerCase() === 'none') return { ranges: [] };
  return { ranges: entries.flatMap((entry) => (entry.toLowerCase() === 'loopback' ? LOOPBACK : [entry])).map(parseRange) };
}

function isTrusted(address: Address, trusted: TrustedProxies): boolean {
  return trusted.ranges.some(([base, bits]) => base.kind() === address.kind() && address.match(base, bits));
}

/**
 * The client's address, given the peer of the socket and its `X-Forwarded-For`. A peer that
 * is not a trusted proxy is the client, whatever it says. A trusted proxy appends the address
 * it was reached from, so the hops are read from the right: proxies are skipped, and the
 * first address that is not one is the client (anything left of it is the client's own say).
 */
export function clientAddress(peer: string | undefined, forwardedFor: string | undefined, trusted: TrustedProxies): string | undefined {
  const hops = (forwardedFor ?? '')
    .split(',')
    .map((hop) => hop.trim())
    .filter(Boolean);
  // No socket: a request made in-process (tests calling app.request); the server always has one.
  if (peer === undefined) return hops.at(-1);
  const peerAddress = parseAddress(peer);
  if (!peerAddress || !isTrusted(peerAddress, trusted)) return peerAddress?.toString() ?? peer;
  let client = peerAddress;
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = parseAddress(hops[i]!);
    // Garbage from a proxy's upstream: the last address known to be real counts.
    if (!hop) break;
    client = hop;
    if (!isTrusted(hop, trusted)) break;
  }
  return client.toString();
}

function socketPeer(c: Context): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    // Not served by @hono/node-server (tests calling app.request): no socket to ask.
    return undefined;
  }
}

/** The address a request came from, as the sign-in limit counts it. */
export function clientIp(c: Context, trusted: TrustedProxies): string | undefined {
  return clientAddress(socketPeer(c), c.req.header('x-forwarded-for'), trusted);
}

/**
 * Whether the request's `X-Forwarded-*` headers are a trusted proxy's word (the same rule as
 * `X-Forwarded-For`): the socket's peer is one. Without a socket (in-process requests) there
 * is no peer to doubt.
 */
export function isFromTrustedProxy(c: Context, trusted: TrustedProxies): boolean {
  const peer = socketPeer(c);
  if (peer === undefined) return true;
  const address = parseAddress(peer);
  return address !== undefined && isTrusted(address, trusted);
}
