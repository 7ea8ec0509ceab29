import { z } from 'zod';
import { idSchema, nameSchema, pageSchema, storableString, timestampSchema } from './common';
import { contextModeSchema } from './delegation';
import { remoteAgentConfigSchema, remoteAgentInputSchema } from './remote-agents';

export const DEFAULT_MAX_STEPS = 20;
export const MAX_MAX_STEPS = 100;

/** How deep a delegation tree may grow: the root agent's sub-agents are depth 1. */
export const MAX_DELEGATION_DEPTH = 3;
export const MAX_CONCURRENT_SUB_AGENTS = 10;

export const toolPolicySchema = z
  .enum(['intersect', 'own'])
  .describe("intersect: a sub-agent's effective tools are its own tools that its parent may also use (recursively); own: its own tools");
export type ToolPolicy = z.infer<typeof toolPolicySchema>;

const tokenLimit = z.number().int().min(100).max(100_000_000).nullable();

const delegationFields = {
  maxDepth: z.number().int().min(1).max(MAX_DELEGATION_DEPTH).describe('How many levels of sub-agents the tree of a chat with this root agent may have'),
  generalPurpose: z.boolean().describe('newTask also accepts subAgentId "general-purpose": this agent itself in a fresh context'),
  contextMode: contextModeSchema,
  toolPolicy: toolPolicySchema,
  maxConcurrent: z.number().int().min(1).max(MAX_CONCURRENT_SUB_AGENTS).describe('Sub-agents of one step that run at once; the rest wait their turn'),
  maxResultChars: z
    .number()
    .int()
    .min(100)
    .max(1_000_000)
    .describe('A longer result reaches the parent cut (truncated: true); the whole result stays in the sub-chat'),
  maxTokensPerDelegation: tokenLimit.describe('Tokens one delegation (a sub-agent and its own sub-agents) may use; null: no limit'),
  maxTokensPerTree: tokenLimit.describe("Tokens all delegations of one answer's tree may use together; null: no limit"),
  requireApproval: z
    .boolean()
    .describe('Every newTask call of the tree waits for a person to approve it (optionally with an edited task) or reject it before anything is spent'),
};

/**
 * The delegation rules an agent sets when it is the root of a chat: the root agent
 * governs its whole delegation tree (a sub-agent's own settings apply only where it is a root).
 */
export const delegationSettingsSchema = z.object(delegationFields).meta({ id: 'DelegationSettings' });
export type DelegationSettings = z.infer<typeof delegationSettingsSchema>;

export const DEFAULT_DELEGATION_SETTINGS: DelegationSettings = {
  maxDepth: 1,
  generalPurpose: false,
  contextMode: 'task_only',
  toolPolicy: 'intersect',
  maxConcurrent: MAX_CONCURRENT_SUB_AGENTS,
  maxResultChars: 8_000,
  maxTokensPerDelegation: null,
  maxTokensPerTree: null,
  requireApproval: false,
};

/** On update, the fields given replace the stored ones. */
export const delegationSettingsInputSchema = z.strictObject(delegationFields).partial().meta({ id: 'DelegationSettingsInput' });
export type DelegationSettingsInput = z.infer<typeof delegationSettingsInputSchema>;

/** On create, every field is optional: its default applies. */
const delegationSettingsCreateSchema = z.strictObject({
  maxDepth: delegationFields.maxDepth.default(DEFAULT_DELEGATION_SETTINGS.maxDepth),
  generalPurpose: delegationFields.generalPurpose.default(DEFAULT_DELEGATION_SETTINGS.generalPurpose),
  contextMode: delegationFields.contextMode.default(DEFAULT_DELEGATION_SETTINGS.contextMode),
  toolPolicy: delegationFields.toolPolicy.default(DEFAULT_DELEGATION_SETTINGS.toolPolicy),
  maxConcurrent: delegationFields.maxConcurrent.default(DEFAULT_DELEGATION_SETTINGS.maxConcurrent),
  maxResultChars: delegationFields.maxResultChars.default(DEFAULT_DELEGATION_SETTINGS.maxResultChars),
  maxTokensPerDelegation: delegationFields.maxTokensPerDelegation.default(DEFAULT_DELEGATION_SETTINGS.maxTokensPerDelegation),
  maxTokensPerTree: delegationFields.maxTokensPerTree.default(DEFAULT_DELEGATION_SETTINGS.maxTokensPerTree),
  requireApproval: delegationFields.requireApproval.default(DEFAULT_DELEGATION_SETTINGS.requireApproval),
});

export const agentSchema = z
  .object({
    id: z.string(),
    workspaceId: z.string(),
    name: z.string(),
    description: z.string(),
    systemPrompt: z.string(),
    providerId: z.string().nullable(),
    modelId: z.string().nullable(),
    temperature: z.number().nullable(),
    maxSteps: z.number().int(),
    toolIds: z.array(z.string()),
    subAgentIds: z.array(z.string()),
    delegation: delegationSettingsSchema,
    /** Set for a remote A2A agent (no model, prompt, tools or sub-agents of its own: a leaf of Baton's tree). */
    remote: remoteAgentConfigSchema.nullable(),
    /** Callable by A2A clients (with an API key of the workspace): Agent Card at `/a2a/:id/.well-known/agent-card.json`, JSON-RPC at `/a2a/:id`. */
    a2aPublished: z.boolean(),
    /** People may pick another model of the agent's provider for one chat (the chat's `modelOverride`). */
    allowModelOverride: z.boolean(),
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
  })
  .meta({ id: 'Agent' });
export type Agent = z.infer<typeof agentSchema>;

const agentFields = {
  name: nameSchema,
  description: storableString.max(2_000),
  systemPrompt: storableString.max(100_000),
  providerId: idSchema.nullable(),
  modelId: storableString.trim().min(1).max(200).nullable(),
  temperature: z.number().min(0).max(2).nullable(),
  maxSteps: z.number().int().min(1).max(MAX_MAX_STEPS),
  toolIds: z.array(idSchema).max(50),
  subAgentIds: z.array(idSchema).max(50),
  delegation: delegationSettingsInputSchema,
  /** A remote A2A agent (null: a local one). A remote agent has no prompt, model, tools or sub-agents. */
  remote: remoteAgentInputSchema.nullable(),
  a2aPublished: z.boolean(),
  allowModelOverride: z.boolean(),
};

export const agentCreateSchema = z
  .strictObject({
    name: agentFields.name,
    description: agentFields.description.default(''),
    systemPrompt: agentFields.systemPrompt.default(''),
    providerId: agentFields.providerId.default(null),
    modelId: agentFields.modelId.default(null),
    temperature: agentFields.temperature.default(null),
    maxSteps: agentFields.maxSteps.default(DEFAULT_MAX_STEPS),
    toolIds: agentFields.toolIds.default([]),
    subAgentIds: agentFields.subAgentIds.default([]),
    delegation: delegationSettingsCreateSchema.default(DEFAULT_DELEGATION_SETTINGS),
    remote: agentFields.remote.default(null),
    a2aPublished: agentFields.a2aPublished.default(false),
    allowModelOverride: agentFields.allowModelOverride.default(false),
  })
  .meta({ id: 'AgentCreate' });
export type AgentCreate = z.input<typeof agentCreateSchema>;
export type AgentCreateParsed = z.output<typeof agentCreateSchema>;

export const agentUpdateSchema = z.strictObject(agentFields).partial().meta({ id: 'AgentUpdate' });
export type AgentUpdate = z.infer<typeof agentUpdateSchema>;

export const agentPageSchema = pageSchema(agentSchema).meta({ id: 'AgentPage' });
