import {
  agentCreateSchema,
  agentUpdateSchema,
  DEFAULT_DELEGATION_SETTINGS,
  DEFAULT_MAX_STEPS,
  MAX_CONCURRENT_SUB_AGENTS,
  MAX_DELEGATION_DEPTH,
  MAX_MAX_STEPS,
  type Agent,
  type AgentCreateParsed,
  type AgentEditableBy,
  type ContextMode,
  type ToolPolicy,
} from '@baton/schemas';
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
  delegation: DelegationFormValues;
  /** A local agent (run by a model) or a remote A2A agent. */
  kind: 'local' | 'remote';
  remoteCardUrl: string;
  /** `Name: value` lines; empty on an agent that has stored headers keeps them (values are write-only). */
  remoteHeaders: string;
  a2aPublished: boolean;
  editableBy: AgentEditableBy;
  /** People may pick another model of the provider for one chat (in the chat's header). */
  allowModelOverride: boolean;
}

/** The agent's `delegation` settings as the form edits them: numbers as typed, `null` = no limit. */
export interface DelegationFormValues {
  maxDepth: string;
  generalPurpose: boolean;
  contextMode: ContextMode;
  toolPolicy: ToolPolicy;
  maxConcurrent: string;
  maxResultChars: string;
  maxTokensPerDelegation: string | null;
  maxTokensPerTree: string | null;
  requireApproval: boolean;
}

export const DELEGATION_FIELDS = [
  'maxDepth',
  'generalPurpose',
  'contextMode',
  'toolPolicy',
  'maxConcurrent',
  'maxResultChars',
  'maxTokensPerDelegation',
  'maxTokensPerTree',
  'requireApproval',
] as const satisfies readonly (keyof DelegationFormValues)[];
export type DelegationField = (typeof DELEGATION_FIELDS)[number];

/** Form fields in page order; a delegation field is named by its path in the request (`delegation.maxDepth`). */
export const AGENT_FIELDS = [
  'name',
  'description',
  'systemPrompt',
  'providerId',
  'modelId',
  'temperature',
  'maxSteps',
  'allowModelOverride',
  'toolIds',
  'subAgentIds',
  'remote',
  ...DELEGATION_FIELDS.map((f) => `delegation.${f}` as const),
  'a2aPublished',
  'editableBy',
] as const;
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
  allowModelOverride: 'Choose the model per chat',
  toolIds: 'Tools',
  subAgentIds: 'Sub-agents',
  remote: 'Remote agent',
  'delegation.maxDepth': 'Depth',
  'delegation.generalPurpose': 'General-purpose sub-agent',
  'delegation.contextMode': 'Context',
  'delegation.toolPolicy': 'Tool permissions',
  'delegation.maxConcurrent': 'Sub-agents at once',
  'delegation.maxResultChars': 'Result length',
  'delegation.maxTokensPerDelegation': 'Tokens per delegation',
  'delegation.maxTokensPerTree': 'Tokens per answer',
  'delegation.requireApproval': 'Approve each delegation',
  a2aPublished: 'Publish over A2A',
  editableBy: 'Who can edit',
};

// The limits themselves come from the shared schema's messages only as "too small"; these say the whole range.
const numberHints: Partial<Record<AgentField, string>> = {
  temperature: 'Temperature must be a number from 0 to 2, or empty for the default',
  maxSteps: `Max steps must be a whole number from 1 to ${MAX_MAX_STEPS}`,
  'delegation.maxDepth': `Depth must be a whole number from 1 to ${MAX_DELEGATION_DEPTH}`,
  'delegation.maxConcurrent': `Sub-agents at once must be a whole number from 1 to ${MAX_CONCURRENT_SUB_AGENTS}`,
  'delegation.maxResultChars': 'Result length must be a whole number from 100 to 1,000,000 characters',
  'delegation.maxTokensPerDelegation': 'Tokens per delegation must be a whole number from 100 to 100,000,000, or no limit',
  'delegation.maxTokensPerTree': 'Tokens per answer must be a whole number from 100 to 100,000,000, or no limit',
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
    delegation: toDelegationValues(agent?.delegation ?? DEFAULT_DELEGATION_SETTINGS),
    kind: agent?.remote ? 'remote' : 'local',
    remoteCardUrl: agent?.remote?.cardUrl ?? '',
    remoteHeaders: '',
    a2aPublished: agent?.a2aPublished ?? false,
    editableBy: agent?.editableBy ?? 'author',
    allowModelOverride: agent?.allowModelOverride ?? false,
  };
}

