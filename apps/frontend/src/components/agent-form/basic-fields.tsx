'use client';

import { Card } from '../ui/card';
import { describedBy, Field } from '../ui/field';
import { Input, Textarea } from '../ui/input';
import type { SetAgentField } from './agent-form';
import type { AgentField, AgentFormValues } from './form-values';

interface Props {
  values: AgentFormValues;
  errors: Partial<Record<AgentField, string>>;
  setField: SetAgentField;
}

/** Name, description and system prompt. */
export function BasicFields({ values, errors, setField }: Props) {
  const descriptionHint = 'Parent agents read this to decide when to delegate to this agent.';
  const promptHint = 'Instructions the agent follows in every chat.';
  return (
    <Card title="Basics">
      <div className="flex flex-col gap-4">
        <Field id="agent-name" label="Name" error={errors.name}>
          <Input
            id="agent-name"
            value={values.name}
            onChange={(e) => setField('name', e.target.value)}
            aria-invalid={Boolean(errors.name)}
            aria-describedby={describedBy('agent-name', { error: errors.name })}
            placeholder="e.g. Researcher"
            maxLength={200}
            autoComplete="off"
          />
        </Field>
        <Field id="agent-description" label="Description" hint={descriptionHint} error={errors.description}>
          <Input
            id="agent-description"
            value={values.description}
            onChange={(e) => setField('description', e.target.value)}
            aria-invalid={Boolean(errors.description)}
            aria-describedby={describedBy('agent-description', { hint: descriptionHint, error: errors.description })}
            placeholder="What this agent is good at"
            maxLength={2000}
            autoComplete="off"
          />
        </Field>
        <Field id="agent-systemPrompt" label="System prompt" hint={promptHint} error={errors.systemPrompt}>
          <Textarea
            id="agent-systemPrompt"
            value={values.systemPrompt}
            onChange={(e) => setField('systemPrompt', e.target.value)}
            aria-invalid={Boolean(errors.systemPrompt)}
            aria-describedby={describedBy('agent-systemPrompt', { hint: promptHint, error: errors.systemPrompt })}
            rows={6}
            placeholder="You are a careful researcher…"
            className="min-h-32 resize-y font-mono text-[13px]"
          />
        </Field>
      </div>
    </Card>
  );
}
