'use client';

import { MAX_CONCURRENT_SUB_AGENTS, MAX_DELEGATION_DEPTH, type ContextMode, type ToolPolicy } from '@baton/schemas';
import { Card } from '../ui/card';
import { controlProps, Field } from '../ui/field';
import { Input, Select } from '../ui/input';
import { Switch } from '../ui/switch';
import type { SetDelegationField } from './agent-form';
import type { AgentField, DelegationFormValues } from './form-values';

interface Props {
  values: DelegationFormValues;
  errors: Partial<Record<AgentField, string>>;
  setField: SetDelegationField;
}

const CONTEXT_MODES: { value: ContextMode; label: string }[] = [
  { value: 'task_only', label: 'The task only' },
  { value: 'summary', label: 'A summary of the conversation, then the task' },
  { value: 'full', label: 'The whole conversation, then the task' },
];

const TOOL_POLICIES: { value: ToolPolicy; label: string }[] = [
  { value: 'intersect', label: 'Only tools the delegating agent also has' },
  { value: 'own', label: 'The sub-agent’s own tools' },
];

const hints = {
  maxDepth: `Levels of sub-agents below a chat with this agent, 1 to ${MAX_DELEGATION_DEPTH}. At 2, its sub-agents may delegate to their own sub-agents.`,
  generalPurpose: 'Lets this agent hand a task to itself in a fresh context ("general-purpose"): same instructions and tools, none of the conversation.',
  contextMode: 'What a sub-agent gets of the conversation besides its task, unless the call asks for another mode.',
  toolPolicy: 'Whether a sub-agent may use tools the agent above it does not have.',
  maxConcurrent: `Sub-agents of one step that run at once, 1 to ${MAX_CONCURRENT_SUB_AGENTS}; the others wait their turn.`,
  maxResultChars: 'A longer result reaches the delegating agent cut, with a note; the whole result stays in the sub-chat.',
  maxTokensPerDelegation: 'Tokens one sub-agent (with its own sub-agents) may use; when they run out it reports what it has so far.',
  maxTokensPerTree: 'Tokens all delegations of one answer may use together, at every depth.',
  requireApproval:
    'Each task waits in the chat until you approve it (as written or edited) or reject it: no sub-agent starts and nothing is spent before. REST clients decide through POST …/approvals/:toolCallId.',
};

/**
 * The agent's delegation rules. They apply when the agent is the root of a chat: its
 * settings govern the whole tree of sub-agents below (a sub-agent's own settings do not).
 */
