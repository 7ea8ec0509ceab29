// The demo model through the real AI SDK provider, in-process (the backend's wiring).
import { type ModelMessage, generateText, stepCountIs, streamText } from 'ai';
import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { createOpenAI } from '@ai-sdk/openai';
import { createDemoLlmApp, demoLlmFetch } from './app';
import { inProcessModel, newTask, noteTool, SUB_AGENTS, taskResult } from './test-support';

const model = inProcessModel(0);

/** A full garbage collection now (vitest's workers do not start with --expose-gc). */
function collectGarbage() {
  v8.setFlagsFromString('--expose_gc');
  const gc = vm.runInNewContext('gc') as () => void;
  gc();
  gc();
}

async function collect(result: { fullStream: AsyncIterable<{ type: string }> }) {
  const parts: { type: string; [key: string]: unknown }[] = [];
  for await (const part of result.fullStream) parts.push(part);
  return parts;
}

describe('plain reply', () => {
  it('streams a deterministic markdown reply in several chunks', async () => {
    const result = streamText({ model, prompt: 'Hello there' });
    const chunks: string[] = [];
    for await (const text of result.textStream) chunks.push(text);
    const text = chunks.join('');
    expect(chunks.length).toBeGreaterThan(10);
    expect(text).toContain("This is Baton's offline demo model: a scripted stand-in, not a language model.");
    expect(text).toContain('> Hello there');
    expect(text).toContain('`/delegate Researcher: find three facts about otters`');
    expect(await result.finishReason).toBe('stop');
    const again = await generateText({ model, prompt: 'Hello there' });
    expect(again.text).toBe(text);
  });

  it('reports usage when streaming and in the JSON response', async () => {
    const streamed = streamText({ model, prompt: 'count these five words' });
    const usage = await streamed.usage;
    expect(usage.inputTokens).toBe(4);
    expect(usage.outputTokens).toBeGreaterThan(10);
    expect(usage.totalTokens).toBe((usage.inputTokens ?? 0) + (usage.outputTokens ?? 0));

    const generated = await generateText({ model, prompt: 'count these five words' });
    expect(generated.usage).toMatchObject({ inputTokens: 4, outputTokens: usage.outputTokens });
  });

  it('uses a listed sub-agent in its /delegate hint', async () => {
    const { text } = await generateText({ model, system: `Your sub-agents:\n${SUB_AGENTS}`, prompt: 'hi' });
    expect(text).toContain('`/delegate Researcher: find three facts about otters`');
  });
});

describe('/delegate', () => {
  it('calls newTask with the id parsed from the tool description', async () => {
    const result = streamText({ model, tools: { newTask }, prompt: 'Please help.\n/delegate Researcher: find facts about otters' });
    const parts = await collect(result);
    expect(await result.text).toBe('Delegating 1 task (Researcher).');
    const calls = await result.toolCalls;
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ toolName: 'newTask', input: { subAgentId: 'agent_res_1', task: 'find facts about otters' } });
    expect(calls[0]!.toolCallId).toMatch(/^call_[A-Za-z0-9]{24}$/);
    expect(await result.finishReason).toBe('tool-calls');
    // The arguments arrive in pieces and the provider assembles them.
    expect(parts.filter((p) => p.type === 'tool-input-delta').length).toBeGreaterThanOrEqual(2);
  });

  it('emits one call per line, matching names case-insensitively', async () => {
    const prompt = ['/delegate researcher: find facts', '/DELEGATE Data   Cruncher: sum the numbers', '/delegate WRITER: write: a poem'].join('\n');
    const { toolCalls, text, finishReason } = await generateText({ model, tools: { newTask }, prompt });
    expect(text).toBe('Delegating 3 tasks (researcher, Data Cruncher, WRITER).');
    expect(finishReason).toBe('tool-calls');
    expect(toolCalls.map((c) => c.input)).toEqual([
      { subAgentId: 'agent_res_1', task: 'find facts' },
      { subAgentId: 'agent_dc_3', task: 'sum the numbers' },
      { subAgentId: 'agent_wri_2', task: 'write: a poem' },
    ]);
    expect(new Set(toolCalls.map((c) => c.toolCallId)).size).toBe(3);
  });

  it('streams three calls too', async () => {
    const prompt = '/delegate Researcher: a\n/delegate Writer: b\n/delegate Data Cruncher: c';
    const result = streamText({ model, tools: { newTask }, prompt });
    const calls = await result.toolCalls;
    expect(calls.map((c) => (c.input as { subAgentId: string }).subAgentId)).toEqual(['agent_res_1', 'agent_wri_2', 'agent_dc_3']);
  });

  it('passes an unknown name through as the id', async () => {
    const { toolCalls } = await generateText({ model, tools: { newTask }, prompt: '/delegate Ghost Writer: haunt the house' });
    expect(toolCalls[0]?.input).toEqual({ subAgentId: 'Ghost Writer', task: 'haunt the house' });
  });

  it('says no such sub-agent is available when newTask is not offered', async () => {
    const result = streamText({ model, prompt: '/delegate Researcher: find facts' });
    expect(await result.text).toBe('No sub-agent named **Researcher** is available to this agent.');
    expect(await result.toolCalls).toEqual([]);
    expect(await result.finishReason).toBe('stop');
  });
});

