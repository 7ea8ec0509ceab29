import type { LanguageModelMiddleware, Tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { ToolCallFloodError, toolCallLimit, toolCallRefusedText } from './tool-call-limit';

type StreamPart = { type: string; id?: string; toolCallId?: string; toolName?: string; input?: string; delta?: string };

/** The parts a provider sends for `n` tool calls (start, one delta, end, call), then the finish. */
function callParts(n: number, prefix = 'c'): StreamPart[] {
  return [
    ...Array.from({ length: n }, (_, i) => [
      { type: 'tool-input-start', id: `${prefix}${i}`, toolName: 'clock' },
      { type: 'tool-input-delta', id: `${prefix}${i}`, delta: '{}' },
      { type: 'tool-input-end', id: `${prefix}${i}` },
      { type: 'tool-call', toolCallId: `${prefix}${i}`, toolName: 'clock', input: '{}' },
    ]).flat(),
    { type: 'finish' },
  ];
}

async function through(middleware: LanguageModelMiddleware, parts: StreamPart[]): Promise<{ out: StreamPart[]; error?: unknown }> {
  const start = (c: ReadableStreamDefaultController<StreamPart>) => {
    for (const p of parts) c.enqueue(p);
    c.close();
  };
  const doStream = async () => ({ stream: new ReadableStream({ start }) });
  const { stream } = await middleware.wrapStream!({ doStream, params: {} } as never);
  const out: StreamPart[] = [];
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { out };
      out.push(value as StreamPart);
    }
  } catch (error) {
    return { out, error };
  }
}

const clock: Tool = { inputSchema: {} as never, execute: async () => 'tick' } as Tool;
const run = (tool: Tool, toolCallId: string) => tool.execute!({}, { toolCallId, messages: [], context: {} });

describe('toolCallLimit', () => {
  it('passes the first calls of a response, answers the later ones with the refusal, and counts each response afresh', async () => {
    const limit = toolCallLimit(10);
    const { out } = await through(limit.middleware, callParts(25));
    // Later calls keep their tool-call part (the model made them) but lose their streamed input.
    expect(out.filter((p) => p.type === 'tool-call')).toHaveLength(25);
    expect(out.filter((p) => p.type === 'tool-input-start').map((p) => p.id)).toEqual(Array.from({ length: 10 }, (_, i) => `c${i}`));
    const tools = limit.wrapTools({ clock });
    expect(await run(tools.clock!, 'c9')).toBe('tick');
    await expect(run(tools.clock!, 'c10')).rejects.toThrow(toolCallRefusedText(10));
    // The next response (the next step) has its own 10.
    await through(limit.middleware, callParts(10, 'd'));
    expect(await run(tools.clock!, 'd9')).toBe('tick');
  });

  it('asks no one to approve a call that will not run', async () => {
    const limit = toolCallLimit(10);
    await through(limit.middleware, callParts(11));
    const tools = limit.wrapTools({ clock: { ...clock, needsApproval: true } as Tool });
    const needs = tools.clock!.needsApproval;
    if (typeof needs !== 'function') throw new Error('needsApproval should be a function');
    expect(await needs({}, { toolCallId: 'c0', messages: [], context: undefined })).toBe(true);
    expect(await needs({}, { toolCallId: 'c10', messages: [], context: undefined })).toBe(false);
  });

  it('ends a response with more than 16 times the limit with an error', async () => {
    const { out, error } = await through(toolCallLimit(10).middleware, callParts(200));
    expect(error).toBeInstanceOf(ToolCallFloodError);
    expect((error as Error).message).toContain('more than 160 tool calls in one response');
    expect(out.filter((p) => p.type === 'tool-call')).toHaveLength(160);
  });
});
