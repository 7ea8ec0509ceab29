import { describe, expect, it } from 'vitest';
import { gate, readPastKeepAlive, runLog } from '../../test/support/run-log';
import type { TurnResult } from '../agent/runtime-types';
import { completionStreamResponse } from './completion-stream';

const ids = { id: 'chatcmpl-msg-1', created: 1, model: 'agent_1' };
const result: TurnResult = {
  status: 'succeeded',
  steps: 2,
  responseMessage: {
    id: 'msg-1',
    role: 'assistant',
    parts: [],
    metadata: {
      finishReason: 'stop',
      usage: { own: { inputTokens: 3, outputTokens: 4 }, delegated: { inputTokens: 5, outputTokens: 6 }, total: { inputTokens: 8, outputTokens: 10 } },
    },
  },
};

function events(body: string) {
  return body
    .split('\n\n')
    .filter(Boolean)
    .map((frame) => (frame.startsWith('data: ') ? frame.slice(6) : frame));
}

describe('completionStreamResponse', () => {
  it('sends the role, one chunk per delta, a blank line between text parts, keep-alives while nothing comes, then finish, usage and [DONE]', async () => {
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
      // The delegation: no text for a while (tool chunks are not OpenAI's).
      {
        chunks: [
          { type: 'text-end', id: 'a' },
          { type: 'tool-input-start', toolCallId: 'c', toolName: 'newTask' },
        ],
        gate: held.gate,
      },
      { chunks: [{ type: 'text-start', id: 'b' }, { type: 'text-delta', id: 'b', delta: 'Done.' }, { type: 'finish' }] },
    ]);
    const res = completionStreamResponse(log, Promise.resolve(result), ids, { includeUsage: true, headers: { 'X-Baton-Chat-Id': 'chat_1' }, keepAliveMs: 5 });
    expect(res.headers.get('x-baton-chat-id')).toBe('chat_1');
    // Read until a keep-alive has come, then let the run go on.
    const text = await readPastKeepAlive(res, held.open);

    const frames = events(text).filter((f) => f !== ': keep-alive');
    expect(frames.at(-1)).toBe('[DONE]');
    const chunks = frames.slice(0, -1).map((f) => JSON.parse(f));
    expect(chunks[0].choices[0].delta).toEqual({ role: 'assistant', content: '' });
    expect(chunks.slice(1, 4).map((c) => c.choices[0].delta.content)).toEqual(['Asking ', 'them.', '\n\nDone.']);
    expect(chunks[4].choices[0]).toMatchObject({ delta: {}, finish_reason: 'stop' });
    expect(chunks[5]).toMatchObject({
      choices: [],
      usage: { prompt_tokens: 8, completion_tokens: 10, total_tokens: 18, baton: { delegated: { inputTokens: 5 } } },
    });
    expect(chunks.slice(0, 5).every((c) => c.usage === null && c.id === ids.id)).toBe(true);
  });

  it('ends a failed run with an error event', async () => {
    const failed: TurnResult = { status: 'failed', steps: 1, error: { code: 'provider_error', message: 'HTTP 500 from the provider' } };
    const res = completionStreamResponse(runLog([{ chunks: [{ type: 'start' }] }]), Promise.resolve(failed), ids, { includeUsage: false, headers: {} });
    const frames = events(await res.text());
    expect(JSON.parse(frames.at(-2)!)).toEqual({ error: { message: 'HTTP 500 from the provider', type: 'server_error', code: 'provider_error', param: null } });
    expect(frames.at(-1)).toBe('[DONE]');
  });
});
