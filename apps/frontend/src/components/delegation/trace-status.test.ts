import { describe, expect, it } from 'vitest';
import { traceNodeStatus } from './trace-view';

describe('traceNodeStatus', () => {
  it('shows the outcome once there is one, whatever the run says', () => {
    expect(traceNodeStatus({ outcome: 'budget_exhausted', status: 'succeeded' })).toBe('budget_exhausted');
  });

  it('otherwise reads the latest run', () => {
    expect(traceNodeStatus({ outcome: null, status: 'running' })).toBe('running');
    expect(traceNodeStatus({ outcome: null, status: 'succeeded' })).toBe('success');
    expect(traceNodeStatus({ outcome: null, status: 'failed' })).toBe('error');
    expect(traceNodeStatus({ outcome: null, status: 'interrupted' })).toBe('interrupted');
    expect(traceNodeStatus({ outcome: null, status: 'awaiting_approval' })).toBe('awaiting_approval');
    expect(traceNodeStatus({ outcome: null, status: null })).toBe('queued');
  });
});

describe('outcomeOfSubChat', () => {
  it('reads the stored outcome; a row from before outcomes reads its status', async () => {
    const { outcomeOfSubChat } = await import('./sub-chat-outcome');
    expect(outcomeOfSubChat({ outcome: 'step_limit', status: 'error' })).toBe('step_limit');
    expect(outcomeOfSubChat({ outcome: null, status: 'cancelled' })).toBe('cancelled');
    expect(outcomeOfSubChat({ outcome: null, status: 'error' })).toBe('error');
  });
});
