// The stored side of remote A2A agents: the card address and its header map, encrypted like
// provider keys and MCP headers and bound to the agent's row. Connections read the headers
// here; no response and no log line ever holds them.
import type { AgentCreateParsed, AgentUpdate, RemoteAgentConfig, RemoteAgentInput } from '@baton/schemas';
import { AppError, invalidRequest } from '../errors';
import type { Secrets } from '../secrets/secrets';
import { assertSecretStaysHome } from './secret-origin';

// The ciphertext is bound to its row: copied into another agent's row, it does not decrypt.
const headersContext = (agentId: string) => `agent.remote_headers:${agentId}`;

export interface RemoteColumns {
  remote: RemoteAgentConfig | null;
  remoteHeaders: string | null;
}

export interface StoredRemote {
  id: string;
  remote: RemoteAgentConfig | null;
  remoteHeaders: string | null;
}

/** The headers as sent to the remote agent. For connections only: never a response, never a log line. */
export function readRemoteHeaders(secrets: Secrets, row: { id: string; remoteHeaders: string | null }): Record<string, string> {
  if (!row.remoteHeaders) return {};
  return JSON.parse(secrets.decrypt(row.remoteHeaders, headersContext(row.id))) as Record<string, string>;
}

/**
 * The columns to write for `input` (undefined: leave them as they are). Headers left out of
 * an update are kept, but only while the card stays on the origin they were entered for.
 */
export function remoteColumns(
  secrets: Secrets | undefined,
  agentId: string,
  input: RemoteAgentInput | null | undefined,
  stored?: StoredRemote,
): RemoteColumns | undefined {
  if (input === undefined) return undefined;
  if (input === null) return { remote: null, remoteHeaders: null };
  if (!secrets) throw new AppError(500, 'internal_error', 'Remote agents need the secret store');
  if (input.headers === undefined && stored?.remote) {
    assertSecretStaysHome({
      storedUrl: stored.remote.cardUrl,
      nextUrl: input.cardUrl,
      hasStoredSecret: stored.remoteHeaders !== null,
      secretGiven: false,
      field: 'headers',
    });
    return { remote: { cardUrl: input.cardUrl, headerNames: stored.remote.headerNames }, remoteHeaders: stored.remoteHeaders };
  }
  const headers = input.headers ?? {};
  const names = Object.keys(headers);
  return {
    remote: { cardUrl: input.cardUrl, headerNames: names },
    remoteHeaders: names.length > 0 ? secrets.encrypt(JSON.stringify(headers), headersContext(agentId)) : null,
  };
}

type AgentShape = Pick<AgentCreateParsed, 'systemPrompt' | 'providerId' | 'modelId' | 'toolIds' | 'subAgentIds'>;

/**
 * A remote agent is run by someone else: it has no prompt, model, tools or sub-agents here
 * (its own delegations are its business). Checked on the agent as it would be stored.
 */
export function assertRemoteShape(agent: AgentShape & { remote: unknown }, patch?: AgentUpdate) {
  if (!agent.remote) return;
  const field = (['systemPrompt', 'providerId', 'modelId', 'toolIds', 'subAgentIds'] as const).find((k) => {
    const v = agent[k];
    return Array.isArray(v) ? v.length > 0 : v !== null && v !== '';
  });
  if (!field) return;
  const cleared = field === 'systemPrompt' ? '""' : field === 'toolIds' || field === 'subAgentIds' ? '[]' : 'null';
  const hint = patch && patch.remote !== undefined && patch[field] === undefined ? ` (set ${field}: ${cleared} in the same request)` : '';
  throw invalidRequest(
    `${field}: a remote agent has no ${field === 'systemPrompt' ? 'prompt' : field === 'providerId' || field === 'modelId' ? 'model' : field === 'toolIds' ? 'tools' : 'sub-agents'} of its own${hint}`,
  );
}
