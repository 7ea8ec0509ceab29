import type { BatonUIMessage } from '@baton/schemas';
import { Chat } from '@ai-sdk/react';
import type { UIMessageChunk } from 'ai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BatonChatTransport } from './baton-transport';

/*
 * The AI SDK's own Chat, driven through Baton's transport against a stubbed server: keep-alive
 * comments in the stream, and a stream that drops while the run goes on.
 */

const encoder = new TextEncoder();
const frame = (seq: number, chunk: UIMessageChunk) => `id: ${seq}\ndata: ${JSON.stringify(chunk)}\n\n`;

const answer: UIMessageChunk[] = [
  { type: 'start', messageId: 'a1' },
  { type: 'start-step' },
  { type: 'text-start', id: '0' },
  { type: 'text-delta', id: '0', delta: 'Once upon a time' },
  { type: 'text-delta', id: '0', delta: ', an otter' },
  { type: 'text-delta', id: '0', delta: ' built a holt.' },
  { type: 'text-end', id: '0' },
  { type: 'finish-step' },
  { type: 'finish' },
];

const sse = (from: number, to = answer.length, extra = '') =>
  answer
    .slice(from, to)
    .map((c, i) => frame(from + i, c))
    .join('') + extra;

/** An SSE body that sends `text`, then fails as a dropped connection does in a browser (`TypeError: network error`). */
function droppingBody(text: string): ReadableStream<Uint8Array> {
  let sent = false;
  return new ReadableStream({
    pull(controller) {
      if (sent) return controller.error(new TypeError('network error'));
      sent = true;
      controller.enqueue(encoder.encode(text));
    },
  });
}

const sseResponse = (body: BodyInit) => new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });

type Served = (url: string, init: RequestInit) => Response | Promise<Response>;
function serve(handler: Served) {
  const fetch = vi.fn(async (url: string, init: RequestInit) => handler(url, init));
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

function newChat() {
  const transport = new BatonChatTransport('default');
  transport.reattachDelaysMs = [0, 10, 10];
  const onError = vi.fn();
  const statuses: string[] = [];
  const chat = new Chat<BatonUIMessage>({ id: 'chat_1', transport, onError });
  chat['~registerStatusCallback'](() => statuses.push(chat.status));
  return { chat, transport, onError, statuses };
}

const textOf = (chat: Chat<BatonUIMessage>) =>
  chat.messages
    .at(-1)!
    .parts.flatMap((p) => (p.type === 'text' ? [p.text] : []))
    .join('');

const lastEventIdOf = (init: RequestInit | undefined) => new Headers(init?.headers).get('last-event-id');

describe('the chat stream', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('skips SSE keep-alive comments (the AI SDK’s parser ignores `:` lines)', async () => {
    const body = [': keep-alive\n\n', sse(0, 3), ': keep-alive\n\n: keep-alive\n\n', sse(3), 'data: [DONE]\n\n'].join('');
    serve(() => sseResponse(body));
    const { chat, onError } = newChat();

    await chat.sendMessage({ text: 'Tell me a long story' });

    expect(onError).not.toHaveBeenCalled();
    expect(chat.status).toBe('ready');
    expect(textOf(chat)).toBe('Once upon a time, an otter built a holt.');
  });

  it('a dropped stream is read again after its last event; the chat never sees an error', async () => {
    const fetch = serve((url, init) => {
      if (init.method === 'POST') return sseResponse(droppingBody(sse(0, 4)));
      return sseResponse(sse(Number(lastEventIdOf(init)) + 1, answer.length, 'data: [DONE]\n\n'));
    });
    const { chat, onError, statuses } = newChat();

    await chat.sendMessage({ text: 'Tell me a long story' });

    expect(onError).not.toHaveBeenCalled();
    expect(statuses).not.toContain('error');
    expect(chat.status).toBe('ready');
    // Every word once, in order: the resume started after event 3, the last one read.
    expect(textOf(chat)).toBe('Once upon a time, an otter built a holt.');
    expect(chat.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    const resume = fetch.mock.calls[1]!;
    expect(resume[0]).toBe('/api/workspaces/default/chats/chat_1/stream');
    expect(lastEventIdOf(resume[1])).toBe('3');
  });

  it('keeps trying while the server cannot be reached, and follows a resume that drops in turn', async () => {
    let gets = 0;
    const fetch = serve((url, init) => {
      if (init.method === 'POST') return sseResponse(droppingBody(sse(0, 2)));
      gets++;
      if (gets === 1) throw new TypeError('Failed to fetch');
      if (gets === 2) return new Response('Internal Server Error', { status: 500 });
      const after = Number(lastEventIdOf(init));
      if (gets === 3) return sseResponse(droppingBody(sse(after + 1, after + 4)));
      return sseResponse(sse(after + 1, answer.length, 'data: [DONE]\n\n'));
    });
    const { chat, onError } = newChat();

    await chat.sendMessage({ text: 'Tell me a long story' });

    expect(onError).not.toHaveBeenCalled();
    expect(textOf(chat)).toBe('Once upon a time, an otter built a holt.');
    expect(fetch.mock.calls.slice(1).map(([, init]) => lastEventIdOf(init))).toEqual(['1', '1', '1', '4']);
  });

  it('when the run ended meanwhile (204), the stream ends and the page is told to show the stored answer', async () => {
    serve((url, init) => (init.method === 'POST' ? sseResponse(droppingBody(sse(0, 4))) : new Response(null, { status: 204 })));
    const { chat, transport, onError } = newChat();
    const endedUnseen = vi.fn();
    transport.onEndedUnseen = endedUnseen;

    await chat.sendMessage({ text: 'Tell me a long story' });

    expect(onError).not.toHaveBeenCalled();
    expect(endedUnseen).toHaveBeenCalledTimes(1);
    expect(chat.status).toBe('ready');
  });

  it('gives up with the connection’s error when the server stays out of reach', async () => {
    serve((url, init) => {
      if (init.method === 'POST') return sseResponse(droppingBody(sse(0, 4)));
      throw new TypeError('Failed to fetch');
    });
    const { chat, onError } = newChat();

    await chat.sendMessage({ text: 'Tell me a long story' });

    expect(onError).toHaveBeenCalledTimes(1);
    expect(chat.status).toBe('error');
    expect(chat.error).toBeInstanceOf(TypeError);
  });

  it('Stop while the stream is read again ends the answer without an error', async () => {
    let resuming = false;
    serve((url, init) => {
      if (init.method === 'POST') return sseResponse(droppingBody(sse(0, 4)));
      resuming = true;
      // The server does not answer until the request is given up.
      return new Promise<Response>((_, reject) => init.signal?.addEventListener('abort', () => reject(init.signal!.reason)));
    });
    const { chat, onError } = newChat();

    const sending = chat.sendMessage({ text: 'Tell me a long story' });
    await vi.waitFor(() => expect(resuming).toBe(true));
    expect(chat.status).toBe('streaming');
    await chat.stop();
    await sending;

    expect(onError).not.toHaveBeenCalled();
    expect(chat.status).toBe('ready');
    expect(textOf(chat)).toBe('Once upon a time');
  });
});