describe('as a sub-agent', () => {
  it('writes a working note, then calls taskResult with success', async () => {
    const result = streamText({ model, tools: { taskResult }, prompt: 'Summarize the otter report' });
    const calls = await result.toolCalls;
    expect(await result.text).toBe('Working on it: Summarize the otter report.');
    expect(calls).toHaveLength(1);
    const input = calls[0]!.input as { result: string; status: string };
    expect(calls[0]!.toolName).toBe('taskResult');
    expect(input.status).toBe('success');
    expect(input.result).toMatch(/^Done: Summarize the otter report\n\n- /);
    expect(await result.finishReason).toBe('tool-calls');
  });

  it('reports status error when the task contains the word "fail"', async () => {
    const { toolCalls } = await generateText({
      model,
      tools: { taskResult },
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Please FAIL at this task' }] }],
    });
    const input = toolCalls[0]!.input as { result: string; status: string };
    expect(input.status).toBe('error');
    expect(input.result).toMatch(/^Failed: Please FAIL at this task/);
  });
});

describe('after tool results', () => {
  it('quotes each result of the latest batch', async () => {
    const first = await generateText({ model, tools: { newTask }, prompt: '/delegate Researcher: facts\n/delegate Writer: poem' });
    const [research, poem] = first.toolCalls;
    const messages: ModelMessage[] = [
      { role: 'user', content: '/delegate Researcher: facts\n/delegate Writer: poem' },
      ...first.response.messages,
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: research!.toolCallId,
            toolName: 'newTask',
            output: { type: 'json', value: { result: 'Otters hold hands.\n\n- They sleep', status: 'success', subChatId: 'c1' } },
          },
          { type: 'tool-result', toolCallId: poem!.toolCallId, toolName: 'newTask', output: { type: 'text', value: 'the sub-agent crashed' } },
        ],
      },
    ];
    const result = streamText({ model, tools: { newTask }, messages });
    expect(await result.text).toBe(
      'Here is what came back:\n\n- **Researcher** (success): Otters hold hands.\n  \n  - They sleep\n- **Writer**: the sub-agent crashed',
    );
    expect(await result.finishReason).toBe('stop');
  });
});

