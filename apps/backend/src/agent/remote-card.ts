import { type RemoteCardRequest, type RemoteCardResult, secretOriginChanged } from '@baton/schemas';
import { cardSummary, fetchAgentCard } from '../a2a-client/connect';
import type { Database } from '../db/client';
import { errorTextForUser } from '../error-text';
import type { Secrets } from '../secrets/secrets';
import { findAgent } from '../services/agents';
import { readRemoteHeaders } from '../services/remote-agents';
import { assertSecretStaysHome } from '../services/secret-origin';

/**
 * "Fetch card" in the agent editor: the card at `cardUrl`, through the guarded fetch the
 * runtime uses (what reads here is reachable at run time), with the headers typed or the
 * stored ones of `agentId` — those only for the origin they were stored for. A card that
 * cannot be read is a result with the reason, not an HTTP error.
 */
export async function readRemoteCard(
  deps: { db: Database; secrets: Secrets; providerFetch: typeof fetch },
  workspaceId: string,
  req: RemoteCardRequest,
): Promise<RemoteCardResult> {
  let headers = req.headers ?? {};
  if (!req.headers && req.agentId) {
    const stored = await findAgent(deps.db, workspaceId, req.agentId);
    if (stored?.remote && stored.remoteHeaders) {
      assertSecretStaysHome({ storedUrl: stored.remote.cardUrl, nextUrl: req.cardUrl, hasStoredSecret: true, secretGiven: false, field: 'headers' });
      if (!secretOriginChanged(stored.remote.cardUrl, req.cardUrl)) headers = readRemoteHeaders(deps.secrets, stored);
    }
  }
  try {
    return { ok: true, card: cardSummary(await fetchAgentCard(deps.providerFetch, req.cardUrl, headers)) };
  } catch (err) {
    return { ok: false, message: errorTextForUser(err) };
  }
}
