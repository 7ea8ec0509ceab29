import { agentCreateSchema, agentUpdateSchema, DEFAULT_MAX_STEPS, MAX_MAX_STEPS, type Agent, type AgentCreateParsed } from '@baton/schemas';
import { issuesToErrors, type FormErrors } from '@/lib/field-errors';

/** What the form edits: text inputs stay strings until the payload is built. */
export interface AgentFormValues {
  name: string;
  description: string;
  systemPrompt: string;
  /** '' = the server's default provider. */
  providerId: string;
  /** '' = the provider's default model. */
  modelId: string;
  /** '' = the model's default temperature. */
  temperature: string;
  maxSteps: string;
  toolIds: string[];
  subAgentIds: string[];
}

export const AGENT_FIELDS = ['name', 'description', 'systemPrompt', 'providerId', 'modelId', 'temperature', 'maxSteps', 'toolIds', 'subAgentIds'] as const;
export type AgentField = (typeof AGENT_FIELDS)[number];
export type AgentFormErrors = FormErrors<AgentField>;

const labels: Record<AgentField, string> = {
  name: 'Name',
  description: 'Description',
  systemPrompt: 'System prompt',
  providerId: 'Provider',
  modelId: 'Model',
  temperature: 'Temperature',
  maxSteps: 'Max steps',
  toolIds: 'Tools',
  subAgentIds: 'Sub-agents',
};

const numberHints: Partial<Record<AgentField, string>> = {
  temperature: 'Temperature must be a number from 0 to 2, or empty for the default',
  maxSteps: `Max steps must be a whole number from 1 to ${MAX_MAX_STEPS}`,
};

/** "must not be empty" → "Name must not be empty"; other messages just start with a capital. */
export function fieldMessage(field: AgentField, message: string) {
  if (numberHints[field]) return numberHints[field];
  if (/^must\b/.test(message)) return `${labels[field]} ${message}`;
  return message.charAt(0).toUpperCase() + message.slice(1);
}

export function toFormValues(agent?: Agent): AgentFormValues {
  return {
    name: agent?.name ?? '',
    description: agent?.description ?? '',
    systemPrompt: agent?.systemPrompt ?? '',
    providerId: agent?.providerId ?? '',
    modelId: agent?.modelId ?? '',
    temperature: agent?.temperature == null ? '' : String(agent.temperature),
    maxSteps: String(agent?.maxSteps ?? DEFAULT_MAX_STEPS),
    toolIds: agent?.toolIds ?? [],
    subAgentIds: agent?.subAgentIds ?? [],
  };
}

function parseNumber(text: string): number | null {
  const trimmed = text.trim();
  return trimmed === '' ? null : Number(trimmed);
}

/**
 * Builds the request body and checks it with the shared schema, so the form rejects
 * exactly what the API would. `modelId` is required once a provider is chosen.
 */
export function buildAgentInput(values: AgentFormValues, mode: 'create' | 'update') {
  const candidate = {
    name: values.name,
    description: values.description,
    systemPrompt: values.systemPrompt,
    providerId: values.providerId || null,
    modelId: values.modelId.trim() || null,
    temperature: parseNumber(values.temperature),
    maxSteps: parseNumber(values.maxSteps) ?? Number.NaN,
    toolIds: values.toolIds,
    subAgentIds: values.subAgentIds,
  };
  const schema = mode === 'create' ? agentCreateSchema : agentUpdateSchema;
  const parsed = schema.safeParse(candidate);
  const errors: AgentFormErrors = parsed.success ? { fields: {} } : issuesToErrors(parsed.error.issues, AGENT_FIELDS);
  for (const field of AGENT_FIELDS) {
    const message = errors.fields[field];
    if (message) errors.fields[field] = fieldMessage(field, message);
  }
  if (candidate.providerId && !candidate.modelId) errors.fields.modelId ??= 'Choose a model of this provider';
  const valid = parsed.success && !errors.form && Object.keys(errors.fields).length === 0;
  return { input: valid ? (parsed.data as AgentCreateParsed) : undefined, errors };
}
