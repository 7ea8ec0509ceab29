// A reference for Baton's CPU per token: what the AI SDK alone costs per word, in this
// process, for the same model protocol and the same calls Baton makes (turn.ts:
// the single-consumer streamText through @ai-sdk/openai, then toUIMessageStream), fed from
// memory: no sockets, no database, no Baton. Paced = one SSE event per turn of the event
// loop (a model streaming), unpaced = the whole answer in one chunk.
import { createOpenAI } from '@ai-sdk/openai';
import { DEMO_MODEL_ID } from '@baton/demo-llm';
import { experimental_streamTextLowMemory as streamText, isStepCount, toUIMessageStream } from 'ai';

const encoder = new TextEncoder();

function completionEvents(words: number): string[] {
  const base = { id: 'chatcmpl-floor', object: 'chat.completion.chunk', created: 1, model: DEMO_MODEL_ID };
  const event = (choices: unknown[], usage: unknown = null) => `data: ${JSON.stringify({ ...base, choices, usage })}\n\n`;
  return [
    event([{ index: 0, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }]),
    ...Array.from({ length: words }, (_, i) => event([{ index: 0, delta: { content: `word${i} ` }, logprobs: null, finish_reason: null }])),
    event([{ index: 0, delta: {}, logprobs: null, finish_reason: 'stop' }]),
    event([], { prompt_tokens: 10, completion_tokens: words, total_tokens: words + 10 }),
    'data: [DONE]\n\n',
  ];
}

function body(events: string[], paced: boolean): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!paced) {
          controller.enqueue(encoder.encode(events.join('')));
          return controller.close();
        }
        if (i > 0) await new Promise((resolve) => setImmediate(resolve));
        if (i === events.length) return controller.close();
        controller.enqueue(encoder.encode(events[i++]!));
      },
    },
    { highWaterMark: 0 },
  );
}

export interface SdkFloor {
  pacedUs: number;
  unpacedUs: number;
}

/** CPU µs per word of the AI SDK pipeline alone (median of 3 rounds of `turns` 200-word answers). */
export async function measureSdkFloor({ words = 200, turns = 20 } = {}): Promise<SdkFloor> {
  const events = completionEvents(words);
  const perWord = async (paced: boolean) => {
    const fetch = (async () => new Response(body(events, paced), { headers: { 'content-type': 'text/event-stream' } })) as typeof globalThis.fetch;
    const model = createOpenAI({ apiKey: 'floor', baseURL: 'http://floor.invalid/v1', fetch }).chat(DEMO_MODEL_ID);
    const rounds: number[] = [];
    for (let r = 0; r < 4; r++) {
      const c0 = process.cpuUsage();
      for (let t = 0; t < turns; t++) {
        const result = streamText({ model, messages: [{ role: 'user', content: 'Hello' }], stopWhen: [isStepCount(20)], onError: () => {} });
        const reader = toUIMessageStream({ stream: result.stream, generateMessageId: () => 'msg_floor' }).getReader();
        while (!(await reader.read()).done);
      }
      const c = process.cpuUsage(c0);
      if (r > 0) rounds.push((c.user + c.system) / (turns * words));
    }
    return rounds.sort((a, b) => a - b)[1]!;
  };
  const pacedUs = await perWord(true);
  const unpacedUs = await perWord(false);
  return { pacedUs, unpacedUs };
}