/** `Name: value` lines as a header map; undefined when a line is not a header. */
export function parseHeaderLines(text: string): Record<string, string> | undefined {
  const headers: Record<string, string> = {};
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const colon = line.indexOf(':');
    if (colon <= 0) return undefined;
    headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return headers;
}

function toDelegationValues(d: Agent['delegation']): DelegationFormValues {
  const limit = (n: number | null) => (n === null ? null : String(n));
  return {
    maxDepth: String(d.maxDepth),
    generalPurpose: d.generalPurpose,
    requireApproval: d.requireApproval,
    contextMode: d.contextMode,
    toolPolicy: d.toolPolicy,
    maxConcurrent: String(d.maxConcurrent),
    maxResultChars: String(d.maxResultChars),
    maxTokensPerDelegation: limit(d.maxTokensPerDelegation),
    maxTokensPerTree: limit(d.maxTokensPerTree),
  };
}

function parseNumber(text: string): number | null {
  const trimmed = text.trim();
  return trimmed === '' ? null : Number(trimmed);
}

/** A required number: an empty box is invalid (NaN fails the schema), not a default. */
const requiredNumber = (text: string) => parseNumber(text) ?? Number.NaN;

/**
 * Builds the request body and checks it with the shared schema, so the form rejects
 * exactly what the API would. `modelId` is required once a provider is chosen.
 */
export function buildAgentInput(values: AgentFormValues, mode: 'create' | 'update') {
  const remote = values.kind === 'remote';
  const headers = parseHeaderLines(values.remoteHeaders);
  const candidate = {
    name: values.name,
    description: values.description,
    systemPrompt: remote ? '' : values.systemPrompt,
    providerId: remote ? null : values.providerId || null,
    modelId: remote ? null : values.modelId.trim() || null,
    temperature: parseNumber(values.temperature),
    maxSteps: requiredNumber(values.maxSteps),
    toolIds: remote ? [] : values.toolIds,
    subAgentIds: remote ? [] : values.subAgentIds,
    delegation: {
      maxDepth: requiredNumber(values.delegation.maxDepth),
      generalPurpose: values.delegation.generalPurpose,
      requireApproval: values.delegation.requireApproval,
      contextMode: values.delegation.contextMode,
      toolPolicy: values.delegation.toolPolicy,
      maxConcurrent: requiredNumber(values.delegation.maxConcurrent),
      maxResultChars: requiredNumber(values.delegation.maxResultChars),
      // A limit switched on but left empty is an error, not "no limit".
      maxTokensPerDelegation: values.delegation.maxTokensPerDelegation === null ? null : requiredNumber(values.delegation.maxTokensPerDelegation),
      maxTokensPerTree: values.delegation.maxTokensPerTree === null ? null : requiredNumber(values.delegation.maxTokensPerTree),
    },
    // A remote agent has no prompt, model, tools or sub-agents of its own; empty headers keep the stored ones.
    ...(remote
      ? {
          remote: { cardUrl: values.remoteCardUrl.trim(), ...(values.remoteHeaders.trim() && headers ? { headers } : {}) },
        }
      : { remote: null }),
    a2aPublished: values.a2aPublished,
    editableBy: values.editableBy,
    // A remote agent has no model to choose.
    allowModelOverride: remote ? false : values.allowModelOverride,
  };
  const schema = mode === 'create' ? agentCreateSchema : agentUpdateSchema;
  const parsed = schema.safeParse(candidate);
  const errors: AgentFormErrors = parsed.success ? { fields: {} } : issuesToErrors(parsed.error.issues, AGENT_FIELDS);
  for (const field of AGENT_FIELDS) {
    const message = errors.fields[field];
    if (message) errors.fields[field] = fieldMessage(field, message);
  }
  if (candidate.providerId && !candidate.modelId) errors.fields.modelId ??= 'Choose a model of this provider';
  if (remote && !headers) errors.fields.remote ??= 'Write each header on its own line as Name: value';
  if (remote && errors.fields.remote && /url/i.test(errors.fields.remote)) errors.fields.remote = 'Card URL must be a valid http(s) URL';
  const valid = parsed.success && !errors.form && Object.keys(errors.fields).length === 0;
  return { input: valid ? (parsed.data as AgentCreateParsed) : undefined, errors };
}
