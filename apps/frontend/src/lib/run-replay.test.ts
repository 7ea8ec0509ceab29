import type { BatonUIMessage } from '@baton/schemas';
import { Chat } from '@ai-sdk/react';
import { readUIMessageStream, type UIMessageChunk } from 'ai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BatonChatTransport } from './baton-transport';
import { chunksRebuilding, transcriptAtRunStart } from './run-replay';

const user: BatonUIMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Ask two sub-agents' }] };

/** A parent's answer whose two newTask calls got their outputs, then the continuation's first words. */
const answer: BatonUIMessage = {
  id: 'a1',
  role: 'assistant',
  metadata: { agentId: 'agent_1' },
  parts: [
    { type: 'step-start' },
    { type: 'text', text: 'Delegating 2 tasks.', state: 'done' },
    {
      type: 'tool-newTask',
      toolCallId: 'call_1',
      state: 'output-available',
      input: { subAgentId: 'agent_r', task: 'facts' },
      output: { result: 'Done: facts', status: 'success', subChatId: 'sub_1' },
    },
    { type: 'tool-newTask', toolCallId: 'call_2', state: 'output-error', input: { subAgentId: 'agent_w', task: 'poem' }, errorText: 'Cancelled by user' },
    { type: 'dynamic-tool', toolName: 'calculator', toolCallId: 'call_3', state: 'output-available', input: { expression: '1+1' }, output: 2 },
    { type: 'data-run-error', data: { code: 'provider_error', message: 'boom' } },
    { type: 'step-start' },
    { type: 'text', text: 'Here is what came back', state: 'streaming' },
  ] as BatonUIMessage['parts'],
};

function streamOf(chunks: UIMessageChunk[]): ReadableStream<UIMessageChunk> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

async function lastMessageOf(stream: ReadableStream<UIMessageChunk>): Promise<BatonUIMessage | undefined> {
  let last: BatonUIMessage | undefined;
  for await (const message of readUIMessageStream<BatonUIMessage>({ stream })) last = message;
  return last;
}

describe('transcriptAtRunStart', () => {
  it('removes the answer of a run that began a new message', () => {
    const { messages, base } = transcriptAtRunStart([user, answer], { messageId: 'a1', basePartCount: 0 });
    expect(messages).toEqual([user]);
    expect(base).toBeUndefined();
  });

  it('cuts a continued message back to the parts it had when the run began', () => {
    const { messages, base } = transcriptAtRunStart([user, answer], { messageId: 'a1', basePartCount: 6 });
    expect(base!.parts).toEqual(answer.parts.slice(0, 6));
    expect(messages).toEqual([user, base]);
    expect(base!.metadata).toEqual(answer.metadata);
  });

  it('leaves the transcript alone without a run, or when the run’s message is not stored yet', () => {
    expect(transcriptAtRunStart([user, answer], null).messages).toEqual([user, answer]);
    expect(transcriptAtRunStart([user], { messageId: 'a1', basePartCount: 0 }).messages).toEqual([user]);
  });
});

describe('chunksRebuilding', () => {
  it('rebuilds text, tool calls with their outputs, errors and data parts', async () => {
    const base = { ...answer, parts: answer.parts.slice(0, 6) };
    const rebuilt = await lastMessageOf(streamOf([{ type: 'start', messageId: 'a1' }, ...chunksRebuilding(base)]));
    expect(rebuilt!.parts).toEqual(base.parts);
  });
});

describe('BatonChatTransport resuming a run', () => {
  afterEach(() => vi.unstubAllGlobals());

  function serve(status: number, chunks: UIMessageChunk[] = []) {
    const body = chunks.map((c, i) => `id: ${i}\ndata: ${JSON.stringify(c)}\n\n`).join('') + 'data: [DONE]\n\n';
    const fetch = vi.fn(async () =>
      status === 204 ? new Response(null, { status }) : new Response(body, { status, headers: { 'content-type': 'text/event-stream' } }),
    );
    vi.stubGlobal('fetch', fetch);
    return fetch;
  }

  const continuation: UIMessageChunk[] = [
    { type: 'start', messageId: 'a1' },
    { type: 'start-step' },
    { type: 'text-start', id: '0' },
    { type: 'text-delta', id: '0', delta: 'Here is what came back' },
    { type: 'text-delta', id: '0', delta: ': two results.' },
    { type: 'text-end', id: '0' },
    { type: 'finish-step' },
    { type: 'finish' },
  ];

  it('continues a message from its base, each part once, reading the chat’s stream endpoint', async () => {
    const fetch = serve(200, continuation);
    const transport = new BatonChatTransport('default');
    const chat = new Chat<BatonUIMessage>({ id: 'chat_1', messages: [user, answer], transport });
    const { messages, base } = transcriptAtRunStart(chat.messages, { messageId: 'a1', basePartCount: 6 });
    transport.expectReplay({ base, beforeReplay: () => (chat.messages = messages) });

    await chat.resumeStream();

    expect(fetch).toHaveBeenCalledWith('/api/workspaces/default/chats/chat_1/stream', expect.objectContaining({ method: 'GET' }));
    expect(transport.lastResumeFoundRun).toBe(true);
    expect(chat.messages.map((m) => m.id)).toEqual(['u1', 'a1']);
    const parts = chat.messages[1]!.parts;
    expect(parts.slice(0, 6)).toEqual(answer.parts.slice(0, 6));
    expect(parts.slice(6)).toMatchObject([{ type: 'step-start' }, { type: 'text', text: 'Here is what came back: two results.', state: 'done' }]);
  });

  it('replaces a new answer with its replay', async () => {
    serve(200, continuation);
    const transport = new BatonChatTransport('default');
    const chat = new Chat<BatonUIMessage>({ id: 'chat_1', messages: [user, answer], transport });
    const { messages, base } = transcriptAtRunStart(chat.messages, { messageId: 'a1', basePartCount: 0 });
    transport.expectReplay({ base, beforeReplay: () => (chat.messages = messages) });

    await chat.resumeStream();

    expect(chat.messages.map((m) => m.id)).toEqual(['u1', 'a1']);
    expect(chat.messages[1]!.parts).toMatchObject([{ type: 'step-start' }, { type: 'text', text: 'Here is what came back: two results.' }]);
  });

  it('keeps the transcript as it is when nothing runs (204)', async () => {
    serve(204);
    const transport = new BatonChatTransport('default');
    const chat = new Chat<BatonUIMessage>({ id: 'chat_1', messages: [user, answer], transport });
    const beforeReplay = vi.fn();
    transport.expectReplay({ beforeReplay });

    await chat.resumeStream();

    expect(transport.lastResumeFoundRun).toBe(false);
    expect(beforeReplay).not.toHaveBeenCalled();
    expect(chat.messages).toEqual([user, answer]);
    expect(chat.status).toBe('ready');
  });
});
