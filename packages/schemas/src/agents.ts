import { z } from 'zod';
import { idSchema, nameSchema, pageSchema, storableString, timestampSchema } from './common';
import { isAdminRole, type WorkspaceRole } from './access';
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

/**
 * Who may change an agent besides its author and the workspace's admins: `author` (nobody
 * else) or `workspace` (every member). Everyone in the workspace may use every agent.
 */
export const agentEditableBySchema = z.enum(['author', 'workspace']).meta({ id: 'AgentEditableBy' });
export type AgentEditableBy = z.infer<typeof agentEditableBySchema>;

/**
 * Who may change an agent (issue 24 item 7), one rule for the API's 403s and the editor's
 * read-only view. Changing an agent changes it for everyone, so its author and the
 * workspace's admins may edit and delete it; other members may edit it only when it is shared
 * (`editableBy: "workspace"`), and never delete it or change who may edit it. An agent
 * without an author (the account is gone) is the admins' alone unless shared.
 */
export type AgentAction = 'edit' | 'delete' | 'share';
type AgentAuthorship = { authorId: string | null; editableBy: AgentEditableBy };

export function mayChangeAgent(actor: { userId: string; role: WorkspaceRole }, agent: AgentAuthorship, action: AgentAction): boolean {
  if (isAdminRole(actor.role) || (agent.authorId !== null && agent.authorId === actor.userId)) return true;
  return action === 'edit' && agent.editableBy === 'workspace';
}

const agentActionText: Record<AgentAction, string> = {
  edit: 'edit this agent',
  delete: 'delete this agent',
  share: 'change who may edit this agent',
};

/** Why a change is refused, naming who can: the API's 403 message and the editor's notice. */
export function agentRefusalReason(agent: AgentAuthorship, authorName: string | null, action: AgentAction): string {
  const who = agent.authorId && authorName ? `${authorName} (the author) or an admin` : 'an admin (the agent has no author any more)';
  const hint = action === 'edit' ? ' (ask them to share editing with the workspace)' : '';
  return `Only ${who} can ${agentActionText[action]}${hint}`;
}

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
    /** Who made the agent (null: nobody any more, e.g. the account was deleted; then only admins may edit it unless shared). */
    authorId: z.string().nullable(),
    /** The author's display name, for "Only Ada (the author) or an admin can edit this agent". */
    authorName: z.string().nullable(),
    editableBy: agentEditableBySchema,
    /** What the caller may do: change it; delete it; change `editableBy` (the author and admins for the last two). */
    canEdit: z.boolean(),
    canDelete: z.boolean(),
    canShare: z.boolean(),
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
  /** Only the author or an admin may change it (403 otherwise). */
  editableBy: agentEditableBySchema,
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
    editableBy: agentFields.editableBy.default('author'),
    allowModelOverride: agentFields.allowModelOverride.default(false),
  })
  .meta({ id: 'AgentCreate' });
export type AgentCreate = z.input<typeof agentCreateSchema>;
export type AgentCreateParsed = z.output<typeof agentCreateSchema>;

export const agentUpdateSchema = z.strictObject(agentFields).partial().meta({ id: 'AgentUpdate' });
export type AgentUpdate = z.infer<typeof agentUpdateSchema>;

/** `DELETE …/agents/:id` without `?force=true` when other people's chats use the agent: `409 agent_in_use`, these details. */
export const agentInUseDetailsSchema = z
  .object({
    /** Chats (and sub-chats) of other members that use the agent; they stay readable after the delete. */
    otherChats: z.number().int(),
  })
  .meta({ id: 'AgentInUseDetails' });
export type AgentInUseDetails = z.infer<typeof agentInUseDetailsSchema>;

// No `meta` id: a query schema with one is documented as a single parameter reference, not as its fields.
export const agentDeleteQuerySchema = z.object({
  /** `true`: delete even though other people's chats use it (the web app asks its person first). */
  force: z.enum(['true', 'false']).optional(),
});

export const agentPageSchema = pageSchema(agentSchema).meta({ id: 'AgentPage' });
