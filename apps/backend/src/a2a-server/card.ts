import { A2A_PROTOCOL_VERSION, type AgentCard, type AgentSkill } from '@a2a-js/sdk';
import { A2A_LEGACY_PROTOCOL_VERSION } from '@a2a-js/sdk/compat/v0_3';
import type { AgentRow } from '../agent/runtime-types';
import type { Database } from '../db/client';
import type { InstanceMcpServers } from '../mcp/instance-servers';
import { findAgentsByIds } from '../services/agents';
import { listWorkspaceTools } from '../services/workspace-tools';

/** The security scheme's name in the card: a Baton API key sent as a bearer token. */
export const A2A_SECURITY_SCHEME = 'batonApiKey';

/** A skill's description is a summary; a long MCP tool description is cut. */
const MAX_SKILL_DESCRIPTION = 500;

const short = (text: string) => (text.length > MAX_SKILL_DESCRIPTION ? `${text.slice(0, MAX_SKILL_DESCRIPTION - 1)}…` : text);

function skill(id: string, name: string, description: string, tags: string[]): AgentSkill {
  return { id, name, description: short(description), tags, examples: [], inputModes: [], outputModes: [], securityRequirements: [] };
}

/**
 * The Agent Card of a published agent (A2A 1.0, as `@a2a-js/sdk` types it): the agent itself
 * as the first skill, then what it can hand work to (its sub-agents) and use (its tools), so a
 * client can tell what it is good for. One JSON-RPC interface at `endpoint`, spoken in A2A 1.0
 * and, for clients still on it, 0.3 (the SDK's compat layer: `message/send`, `tasks/get`…).
 */
export async function agentCard(db: Database, instanceMcp: InstanceMcpServers, agent: AgentRow, endpoint: string): Promise<AgentCard> {
  const [subAgents, tools] = await Promise.all([
    findAgentsByIds(db, agent.workspaceId, agent.subAgentIds),
    agent.toolIds.length > 0 ? listWorkspaceTools(db, agent.workspaceId, instanceMcp) : Promise.resolve([]),
  ]);
  const toolIds = new Set(agent.toolIds);
  const skills = [
    skill(agent.id, agent.name, agent.description || `Chat with ${agent.name}`, ['agent']),
    ...subAgents.map((s) => skill(`sub-agent:${s.id}`, s.name, s.description || `Delegates tasks to ${s.name}`, ['sub-agent'])),
    ...tools.filter((t) => toolIds.has(t.id)).map((t) => skill(`tool:${t.id}`, t.name, t.description || t.name, ['tool'])),
  ];
  return {
    name: agent.name,
    description: agent.description || `${agent.name}, an agent on Baton`,
    supportedInterfaces: [
      { url: endpoint, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: A2A_PROTOCOL_VERSION },
      { url: endpoint, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: A2A_LEGACY_PROTOCOL_VERSION },
    ],
    provider: undefined,
    version: agent.updatedAt.toISOString(),
    capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: {
      [A2A_SECURITY_SCHEME]: {
        scheme: {
          $case: 'httpAuthSecurityScheme',
          value: {
            scheme: 'Bearer',
            bearerFormat: 'Baton API key',
            description: 'A Baton API key of the workspace the agent belongs to (Settings → API keys)',
          },
        },
      },
    },
    securityRequirements: [{ schemes: { [A2A_SECURITY_SCHEME]: { list: [] } } }],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills,
    signatures: [],
  };
}

/**
 * The same card in A2A 0.3's shape, for clients that ask for no version (0.3's, which read
 * `url` and `protocolVersion`): what the SDK's Express card handler serves with its compat
 * layer on. Its translator is not exported outside the Express bundle, so it is written here.
 */
export function legacyAgentCard(card: AgentCard, endpoint: string) {
  return {
    protocolVersion: '0.3.0',
    name: card.name,
    description: card.description,
    url: endpoint,
    preferredTransport: 'JSONRPC',
    version: card.version,
    capabilities: { streaming: true, pushNotifications: false },
    securitySchemes: {
      [A2A_SECURITY_SCHEME]: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'Baton API key',
        description: 'A Baton API key of the workspace the agent belongs to',
      },
    },
    security: [{ [A2A_SECURITY_SCHEME]: [] }],
    defaultInputModes: card.defaultInputModes,
    defaultOutputModes: card.defaultOutputModes,
    skills: card.skills.map((s) => ({ id: s.id, name: s.name, description: s.description, tags: s.tags })),
  };
}
