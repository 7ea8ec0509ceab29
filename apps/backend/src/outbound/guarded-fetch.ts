import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { Agent, fetch as undiciFetch } from 'undici';
import { SafeMessageError } from '../errors';
import { isAllowedAddress, classifyAddress, type OutboundPolicy } from './address-policy';

/** Resolves a host name to every address it has (injectable for tests). */
export type Resolve = (hostname: string, callback: (err: Error | null, addresses: LookupAddress[]) => void) => void;

const systemResolve: Resolve = (hostname, callback) => dnsLookup(hostname, { all: true }, callback);

/** Baton would not connect to this address (the person sees this text as it is). */
export class OutboundRefusedError extends SafeMessageError {
  constructor(kind: 'private' | 'forbidden') {
    super(
      kind === 'private'
        ? 'Baton does not connect to loopback or private-network addresses unless the operator sets BATON_ALLOW_PRIVATE_URLS=true (needed for a model server on the same machine or network, such as Ollama or vLLM).'
        : 'Baton does not connect to this address: link-local, cloud metadata and other special-purpose addresses are never allowed.',
    );
    this.name = 'OutboundRefusedError';
  }
}

export class RedirectRefusedError extends SafeMessageError {
  constructor(status: number) {
    super(`The provider answered with a redirect (HTTP ${status}). Baton does not follow redirects: use the address it redirects to as the base URL.`);
    this.name = 'RedirectRefusedError';
  }
}

/**
 * Ports the Fetch standard blocks (SMTP, IRC, X11, ManageSieve…): undici refuses them before
 * connecting with a bare "bad port", which would read as "unreachable" while the server is up.
 */
export class BlockedPortError extends SafeMessageError {
  constructor(port: string) {
    super(
      `Port ${port} is one that web clients never connect to (the Fetch standard's blocked ports, such as 25, 6000 or 4190), so Baton cannot reach a server there: serve it on another port.`,
    );
    this.name = 'BlockedPortError';
  }
}

function refusalFor(address: string, policy: OutboundPolicy): OutboundRefusedError | undefined {
  if (isAllowedAddress(address, policy)) return undefined;
  return new OutboundRefusedError(classifyAddress(address) === 'private' ? 'private' : 'forbidden');
}

/**
 * The `lookup` the socket connects with: the addresses it checks are the addresses it
 * connects to, so a name that resolves differently a moment later (DNS rebinding) cannot
 * slip past. A name with any refused address is refused as a whole.
 */
function guardedLookup(policy: OutboundPolicy, resolve: Resolve) {
  return (hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    resolve(hostname, (err, addresses) => {
      if (err) return callback(err);
      if (addresses.length === 0) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }));
      for (const { address } of addresses) {
        const refused = refusalFor(address, policy);
        if (refused) return callback(refused);
      }
      if (options.all) callback(null, addresses);
      else callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

export interface GuardedFetchOptions extends OutboundPolicy {
  resolve?: Resolve;
}

/**
 * The one fetch for every outbound call to an address someone configured (model providers
 * and MCP servers, both through `providerFetch`): it connects only to allowed addresses
 * (checked after DNS, on the address actually used) and never follows a redirect.
 *
 * undici's own `fetch` with an `Agent` whose connector uses our `lookup`: the same HTTP stack
 * as Node's global fetch, with the connection step ours, rather than hand-written
 * node:http plumbing that would have to re-implement streaming, keep-alive and aborts.
 */
export function createGuardedFetch({ resolve = systemResolve, ...policy }: GuardedFetchOptions): typeof fetch {
  const agent = new Agent({ connect: { lookup: guardedLookup(policy, resolve) as never } });
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : input.toString());
    // A literal address never goes through lookup: check it here.
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    if (isIP(host)) {
      const refused = refusalFor(host, policy);
      if (refused) throw refused;
    }
    let response: Awaited<ReturnType<typeof undiciFetch>>;
    try {
      response = await undiciFetch(url, { ...(init as object), redirect: 'manual', dispatcher: agent } as never);
    } catch (err) {
      // undici wraps what the connector reports in "fetch failed": keep the reason readable.
      const cause = (err as { cause?: unknown }).cause;
      if (cause instanceof OutboundRefusedError) throw cause;
      if (cause instanceof Error && cause.message === 'bad port') throw new BlockedPortError(url.port);
      throw err;
    }
    if (response.status >= 300 && response.status < 400 && response.status !== 304) {
      await response.body?.cancel().catch(() => {});
      throw new RedirectRefusedError(response.status);
    }
    return response as unknown as Response;
  }) as typeof fetch;
}

/** The guarded fetches of one process, built once so their connection pools are shared. */
export interface Outbound {
  /** For providers workspace users configure: private addresses only when the operator allows them. */
  providerFetch: typeof fetch;
  /**
   * For what the operator configured in the environment (OPENAI_BASE_URL): trusted with
   * private addresses, still never link-local or metadata, never a redirect.
   */
  operatorFetch: typeof fetch;
}

export function createOutbound(policy: OutboundPolicy, resolve?: Resolve): Outbound {
  return {
    providerFetch: createGuardedFetch({ ...policy, resolve }),
    operatorFetch: createGuardedFetch({ allowPrivateAddresses: true, resolve }),
  };
}
