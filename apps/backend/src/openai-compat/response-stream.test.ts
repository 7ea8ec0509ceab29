import { describe, expect, it } from 'vitest';
import { gate, readPastKeepAlive, runLog } from '../../test/support/run-log';
import type { TurnResult } from '../agent/runtime-types';
import { responseStreamResponse } from './response-stream';

const ids = { runId: 'run_1', createdAt: 1, model: 'agent_1', previousResponseId: null };
const scope = { fromPart: 0, clientToolNames: new Set(['lookup']) };
const usage = { own: { inputTokens: 3, outputTokens: 4 }, delegated: { inputTokens: 5, outputTokens: 6 }, total: { inputTokens: 8, outputTokens: 10 } };
const result: TurnResult = {
  status: 'succeeded',
  steps: 2,
  responseMessage: {
    id: 'msg-1',
    role: 'assistant',
    parts: [
      { type: 'text', text: 'Asking them.' },
      { type: 'text', text: 'Done.' },
      { type: 'tool-lookup', toolCallId: 'call_1', state: 'input-available', input: { q: 'x' } },
    ] as never,
    metadata: { finishReason: 'tool-calls', usage },
  },
};

/** Each SSE frame: its event name and data, or the comment. */
const frames = (body: string) =>
  body
    .split('\n\n')
    .filter(Boolean)
    .map((frame) => {
      const [head, data] = frame.split('\n');
      return head!.startsWith(':') ? { comment: head } : { event: head!.slice(7), data: JSON.parse(data!.slice(6)) };
    });

describe('responseStreamResponse', () => {
  it('names each event by its type, numbers them, keeps alive while nothing comes, and ends with the whole response', async () => {
    const held = gate();
    const log = runLog([
      {
        chunks: [
          { type: 'start' },
          { type: 'text-start', id: 'a' },
          { type: 'text-delta', id: 'a', delta: 'Asking ' },
          { type: 'text-delta', id: 'a', delta: 'them.' },
        ],
      },
      {
        chunks: [
          { type: 'text-end', id: 'a' },
          { type: 'tool-input-start', toolCallId: 'c', toolName: 'newTask' },
        ],
        gate: held.gate,
      },
      {
        chunks: [
          { type: 'text-start', id: 'b' },
          { type: 'text-delta', id: 'b', delta: 'Done.' },
          { type: 'tool-input-available', toolCallId: 'call_1', toolName: 'lookup', input: { q: 'x' } },
          { type: 'finish' },
        ],
      },
    ]);
    const res = responseStreamResponse(log, Promise.resolve(result), ids, scope, { headers: { 'X-Baton-Chat-Id': 'chat_1' }, keepAliveMs: 5 });
    expect(res.headers.get('x-baton-chat-id')).toBe('chat_1');
    // Read until a keep-alive has come, then let the run go on.
    const text = await readPastKeepAlive(res, held.open);

    const all = frames(text).filter((f) => !('comment' in f)) as { event: string; data: Record<string, unknown> }[];
    expect(all.every((f) => f.event === f.data.type)).toBe(true);
    expect(all.map((f) => f.data.sequence_number)).toEqual(all.map((_, i) => i));
    expect(all.filter((f) => f.event === 'response.output_text.delta').map((f) => f.data.delta)).toEqual(['Asking ', 'them.', '\n\nDone.']);
    expect(all.find((f) => f.event === 'response.output_text.done')!.data.text).toBe('Asking them.\n\nDone.');
    expect(all.find((f) => f.event === 'response.function_call_arguments.done')!.data).toMatchObject({
      item_id: 'fc_call_1',
      arguments: '{"q":"x"}',
      output_index: 1,
    });
    const last = all.at(-1)!;
    expect(last.event).toBe('response.completed');
    expect(last.data.response).toMatchObject({
      id: 'resp_run_1',
      status: 'completed',
      output_text: 'Asking them.\n\nDone.',
      output: [
        { type: 'message', id: 'msg_run_1' },
        { type: 'function_call', id: 'fc_call_1', call_id: 'call_1', name: 'lookup' },
      ],
      usage: { input_tokens: 8, output_tokens: 10, total_tokens: 18 },
    });
  });

  it('ends a failed run with response.failed and an error event', async () => {
    const failed: TurnResult = { status: 'failed', steps: 1, error: { code: 'provider_error', message: 'HTTP 500 from the provider' } };
    const res = responseStreamResponse(runLog([{ chunks: [{ type: 'start' }] }]), Promise.resolve(failed), ids, scope, { headers: {} });
    const all = frames(await res.text()) as { event: string; data: Record<string, unknown> }[];
    expect(all.map((f) => f.event)).toEqual(['response.created', 'response.in_progress', 'response.failed', 'error']);
    expect(all[2]!.data.response).toMatchObject({ status: 'failed', error: { code: 'provider_error', message: 'HTTP 500 from the provider' } });
    expect(all[3]!.data).toMatchObject({ code: 'provider_error', message: 'HTTP 500 from the provider' });
  });
});
