import {
  AbstractChat,
  DefaultChatTransport,
  lastAssistantMessageIsCompleteWithToolCalls,
  type ChatState,
  type ChatStatus,
  type UIMessage,
  type UIMessageChunk,
} from 'ai';
import { withCredentials } from './credentials';

/** A plain in-memory ChatState, what @ai-sdk/react's Chat keeps in React state. */
class MemoryState implements ChatState<UIMessage> {
  status: ChatStatus = 'ready';
  error: Error | undefined = undefined;
  messages: UIMessage[] = [];
  pushMessage = (m: UIMessage) => void this.messages.push(m);
  popMessage = () => void this.messages.pop();
  replaceMessage = (i: number, m: UIMessage) => {
    this.messages[i] = m;
  };
  snapshot = <T>(thing: T): T => structuredClone(thing);
}

/**
 * The AI SDK's own chat client, as the browser uses it, running in Node: with Baton's wire
 * format (the newest message only), or `stock` — the AI SDK's `DefaultChatTransport` as a
 * developer would point it at Baton, with no request of its own.
 */
export class NodeChat extends AbstractChat<UIMessage> {
  constructor(opts: { id: string; baseUrl: string; workspaceId?: string; body?: Record<string, unknown>; transport?: 'baton' | 'stock' }) {
    const workspaceId = opts.workspaceId ?? 'default';
    super({
      id: opts.id,
      state: new MemoryState(),
      transport:
        opts.transport === 'stock' ? stockTransport(opts.baseUrl, workspaceId, opts.body ?? {}) : batonTransport(opts.baseUrl, workspaceId, opts.body ?? {}),
      sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithToolCalls,
    });
  }

  /** Resolves when the chat is idle (including automatic resends after tool outputs). */
  async settled(timeoutMs = 15_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    // Let an automatic resend start before checking the status.
    await new Promise((r) => setTimeout(r, 50));
    while (this.status === 'submitted' || this.status === 'streaming') {
      if (Date.now() > deadline) throw new Error(`chat ${this.id} did not settle`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}

/** Baton's wire format: the server keeps history, so only the newest message is sent. */
export function batonTransport(baseUrl: string, workspaceId: string, body: Record<string, unknown>) {
  return new DefaultChatTransport<UIMessage>({
    api: `${baseUrl}/api/workspaces/${workspaceId}/chat`,
    headers: () => Object.fromEntries(withCredentials()),
    prepareSendMessagesRequest: ({ id, messages, trigger }) => ({
      body: { ...body, id, message: messages.at(-1), trigger },
    }),
  });
}

/** The AI SDK's transport unchanged: it sends `{ id, messages, trigger, messageId }` and the body. */
export function stockTransport(baseUrl: string, workspaceId: string, body: Record<string, unknown>) {
  return new DefaultChatTransport<UIMessage>({
    api: `${baseUrl}/api/workspaces/${workspaceId}/chat`,
    headers: () => Object.fromEntries(withCredentials()),
    body,
  });
}

export interface StreamRead {
  status: number;
  chunks: UIMessageChunk[];
  /** The SSE id of each chunk (the run's sequence numbers). */
  seqs: number[];
  /** ms since the request started, one per network read that carried data. */
  reads: number[];
  /** The SSE comments (keep-alives) received: when, and how many chunks had come before. */
  comments: { at: number; afterChunks: number; text: string }[];
  error?: unknown;
}

/** POSTs and reads the SSE response as it arrives, keeping each read's arrival time. */
export async function postStream(
  url: string,
  body: unknown,
  opts: { signal?: AbortSignal; stopAfterChunks?: number; headers?: Record<string, string> } = {},
): Promise<StreamRead> {
  const started = Date.now();
  const res = await fetch(url, {
    method: 'POST',
    headers: withCredentials({ 'content-type': 'application/json', ...opts.headers }),
    body: JSON.stringify(body),
    signal: opts.signal,
  });
  return readSse(res, started, opts);
}

/** GETs a resumable stream (`…/chats/:id/stream`), optionally after a sequence number. */
export async function getStream(url: string, opts: { lastEventId?: number; signal?: AbortSignal; stopAfterChunks?: number } = {}): Promise<StreamRead> {
  const started = Date.now();
  const headers: Record<string, string> = opts.lastEventId === undefined ? {} : { 'last-event-id': String(opts.lastEventId) };
  return readSse(await fetch(url, { headers: withCredentials(headers), signal: opts.signal }), started, opts);
}

async function readSse(res: Response, started: number, opts: { stopAfterChunks?: number }): Promise<StreamRead> {
  const out: StreamRead = { status: res.status, chunks: [], seqs: [], reads: [], comments: [] };
  if (!res.ok || !res.body || res.status === 204) return out;
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      out.reads.push(Date.now() - started);
      buffer += value;
      const events = buffer.split('\n\n');
      buffer = events.pop()!;
      for (const event of events) {
        const lines = event.split('\n');
        if (lines.length > 0 && lines.every((line) => line.startsWith(':'))) {
          out.comments.push({ at: Date.now() - started, afterChunks: out.chunks.length, text: lines.join('\n') });
          continue;
        }
        const data = lines.find((line) => line.startsWith('data: '))?.slice(6);
        const id = lines.find((line) => line.startsWith('id: '))?.slice(4);
        if (!data || data === '[DONE]') continue;
        out.chunks.push(JSON.parse(data));
        out.seqs.push(id === undefined ? -1 : Number(id));
      }
      if (opts.stopAfterChunks && out.chunks.length >= opts.stopAfterChunks) {
        await reader.cancel();
        break;
      }
    }
  } catch (err) {
    out.error = err;
  }
  return out;
}

export const textOf = (chunks: UIMessageChunk[]) => chunks.flatMap((c) => (c.type === 'text-delta' ? [c.delta] : [])).join('');

export const userMessage = (id: string, text: string) => ({ id, role: 'user', parts: [{ type: 'text', text }] });

export function toolParts(message: UIMessage | undefined, name: string) {
  return (message?.parts ?? []).filter((p) => p.type === `tool-${name}`) as unknown as {
    type: string;
    toolCallId: string;
    state: string;
    input: any;
    output?: any;
  }[];
}

/** The reason a run failed, as streamed (a `data-run-error` chunk). */
export const runErrorOf = (chunks: UIMessageChunk[]) =>
  (chunks.find((c) => c.type === 'data-run-error') as { data: { code: string; message: string } } | undefined)?.data;

/** The reason stored in a message (its `data-run-error` part). */
export const storedRunError = (message: { parts: any[] } | undefined) =>
  message?.parts.find((p) => p.type === 'data-run-error')?.data as { code: string; message: string } | undefined;
