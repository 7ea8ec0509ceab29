// Reaching a remote A2A agent: its Agent Card and an `@a2a-js/sdk` client, both over the
// guarded fetch Baton uses for every address someone configured. The card's own interface
// URL may be on another host: the agent's headers (a bearer token…) go only to the origin
// of the card URL they were entered for.
import type { AgentCard } from '@a2a-js/sdk';
import { type Client, ClientFactory, ClientFactoryOptions, DefaultAgentCardResolver, JsonRpcTransportFactory, RestTransportFactory } from '@a2a-js/sdk/client';
import type { RemoteAgentCard } from '@baton/schemas';
import { SafeMessageError } from '../errors';

/** Without an event for this long (while no person is asked), a remote task counts as failed (BATON_A2A_TIMEOUT_MS). */
export const A2A_IDLE_TIMEOUT_MS = 300_000;

/** How long telling a remote agent to cancel its task may take (Stop, a shutdown, recovery). */
export const A2A_CANCEL_TIMEOUT_MS = 5_000;

export const AGENT_CARD_PATH = '/.well-known/agent-card.json';
const CARD_TIMEOUT_MS = 10_000;
const CARD_MAX_BYTES = 1_000_000;

/** A remote agent that cannot be used; the text is what the person reads. */
export class RemoteAgentError extends SafeMessageError {
  override name = 'RemoteAgentError';
}

/** The card's URL: the one given when it names a JSON document, else the well-known path under it. */
export function cardLocation(cardUrl: string): string {
  const url = new URL(cardUrl);
  if (url.pathname.endsWith('.json')) return url.toString();
  url.pathname = `${url.pathname.replace(/\/+$/, '')}${AGENT_CARD_PATH}`;
  return url.toString();
}

/** `base` with the agent's headers added to requests for `origin` (and only those). */
export function withAgentHeaders(base: typeof fetch, origin: string, headers: Record<string, string>): typeof fetch {
  if (Object.keys(headers).length === 0) return base;
  return ((input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : input.toString());
    if (url.origin !== origin) return base(input, init);
    const merged = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
    for (const [name, value] of Object.entries(headers)) merged.set(name, value);
    return base(input, { ...init, headers: merged });
  }) as typeof fetch;
}

const reasonOf = (err: unknown): string => {
  if (err instanceof SafeMessageError) return err.message;
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) return 'it did not answer in time';
  return 'it could not be reached';
};

/** Reads and checks the card (v1.0 cards, and v0.3 ones translated by the SDK). */
export async function fetchAgentCard(fetchImpl: typeof fetch, cardUrl: string, headers: Record<string, string>, signal?: AbortSignal): Promise<AgentCard> {
  const location = cardLocation(cardUrl);
  const fetchWith = withAgentHeaders(fetchImpl, new URL(cardUrl).origin, headers);
  const timeout = AbortSignal.timeout(CARD_TIMEOUT_MS);
  let response: Response;
  try {
    response = await fetchWith(location, { headers: { accept: 'application/json' }, signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
  } catch (err) {
    throw new RemoteAgentError(`The agent card could not be read: ${reasonOf(err)}.`);
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    const hint = response.status === 401 || response.status === 403 ? ' (check the headers, e.g. Authorization)' : '';
    throw new RemoteAgentError(`The agent card could not be read: the server answered HTTP ${response.status}${hint}.`);
  }
  const text = await response.text();
  if (text.length > CARD_MAX_BYTES) throw new RemoteAgentError('The agent card could not be read: it is larger than 1 MB.');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new RemoteAgentError('The agent card could not be read: the answer is not JSON.');
  }
  let card: AgentCard;
  try {
    card = new DefaultAgentCardResolver({ legacyCompat: { enabled: true } }).normalizeAgentCard(json);
  } catch {
    throw new RemoteAgentError('The agent card could not be read: it is not an A2A Agent Card.');
  }
  if (typeof card?.name !== 'string' || !Array.isArray(card.supportedInterfaces) || card.supportedInterfaces.length === 0) {
    throw new RemoteAgentError('The agent card could not be read: it is not an A2A Agent Card (no name or no interface to call).');
  }
  return card;
}

/** What the editor shows of a card. */
export function cardSummary(card: AgentCard): RemoteAgentCard {
  return {
    name: card.name,
    description: card.description ?? '',
    version: card.version ?? '',
    streaming: card.capabilities?.streaming === true,
    skills: (card.skills ?? []).map((s) => ({ id: s.id, name: s.name, description: s.description ?? '' })),
  };
}

export interface RemoteConnection {
  card: AgentCard;
  client: Client;
}

/** The card, then a client for the best interface it offers (JSON-RPC or HTTP+JSON, v1.0 or v0.3). */
export async function connectRemoteAgent(
  fetchImpl: typeof fetch,
  cardUrl: string,
  headers: Record<string, string>,
  signal?: AbortSignal,
): Promise<RemoteConnection> {
  const card = await fetchAgentCard(fetchImpl, cardUrl, headers, signal);
  const fetchWith = withAgentHeaders(fetchImpl, new URL(cardUrl).origin, headers);
  const legacyCompat = { enabled: true };
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl: fetchWith, legacyCompat }), new RestTransportFactory({ fetchImpl: fetchWith, legacyCompat })],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl: fetchWith, legacyCompat }),
    }),
  );
  try {
    return { card, client: await factory.createFromAgentCard(card) };
  } catch (err) {
    throw new RemoteAgentError(`The remote agent cannot be called: ${err instanceof Error ? err.message.slice(0, 200) : 'no interface Baton speaks'}.`);
  }
}