describe('delegation v2', () => {
  it('a sub-agent offered newTask delegates, then reports the results through taskResult', async () => {
    const task = 'Split this.\n/delegate General-Purpose: add 2 and 3\n/delegate researcher: otter facts';
    const first = await generateText({ model, tools: { newTask, taskResult }, prompt: task });
    expect(first.text).toBe('Delegating 2 tasks (General-Purpose, researcher).');
    expect(first.toolCalls.map((c) => c.input)).toEqual([
      { subAgentId: 'general-purpose', task: 'add 2 and 3' },
      { subAgentId: 'agent_res_1', task: 'otter facts' },
    ]);
    const [sum, facts] = first.toolCalls;
    const output = (result: string, status: string) => ({
      type: 'json' as const,
      value: { result, status, subChatId: 'c1', outcome: status, usage: { inputTokens: 3, outputTokens: 4 }, truncated: false },
    });
    const messages: ModelMessage[] = [
      { role: 'user', content: task },
      ...first.response.messages,
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: sum!.toolCallId, toolName: 'newTask', output: output('5', 'success') },
          { type: 'tool-result', toolCallId: facts!.toolCallId, toolName: 'newTask', output: output('No facts.', 'error') },
        ],
      },
    ];
    const result = streamText({ model, tools: { newTask, taskResult }, messages });
    expect(await result.text).toBe('2 results are in; reporting back.');
    const calls = await result.toolCalls;
    expect(calls.map((c) => [c.toolName, c.input])).toEqual([
      ['taskResult', { result: 'Here is what came back:\n\n- **general-purpose** (success): 5\n- **Researcher** (error): No facts.', status: 'success' }],
    ]);
    expect(await result.finishReason).toBe('tool-calls');
  });

  it('[demo:work 3] writes three notes, one per step, then calls taskResult', async () => {
    const notes: string[] = [];
    const result = await generateText({
      model,
      tools: { note: noteTool(notes), taskResult },
      stopWhen: stepCountIs(20),
      prompt: 'Map the otter dens along the river [demo:work 3]',
    });
    expect(notes).toEqual([1, 2, 3].map((n) => `Note ${n} of 3: Map the otter dens along the river`));
    expect(result.steps).toHaveLength(4);
    expect(result.steps.map((s) => s.toolCalls.map((c) => c.toolName))).toEqual([['note'], ['note'], ['note'], ['taskResult']]);
    // Every step costs tokens, and the prompt grows with the conversation, so budgets can run out.
    const inputs = result.steps.map((s) => s.usage.inputTokens ?? 0);
    expect(inputs).toEqual([...inputs].sort((a, b) => a - b));
    expect(new Set(inputs).size).toBe(4);
    for (const step of result.steps) expect(step.usage.outputTokens).toBeGreaterThanOrEqual(10);
  });

  it('a large N reaches the step limit, and a partial-result request returns the notes', async () => {
    const notes: string[] = [];
    const prompt = 'Count the otters [demo:work 1000]';
    const worked = await generateText({ model, tools: { note: noteTool(notes), taskResult }, stopWhen: stepCountIs(100), prompt });
    expect(worked.steps).toHaveLength(100);
    expect(notes.at(-1)).toBe('Note 100 of 1000: Count the otters');

    const messages: ModelMessage[] = [
      { role: 'user', content: prompt },
      ...worked.responseMessages,
      { role: 'user', content: 'You ran out of steps. Report your result so far.' },
    ];
    const { text } = await generateText({ model, messages });
    expect(text).toBe(`Partial result: ${notes.join('; ')}`);
    expect(text.split('; ')).toHaveLength(100);
  });

  it('answers a summary request with a digest of the conversation, streamed', async () => {
    const result = streamText({
      model,
      system: 'Summarise the conversation for a sub-agent.',
      messages: [
        { role: 'user', content: 'We are   planning\na trip to see otters.' },
        { role: 'assistant', content: 'Scotland has many.' },
        { role: 'user', content: 'Then book it.' },
      ],
    });
    const chunks: string[] = [];
    for await (const text of result.textStream) chunks.push(text);
    expect(chunks.join('')).toBe('Summary of the conversation so far: We are planning a trip to see otters. Scotland has many. Then book it.');
    expect(chunks.length).toBeGreaterThan(5);
    expect(await result.finishReason).toBe('stop');
  });
});

