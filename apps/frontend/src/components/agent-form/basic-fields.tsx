'use client';

import { Card } from '../ui/card';
import { controlProps, Field } from '../ui/field';
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
            {...controlProps('agent-name', { error: errors.name })}
            value={values.name}
            onChange={(e) => setField('name', e.target.value)}
            placeholder="e.g. Researcher"
            maxLength={200}
            autoComplete="off"
          />
        </Field>
        <Field id="agent-description" label="Description" hint={descriptionHint} error={errors.description}>
          <Input
            {...controlProps('agent-description', { hint: descriptionHint, error: errors.description })}
            value={values.description}
            onChange={(e) => setField('description', e.target.value)}
            placeholder="What this agent is good at"
            maxLength={2000}
            autoComplete="off"
          />
        </Field>
        {values.kind === 'local' && (
          <Field id="agent-systemPrompt" label="System prompt" hint={promptHint} error={errors.systemPrompt}>
            <Textarea
              {...controlProps('agent-systemPrompt', { hint: promptHint, error: errors.systemPrompt })}
              value={values.systemPrompt}
              onChange={(e) => setField('systemPrompt', e.target.value)}
              rows={6}
              placeholder="You are a careful researcher…"
              className="min-h-32 resize-y font-mono text-[13px]"
            />
          </Field>
        )}
      </div>
    </Card>
  );
}
