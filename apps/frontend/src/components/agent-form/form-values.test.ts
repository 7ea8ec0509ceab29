import { DEFAULT_DELEGATION_SETTINGS, errorCodes } from '@baton/schemas';
import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { apiErrorToErrors } from '@/lib/field-errors';
import { AGENT_FIELDS, buildAgentInput, toFormValues } from './form-values';

const valid = () => ({ ...toFormValues(), name: 'Lead' });

describe('buildAgentInput: delegation', () => {
  it('sends every delegation field, the defaults for a new agent', () => {
    const { input } = buildAgentInput(valid(), 'create');
    expect(input?.delegation).toEqual(DEFAULT_DELEGATION_SETTINGS);
  });

  it('turns the form values into numbers and "no limit" into null', () => {
    const values = valid();
    values.delegation = { ...values.delegation, maxDepth: '2', maxConcurrent: '3', maxTokensPerDelegation: '5000', maxTokensPerTree: null };
    const { input } = buildAgentInput(values, 'update');
    expect(input?.delegation).toMatchObject({ maxDepth: 2, maxConcurrent: 3, maxTokensPerDelegation: 5000, maxTokensPerTree: null });
  });

  it('puts each invalid delegation field’s message next to that field', () => {
    const values = valid();
    values.delegation = { ...values.delegation, maxDepth: '4', maxConcurrent: '', maxTokensPerTree: '' };
    const { input, errors } = buildAgentInput(values, 'create');
    expect(input).toBeUndefined();
    expect(errors.fields['delegation.maxDepth']).toBe('Depth must be a whole number from 1 to 3');
    expect(errors.fields['delegation.maxConcurrent']).toMatch(/^Sub-agents at once must be/);
    // A limit switched on but left empty is an error, not "no limit".
    expect(errors.fields['delegation.maxTokensPerTree']).toMatch(/^Tokens per answer must be/);
    expect(errors.fields.name).toBeUndefined();
  });
});

describe('apiErrorToErrors: nested fields', () => {
  it('maps the server’s issue details to the delegation field', () => {
    const err = new ApiError(400, errorCodes.invalidRequest, 'invalid request body: delegation.maxDepth: Too big', [
      { path: ['delegation', 'maxDepth'], message: 'Too big: expected number to be <=3' },
    ]);
    expect(apiErrorToErrors(err, AGENT_FIELDS).fields).toEqual({ 'delegation.maxDepth': 'Too big: expected number to be <=3' });
  });

  it('maps a message naming a nested field, and a list item to its list', () => {
    const nested = new ApiError(400, errorCodes.invalidRequest, 'delegation.maxConcurrent: must be at most 10');
    expect(apiErrorToErrors(nested, AGENT_FIELDS).fields).toEqual({ 'delegation.maxConcurrent': 'must be at most 10' });
    const item = new ApiError(400, errorCodes.invalidRequest, 'invalid request body: toolIds.2: unknown tool');
    expect(apiErrorToErrors(item, AGENT_FIELDS).fields).toEqual({ toolIds: 'unknown tool' });
  });
});

describe('apiErrorToErrors: a taken name', () => {
  it('puts the 409 message at the Name field', () => {
    const message = 'An agent named "Critic" already exists in this workspace';
    const err = new ApiError(409, errorCodes.conflict, message, [{ path: ['name'], message }]);
    expect(apiErrorToErrors(err, AGENT_FIELDS)).toEqual({ fields: { name: message } });
  });
});