describe('failure tokens', () => {
  it('[demo:error] → HTTP 500 that the AI SDK surfaces', async () => {
    await expect(generateText({ model, maxRetries: 0, prompt: 'hello [demo:error]' })).rejects.toThrow(/\[demo:error\]/);
    const errors: unknown[] = [];
    const result = streamText({ model, maxRetries: 0, prompt: 'hello [demo:error]', onError: ({ error }) => void errors.push(error) });
    const parts = await collect(result);
    expect(parts.some((p) => p.type === 'error')).toBe(true);
    expect(String(errors[0])).toMatch(/failed on purpose/);
  });

  it('[demo:drop] → the stream breaks off after a few words', async () => {
    const result = streamText({ model, maxRetries: 0, prompt: 'hello [demo:drop]', onError: () => {} });
    const parts: { type: string; text?: string }[] = [];
    // The broken body surfaces as a thrown error from the stream.
    await expect(
      (async () => {
        for await (const part of result.fullStream) parts.push(part);
      })(),
    ).rejects.toThrow(/Failed to process successful response/);
    const text = parts
      .filter((p) => p.type === 'text-delta')
      .map((p) => p.text)
      .join('');
    expect(text).toBe("This is Baton's offline demo ");
    expect(parts.some((p) => p.type === 'finish')).toBe(false);
  });

  it('[demo:stall] sends a few words, then nothing until the client gives up', async () => {
    const abort = new AbortController();
    const result = streamText({ model, maxRetries: 0, prompt: 'hello [demo:stall]', abortSignal: abort.signal, onError: () => {} });
    const parts: { type: string; text?: string }[] = [];
    const reading = (async () => {
      for await (const part of result.fullStream) parts.push(part);
    })();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const text = parts
      .filter((p) => p.type === 'text-delta')
      .map((p) => p.text)
      .join('');
    expect(text).toBe("This is Baton's offline demo ");
    expect(parts.some((p) => p.type === 'finish')).toBe(false);
    abort.abort();
    await reading.catch(() => {});
  });

  it('[demo:stall] through demoLlmFetch ends when the caller aborts, after a garbage collection too', async () => {
    const abort = new AbortController();
    const res = await demoLlmFetch('http://demo/v1/chat/completions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'baton-demo', stream: true, messages: [{ role: 'user', content: 'x [demo:stall]' }] }),
      signal: abort.signal,
    });
    const reader = res.body!.getReader();
    // Read up to the stall (the read after the last word waits), collect garbage, then abort.
    const reads: Promise<ReadableStreamReadResult<Uint8Array>>[] = [];
    for (;;) {
      const next = reader.read();
      const settled = await Promise.race([next.then(() => true), new Promise<false>((resolve) => setTimeout(() => resolve(false), 100))]);
      if (!settled) {
        reads.push(next);
        break;
      }
    }
    collectGarbage();
    abort.abort(new Error('stopped'));
    await expect(reads[0]).rejects.toThrow('stopped');
  });

  it('[demo:silent] answers with headers and no byte of body', async () => {
    const app = createDemoLlmApp({ delayMs: 0 });
    const abort = new AbortController();
    const res = await app.fetch(
      new Request('http://demo/v1/chat/completions', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'baton-demo', stream: true, messages: [{ role: 'user', content: 'x [demo:silent]' }] }),
        signal: abort.signal,
      }),
    );
    expect(res.status).toBe(200);
    const read = res.body!.getReader().read();
    const first = await Promise.race([read, new Promise((resolve) => setTimeout(() => resolve('nothing'), 150))]);
    expect(first).toBe('nothing');
    abort.abort();
    await read.catch(() => {});
  });

  it('[demo:garbage] ends the reply with a NUL byte and an unpaired surrogate', async () => {
    const { text } = await generateText({ model, prompt: 'hi [demo:garbage]' });
    expect(text).toContain('Garbage: \u0000 and \ud800 end.');
  });

  it('[demo:drop] without streaming breaks the JSON body', async () => {
    await expect(generateText({ model, maxRetries: 0, prompt: 'hello [demo:drop]' })).rejects.toThrow();
  });

  it('a token on a /delegate line travels to the sub-agent instead', async () => {
    const { toolCalls } = await generateText({ model, tools: { newTask }, prompt: '/delegate Researcher: dig [demo:error]' });
    expect(toolCalls[0]?.input).toEqual({ subAgentId: 'agent_res_1', task: 'dig [demo:error]' });
  });
});

describe('HTTP surface', () => {
  const app = createDemoLlmApp({ delayMs: 0 });
  const post = (body: unknown) =>
    app.request('/v1/chat/completions', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('demoLlmFetch reaches the ready app in-process', async () => {
    const ready = createOpenAI({ baseURL: 'http://demo-llm/v1', apiKey: 'demo', fetch: demoLlmFetch }).chat('baton-demo');
    const { text, finishReason } = await generateText({ model: ready, prompt: 'ping' });
    expect(text).toContain('> ping');
    expect(finishReason).toBe('stop');
  });

  it('stops streaming as soon as the request is aborted', async () => {
    const slow = createDemoLlmApp({ delayMs: 1000 });
    const abort = new AbortController();
    const res = await slow.fetch(
      new Request('http://demo-llm/v1/chat/completions', {
        method: 'POST',
        body: JSON.stringify({ model: 'baton-demo', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
        signal: abort.signal,
      }),
    );
    const reader = res.body!.getReader();
    expect((await reader.read()).done).toBe(false);
    const started = performance.now();
    setTimeout(() => abort.abort(new Error('gone')), 20);
    await expect(reader.read()).rejects.toThrow('gone');
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('lists the model', async () => {
    const res = await app.request('/v1/models');
    expect(await res.json()).toEqual({ object: 'list', data: [expect.objectContaining({ id: 'baton-demo', object: 'model' })] });
  });

  it('rejects invalid bodies with an OpenAI-style 400', async () => {
    for (const body of [{}, { model: 'baton-demo', messages: [] }, { model: 'baton-demo', messages: [{ role: 'robot', content: 'x' }] }]) {
      const res = await post(body);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: expect.objectContaining({ message: expect.any(String), type: 'invalid_request_error' }) });
    }
    const res = await app.request('/v1/chat/completions', { method: 'POST', body: 'not json' });
    expect(res.status).toBe(400);
  });

  it('rejects an unknown model with 404', async () => {
    const res = await post({ model: 'gpt-9', messages: [{ role: 'user', content: 'hi' }] });
    expect(res.status).toBe(404);
    expect((await res.json()).error.code).toBe('model_not_found');
  });
});
