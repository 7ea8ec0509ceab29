import { createOpenAI } from '@ai-sdk/openai';
import { experimental_streamTextLowMemory, isStepCount, streamText, toUIMessageStream } from 'ai';
const WORDS = 200;
const enc = new TextEncoder();
function sse(): ReadableStream<Uint8Array> {
  let i = -1;
  const base = { id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'baton-demo' };
  return new ReadableStream(
    {
      async pull(ctl) {
        await new Promise((r) => setImmediate(r));
        i++;
        if (i === 0)
          return ctl.enqueue(
            enc.encode(
              `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }], usage: null })}\n\n`,
            ),
          );
        if (i <= WORDS)
          return ctl.enqueue(
            enc.encode(
              `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: { content: 'word ' }, logprobs: null, finish_reason: null }], usage: null })}\n\n`,
            ),
          );
        if (i === WORDS + 1)
          return ctl.enqueue(
            enc.encode(
              `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: 'stop' }], usage: null })}\n\ndata: ${JSON.stringify({ ...base, choices: [], usage: { prompt_tokens: 1, completion_tokens: WORDS, total_tokens: WORDS + 1 } })}\n\ndata: [DONE]\n\n`,
            ),
          );
        ctl.close();
      },
    },
    { highWaterMark: 0 },
  );
}
const fetchStub = (async () => new Response(sse(), { headers: { 'content-type': 'text/event-stream' } })) as typeof fetch;
const model = createOpenAI({ apiKey: 'x', baseURL: 'http://x/v1', fetch: fetchStub }).chat('baton-demo');
async function turn(low: boolean, onChunk: boolean) {
  const opts = {
    model,
    messages: [{ role: 'user' as const, content: 'hi' }],
    onError: () => {},
    stopWhen: [isStepCount(20)],
    ...(onChunk ? { onChunk: () => {} } : {}),
  };
  const r = low ? experimental_streamTextLowMemory(opts) : streamText(opts);
  const s = toUIMessageStream({ stream: r.stream, generateMessageId: () => 'm1' });
  const reader = s.getReader();
  for (;;) {
    const { done } = await reader.read();
    if (done) break;
  }
}
for (let k = 0; k < 4; k++) {
  for (const [label, fn] of [
    ['streamText', () => turn(false, true)],
    ['lowMemory', () => turn(true, true)],
    ['lowMemory no onChunk', () => turn(true, false)],
  ] as const) {
    const c0 = process.cpuUsage();
    for (let j = 0; j < 20; j++) await fn();
    const c = process.cpuUsage(c0);
    console.log(label, ((c.user + c.system) / 20 / WORDS).toFixed(1), 'µs/word');
  }
}
