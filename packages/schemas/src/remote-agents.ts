import { z } from 'zod';
import { mcpHeadersSchema, mcpServerUrlSchema } from './mcp-servers';

/**
 * A remote A2A agent as stored and returned: the address of its Agent Card and the names of
 * the headers Baton sends to it. Header values are write-only (stored encrypted, like provider
 * keys); only their names come back.
 */
export const remoteAgentConfigSchema = z
  .object({
    cardUrl: z.string(),
    headerNames: z.array(z.string()),
  })
  .meta({ id: 'RemoteAgent' });
export type RemoteAgentConfig = z.infer<typeof remoteAgentConfigSchema>;

/**
 * `cardUrl`: the Agent Card's URL (`…/.well-known/agent-card.json`), or the agent's base URL,
 * to which the well-known path is added. `headers` (e.g. `Authorization`) go only to the card
 * URL's origin; on update, leaving them out keeps the stored ones (same origin only).
 */
export const remoteAgentInputSchema = z
  .strictObject({
    cardUrl: mcpServerUrlSchema,
    headers: mcpHeadersSchema.optional(),
  })
  .meta({ id: 'RemoteAgentInput' });
export type RemoteAgentInput = z.infer<typeof remoteAgentInputSchema>;

/** "Fetch card" in the agent editor: the card at `cardUrl`, read with `headers`, or with the stored headers of `agentId`. */
export const remoteCardRequestSchema = z
  .strictObject({
    cardUrl: mcpServerUrlSchema,
    headers: mcpHeadersSchema.optional(),
    agentId: z.string().min(1).max(200).optional(),
  })
  .meta({ id: 'RemoteCardRequest' });
export type RemoteCardRequest = z.infer<typeof remoteCardRequestSchema>;

export const remoteAgentSkillSchema = z.object({ id: z.string(), name: z.string(), description: z.string() }).meta({ id: 'RemoteAgentSkill' });
export type RemoteAgentSkill = z.infer<typeof remoteAgentSkillSchema>;

/** What the editor shows of a card. */
export const remoteAgentCardSchema = z
  .object({
    name: z.string(),
    description: z.string(),
    version: z.string(),
    streaming: z.boolean(),
    skills: z.array(remoteAgentSkillSchema),
  })
  .meta({ id: 'RemoteAgentCard' });
export type RemoteAgentCard = z.infer<typeof remoteAgentCardSchema>;

/** A card that cannot be read is a result with the reason, not an HTTP error. */
export const remoteCardResultSchema = z
  .discriminatedUnion('ok', [z.object({ ok: z.literal(true), card: remoteAgentCardSchema }), z.object({ ok: z.literal(false), message: z.string() })])
  .meta({ id: 'RemoteCardResult' });
export type RemoteCardResult = z.infer<typeof remoteCardResultSchema>;
