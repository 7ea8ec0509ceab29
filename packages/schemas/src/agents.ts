import { z } from 'zod';
import { idSchema, nameSchema, pageSchema, storableString, timestampSchema } from './common';

export const DEFAULT_MAX_STEPS = 20;
export const MAX_MAX_STEPS = 100;

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
  })
  .meta({ id: 'AgentCreate' });
export type AgentCreate = z.input<typeof agentCreateSchema>;
export type AgentCreateParsed = z.output<typeof agentCreateSchema>;

export const agentUpdateSchema = z.strictObject(agentFields).partial().meta({ id: 'AgentUpdate' });
export type AgentUpdate = z.infer<typeof agentUpdateSchema>;

export const agentPageSchema = pageSchema(agentSchema).meta({ id: 'AgentPage' });
