'use client';

import { MAX_MAX_STEPS, type Provider } from '@baton/schemas';
import { Card } from '../ui/card';
import { controlProps, Field } from '../ui/field';
import { Input, Select } from '../ui/input';
import type { SetAgentField } from './agent-form';
import { SwitchRow } from './switch-row';
import type { AgentField, AgentFormValues } from './form-values';

interface Props {
  values: AgentFormValues;
  errors: Partial<Record<AgentField, string>>;
  setField: SetAgentField;
  providers: Provider[];
}

/** Provider + model, temperature and the step limit. */
export function ModelFields({ values, errors, setField, providers }: Props) {
  const provider = providers.find((p) => p.id === values.providerId);
  const modelOptions = provider ? withCurrent(provider.modelIds, values.modelId) : [];

  function chooseProvider(providerId: string) {
    setField('providerId', providerId);
    const next = providers.find((p) => p.id === providerId);
    setField('modelId', next?.modelIds[0] ?? '');
  }

  const modelHint = provider
    ? modelOptions.length
      ? undefined
      : 'This provider lists no models: type a model id, or add model ids on the Providers page.'
    : 'Leave empty to use the default model.';
  const temperatureHint = 'From 0 to 2. Empty uses the model default.';
  const stepsHint = `Model calls and tool rounds per answer, 1 to ${MAX_MAX_STEPS}.`;

  return (
    <Card title="Model settings">
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="agent-providerId" label="Provider" error={errors.providerId}>
          <Select
            {...controlProps('agent-providerId', { error: errors.providerId })}
            value={values.providerId}
            onChange={(e) => chooseProvider(e.target.value)}
          >
            <option value="">Default model</option>
            {providers.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
            {values.providerId && !provider && <option value={values.providerId}>Unknown provider ({values.providerId})</option>}
          </Select>
        </Field>
        <Field id="agent-modelId" label="Model" hint={modelHint} error={errors.modelId}>
          {modelOptions.length > 0 ? (
            <Select
              {...controlProps('agent-modelId', { hint: modelHint, error: errors.modelId })}
              value={values.modelId}
              onChange={(e) => setField('modelId', e.target.value)}
            >
              {modelOptions.map((m) => (
                <option key={m} value={m}>
                  {m}
                </option>
              ))}
            </Select>
          ) : (
            <Input
              {...controlProps('agent-modelId', { hint: modelHint, error: errors.modelId })}
              value={values.modelId}
              onChange={(e) => setField('modelId', e.target.value)}
              placeholder={provider ? 'model id' : 'Default model'}
              autoComplete="off"
            />
          )}
        </Field>
        <Field id="agent-temperature" label="Temperature" hint={temperatureHint} error={errors.temperature}>
          <Input
            {...controlProps('agent-temperature', { hint: temperatureHint, error: errors.temperature })}
            type="number"
            inputMode="decimal"
            min={0}
            max={2}
            step={0.1}
            value={values.temperature}
            onChange={(e) => setField('temperature', e.target.value)}
            placeholder="Default"
          />
        </Field>
        <Field id="agent-maxSteps" label="Max steps" hint={stepsHint} error={errors.maxSteps}>
          <Input
            {...controlProps('agent-maxSteps', { hint: stepsHint, error: errors.maxSteps })}
            type="number"
            inputMode="numeric"
            min={1}
            max={MAX_MAX_STEPS}
            step={1}
            value={values.maxSteps}
            onChange={(e) => setField('maxSteps', e.target.value)}
          />
        </Field>
      </div>
      <ul className="mt-2 border-t border-neutral-200 dark:border-neutral-800">
        <SwitchRow
          label="Choose the model per chat"
          description={
            !provider
              ? 'Needs a provider: people then pick another of its models for one chat, in the chat’s header.'
              : provider.modelIds.length < 2
                ? `${provider.name} lists ${provider.modelIds.length ? 'one model' : 'no models'}, so there is nothing to pick yet: add model ids on the Providers page (or use Test connection there).`
                : `People can pick another model of ${provider.name} for one chat, in the chat's header.`
          }
          checked={values.allowModelOverride}
          onCheckedChange={(checked) => setField('allowModelOverride', checked)}
        />
      </ul>
    </Card>
  );
}

/** The provider's models, plus the agent's current model if the provider no longer lists it. */
function withCurrent(modelIds: string[], current: string) {
  return current && !modelIds.includes(current) ? [current, ...modelIds] : modelIds;
}
