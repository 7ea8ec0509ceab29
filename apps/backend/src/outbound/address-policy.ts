import ipaddr from 'ipaddr.js';

/**
 * Which addresses an outbound request may connect to.
 *
 * - `public`: global unicast, always allowed;
 * - `private`: loopback, RFC 1918, carrier-grade NAT, IPv6 unique-local — the operator's own
 *   machine and networks, allowed only with BATON_ALLOW_PRIVATE_URLS=true (a model server
 *   next to Baton: Ollama, vLLM);
 * - `forbidden`: everything else, never allowed — link-local (cloud metadata lives at
 *   169.254.169.254), unspecified (0.0.0.0 reaches the local machine), multicast, broadcast,
 *   reserved and documentation ranges, IPv6 forms that embed an IPv4 address, and the known
 *   metadata addresses inside otherwise private ranges.
 */
export type AddressClass = 'public' | 'private' | 'forbidden';

export interface OutboundPolicy {
  /** Loopback and private networks too (BATON_ALLOW_PRIVATE_URLS). */
  allowPrivateAddresses: boolean;
}

// Metadata services that sit inside ranges an operator may allow (ECS's 169.254.170.2 and
// the rest of 169.254/16 are link-local, refused anyway).
const METADATA_ADDRESSES = new Set(['100.100.100.200', 'fd00:ec2:0:0:0:0:0:254']);

const PRIVATE_V4 = new Set(['loopback', 'private', 'carrierGradeNat']);
const PRIVATE_V6 = new Set(['loopback', 'uniqueLocal']);
const globalUnicastV6 = ipaddr.IPv6.parseCIDR('2000::/3');

export function classifyAddress(address: string): AddressClass {
  if (!ipaddr.isValid(address)) return 'forbidden';
  let ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
  if (METADATA_ADDRESSES.has(ip.toNormalizedString())) return 'forbidden';
  const range = ip.range();
  if (ip.kind() === 'ipv4') {
    if (range === 'unicast') return 'public';
    return PRIVATE_V4.has(range) ? 'private' : 'forbidden';
  }
  if (PRIVATE_V6.has(range)) return 'private';
  // Only global unicast (2000::/3) outside every special range; "unicast" elsewhere is unassigned space.
  return range === 'unicast' && (ip as ipaddr.IPv6).match(globalUnicastV6) ? 'public' : 'forbidden';
}

export function isAllowedAddress(address: string, policy: OutboundPolicy): boolean {
  const kind = classifyAddress(address);
  return kind === 'public' || (kind === 'private' && policy.allowPrivateAddresses);
}