export function DelegationCard({ values, errors, setField }: Props) {
  const error = (f: keyof DelegationFormValues) => errors[`delegation.${f}`];
  const id = (f: keyof DelegationFormValues) => `agent-delegation.${f}`;
  return (
    <Card title="Delegation" description="How sub-agents work when a chat is with this agent. These settings govern the whole tree below it, at every depth.">
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id={id('maxDepth')} label="Depth" hint={hints.maxDepth} error={error('maxDepth')}>
          <Input
            {...controlProps(id('maxDepth'), { hint: hints.maxDepth, error: error('maxDepth') })}
            type="number"
            inputMode="numeric"
            min={1}
            max={MAX_DELEGATION_DEPTH}
            step={1}
            value={values.maxDepth}
            onChange={(e) => setField('maxDepth', e.target.value)}
          />
        </Field>
        <Field id={id('maxConcurrent')} label="Sub-agents at once" hint={hints.maxConcurrent} error={error('maxConcurrent')}>
          <Input
            {...controlProps(id('maxConcurrent'), { hint: hints.maxConcurrent, error: error('maxConcurrent') })}
            type="number"
            inputMode="numeric"
            min={1}
            max={MAX_CONCURRENT_SUB_AGENTS}
            step={1}
            value={values.maxConcurrent}
            onChange={(e) => setField('maxConcurrent', e.target.value)}
          />
        </Field>
        {/* Full width: the choices are sentences, cut off in half a card. */}
        <Field id={id('contextMode')} label="Context" hint={hints.contextMode} error={error('contextMode')} className="sm:col-span-2">
          <Select
            {...controlProps(id('contextMode'), { hint: hints.contextMode, error: error('contextMode') })}
            value={values.contextMode}
            onChange={(e) => setField('contextMode', e.target.value as ContextMode)}
          >
            {CONTEXT_MODES.map((m) => (
              <option key={m.value} value={m.value}>
                {m.label}
              </option>
            ))}
          </Select>
        </Field>
        <Field id={id('toolPolicy')} label="Tool permissions" hint={hints.toolPolicy} error={error('toolPolicy')} className="sm:col-span-2">
          <Select
            {...controlProps(id('toolPolicy'), { hint: hints.toolPolicy, error: error('toolPolicy') })}
            value={values.toolPolicy}
            onChange={(e) => setField('toolPolicy', e.target.value as ToolPolicy)}
          >
            {TOOL_POLICIES.map((p) => (
              <option key={p.value} value={p.value}>
                {p.label}
              </option>
            ))}
          </Select>
        </Field>
        <Field id={id('maxResultChars')} label="Result length (characters)" hint={hints.maxResultChars} error={error('maxResultChars')}>
          <Input
            {...controlProps(id('maxResultChars'), { hint: hints.maxResultChars, error: error('maxResultChars') })}
            type="number"
            inputMode="numeric"
            min={100}
            step={100}
            value={values.maxResultChars}
            onChange={(e) => setField('maxResultChars', e.target.value)}
          />
        </Field>
        <div className="flex flex-col gap-1.5">
          <span className="flex items-center justify-between gap-3 text-sm font-medium text-neutral-800 dark:text-neutral-200">
            <label htmlFor={id('generalPurpose')}>General-purpose sub-agent</label>
            <Switch
              id={id('generalPurpose')}
              checked={values.generalPurpose}
              onCheckedChange={(on) => setField('generalPurpose', on)}
              aria-describedby={`${id('generalPurpose')}-hint`}
            />
          </span>
          <p id={`${id('generalPurpose')}-hint`} className="text-xs text-neutral-500 dark:text-neutral-400">
            {hints.generalPurpose}
          </p>
        </div>
        <div className="flex flex-col gap-1.5">
          <span className="flex items-center justify-between gap-3 text-sm font-medium text-neutral-800 dark:text-neutral-200">
            <label htmlFor={id('requireApproval')}>Approve each delegation</label>
            <Switch
              id={id('requireApproval')}
              checked={values.requireApproval}
              onCheckedChange={(on) => setField('requireApproval', on)}
              aria-describedby={`${id('requireApproval')}-hint`}
            />
          </span>
          <p id={`${id('requireApproval')}-hint`} className="text-xs text-neutral-500 dark:text-neutral-400">
            {hints.requireApproval}
          </p>
        </div>
        <TokenLimitField
          field="maxTokensPerDelegation"
          label="Tokens per delegation"
          hint={hints.maxTokensPerDelegation}
          value={values.maxTokensPerDelegation}
          error={error('maxTokensPerDelegation')}
          setField={setField}
        />
        <TokenLimitField
          field="maxTokensPerTree"
          label="Tokens per answer (whole tree)"
          hint={hints.maxTokensPerTree}
          value={values.maxTokensPerTree}
          error={error('maxTokensPerTree')}
          setField={setField}
        />
      </div>
    </Card>
  );
}

/** A token budget: a "No limit" checkbox, and the number once a limit is set. */
function TokenLimitField({
  field,
  label,
  hint,
  value,
  error,
  setField,
}: {
  field: 'maxTokensPerDelegation' | 'maxTokensPerTree';
  label: string;
  hint: string;
  value: string | null;
  error?: string;
  setField: SetDelegationField;
}) {
  const id = `agent-delegation.${field}`;
  const unlimited = value === null;
  return (
    <Field id={id} label={label} hint={hint} error={error}>
      <div className="flex items-center gap-3">
        <Input
          {...controlProps(id, { hint, error })}
          type="number"
          inputMode="numeric"
          min={100}
          step={1000}
          value={value ?? ''}
          placeholder={unlimited ? 'No limit' : 'e.g. 50000'}
          disabled={unlimited}
          onChange={(e) => setField(field, e.target.value)}
          className="min-w-0 flex-1"
        />
        <label className="flex shrink-0 cursor-pointer items-center gap-1.5 text-sm text-neutral-700 dark:text-neutral-300">
          <input
            type="checkbox"
            checked={unlimited}
            onChange={(e) => setField(field, e.target.checked ? null : '')}
            className="h-4 w-4 cursor-pointer accent-indigo-600"
            aria-label={`${label}: no limit`}
          />
          No limit
        </label>
      </div>
    </Field>
  );
}
