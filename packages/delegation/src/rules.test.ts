import { DEFAULT_DELEGATION_SETTINGS, type BatonUIMessage } from '@baton/schemas';
import { describe, expect, it } from 'vitest';
import {
  capResult,
  countSteps,
  createLimiter,
  delegationBudget,
  nextStepFits,
  nextStepInput,
  partialResultReserve,
  stepOutputCap,
  effectiveToolIds,
  conversationFiles,
  unknownAttachments,
  unknownAttachmentsResult,
  isBeyondBatchLimit,
  newTaskCalls,
  offerableSubAgentIds,
  offersGeneralPurpose,
  readNewTaskOutput,
  rejectedResult,
  toNewTaskOutput,
} from './index';

const call = (id: string) => ({ type: 'tool-newTask', toolCallId: id, state: 'input-available', input: { subAgentId: 'a', task: 't' } }) as const;

describe('delegation rules', () => {
  it('indexes newTask calls per step and applies the batch limit', () => {
    const parts = [{ type: 'step-start' }, ...Array.from({ length: 11 }, (_, i) => call(`c${i}`)), { type: 'step-start' }, call('d0')];
    const calls = newTaskCalls({ id: 'm', parts } as unknown as BatonUIMessage);
    expect(calls.map((c) => [c.batchId, c.indexInStep, isBeyondBatchLimit(c)]).slice(9)).toEqual([
      ['m:1', 9, false],
      ['m:1', 10, true],
      ['m:2', 0, false],
    ]);
    expect(countSteps([{ role: 'assistant', parts } as unknown as BatonUIMessage, { role: 'user', parts: [{ type: 'step-start' }] } as never])).toBe(2);
  });

  it('offers no agent on the chain and nothing at the depth limit', () => {
    expect(offerableSubAgentIds(['a', 'b', 'c'], { chain: ['root', 'b'], depth: 1 }, { maxDepth: 2 })).toEqual(['a', 'c']);
    expect(offerableSubAgentIds(['a'], { chain: ['root', 'b'], depth: 2 }, { maxDepth: 2 })).toEqual([]);
    expect(offerableSubAgentIds(['root'], { chain: ['root'], depth: 0 }, { maxDepth: 3 })).toEqual([]);
    expect(offersGeneralPurpose({ chain: ['r'], depth: 0 }, { maxDepth: 1, generalPurpose: true })).toBe(true);
    expect(offersGeneralPurpose({ chain: ['r', 'r'], depth: 1 }, { maxDepth: 1, generalPurpose: true })).toBe(false);
  });

  it('intersects tools with the parent unless the policy is own', () => {
    expect(effectiveToolIds('intersect', ['calculator', 'currentTime'], ['currentTime'])).toEqual(['currentTime']);
    expect(effectiveToolIds('own', ['calculator'], [])).toEqual(['calculator']);
  });

  it('caps results without splitting a surrogate pair, and says so', () => {
    expect(capResult('short', 10)).toEqual({ result: 'short', truncated: false });
    const capped = capResult(`${'x'.repeat(9)}😀tail`, 10);
    expect(capped.truncated).toBe(true);
    expect(capped.result.startsWith('x'.repeat(9))).toBe(true);
    expect(capped.result).not.toContain('\ud83d');
    expect(capped.result).toContain('The whole result is in the sub-chat');
  });

  it('maps outcomes to outputs, and upgrades outputs stored before outcome existed', () => {
    expect(toNewTaskOutput({ outcome: 'budget_exhausted', result: 'r', subChatId: 's' })).toMatchObject({
      status: 'error',
      outcome: 'budget_exhausted',
      truncated: false,
    });
    expect(readNewTaskOutput({ result: 'r', status: 'success', subChatId: null })).toMatchObject({
      outcome: 'success',
      usage: { inputTokens: 0, outputTokens: 0 },
    });
    expect(readNewTaskOutput({ status: 'running', subChatId: 's', steps: 1, preview: '' })).toBeUndefined();
  });

  it('budgets a delegation by the smaller of its own limit and what is left of the tree', () => {
    expect(delegationBudget(DEFAULT_DELEGATION_SETTINGS, 10)).toBeNull();
    expect(delegationBudget({ maxTokensPerDelegation: 500, maxTokensPerTree: null }, 10_000)).toBe(500);
    expect(delegationBudget({ maxTokensPerDelegation: 500, maxTokensPerTree: 1_000 }, 800)).toBe(200);
    expect(delegationBudget({ maxTokensPerDelegation: null, maxTokensPerTree: 1_000 }, 2_000)).toBe(0);
  });

  it('lets a budgeted step start only when it and the final partial-result call after it fit', () => {
    // 1,500: steps capped at 187 output tokens, 93 kept for the final call's answer.
    expect(stepOutputCap(1_500)).toBe(187);
    expect(partialResultReserve(1_500)).toBe(93);
    const next = { inputTokens: 300, outputCap: stepOutputCap(1_500) };
    // used + step (487) + final call (its input: the transcript after the step, 487; its answer, 93)
    expect(nextStepFits(1_500, 433, next)).toBe(true);
    expect(nextStepFits(1_500, 434, next)).toBe(false);
    expect(nextStepInput({ inputTokens: 250, outputTokens: 30, toolResultChars: 41 })).toBe(291);
    // Caps stay useful at both ends.
    expect(stepOutputCap(0)).toBe(64);
    expect(stepOutputCap(1_000_000)).toBe(4_096);
    expect(partialResultReserve(1_000_000)).toBe(1_024);
  });

  it('runs at most n tasks at once, the rest in order', async () => {
    const limiter = createLimiter(2);
    const log: string[] = [];
    let active = 0;
    let peak = 0;
    await Promise.all(
      ['a', 'b', 'c', 'd', 'e'].map(async (name) => {
        const release = await limiter.acquire();
        active++;
        peak = Math.max(peak, active);
        log.push(name);
        await new Promise((r) => setTimeout(r, 5));
        active--;
        release();
        release();
      }),
    );
    expect(peak).toBe(2);
    expect(log).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('a rejected call: outcome rejected (status error), no sub-chat, the person’s reason quoted', () => {
    const output = toNewTaskOutput({ outcome: 'rejected', result: rejectedResult('  not today '), subChatId: null });
    expect(output).toMatchObject({ outcome: 'rejected', status: 'error', subChatId: null, truncated: false });
    expect(output.result).toContain('“not today”');
    expect(rejectedResult()).toContain('They gave no reason.');
    expect(readNewTaskOutput(output)).toEqual(output);
  });
});

describe('files of a conversation', () => {
  const url = (ws: string, id: string) => `/api/workspaces/${ws}/files/${id}`;
  const user = (...files: [string, string][]) =>
    ({
      role: 'user',
      parts: [{ type: 'text', text: 'x' }, ...files.map(([ws, id]) => ({ type: 'file', mediaType: 'text/plain', filename: `${id}.txt`, url: url(ws, id) }))],
    }) as BatonUIMessage;

  it('lists each file of this workspace once, in order, marking the latest user message’s', () => {
    const messages = [
      user(['w', 'a'], ['w', 'b']),
      { role: 'assistant', parts: [] } as unknown as BatonUIMessage,
      user(['w', 'b'], ['other', 'c'], ['w', 'd']),
    ];
    expect(conversationFiles(messages, 'w').map((f) => [f.id, f.name, f.inLatestMessage])).toEqual([
      ['a', 'a.txt', false],
      ['b', 'b.txt', true],
      ['d', 'd.txt', true],
    ]);
    expect(unknownAttachments(['d', 'c', 'c', 'zz'], conversationFiles(messages, 'w'))).toEqual(['c', 'zz']);
    expect(unknownAttachmentsResult(['c'], [{ id: 'a', name: 'a.txt' }])).toBe(
      'Not run: "c" is not a file of this conversation. Files you can pass in attachments: a.txt (a).',
    );
    expect(unknownAttachmentsResult(['c', 'zz'], [])).toBe('Not run: "c", "zz" are not files of this conversation. This conversation has no files.');
  });
});
