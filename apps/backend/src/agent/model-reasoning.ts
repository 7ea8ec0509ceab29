import type { LanguageModelMiddleware } from 'ai';
import { partStagesMiddleware, type PartStage } from './part-stages';

/*
 * Reasoning ("thinking") streamed by providers. @ai-sdk/openai-compatible reads the two
 * common delta fields, `reasoning_content` (DeepSeek, vLLM, Qwen) and `reasoning`
 * (OpenRouter, Ollama), as the AI SDK's reasoning parts. What it does not read is
 * OpenRouter's array form, `reasoning_details`, which some models send alone: the fetch
 * below rewrites it into `reasoning` before the SDK parses the chunk. The middleware keeps
 * reasoning out of every request and times each thinking block for the chat's label.
 */

/** Provider metadata Baton adds to a reasoning part (stored with the message). */
export interface ThinkingMetadata {
  /** From the model call's start (or the block's, for a later block of the same step) to the block's end. */
  thinkingMs: number;
}

interface ReasoningDetail {
  type?: unknown;
  text?: unknown;
  summary?: unknown;
}

/** The readable text of OpenRouter's `reasoning_details` (text and summary entries; encrypted ones have none). */
export function reasoningDetailsText(details: unknown): string {
  if (!Array.isArray(details)) return '';
  return details.map((d: ReasoningDetail) => (typeof d?.text === 'string' ? d.text : typeof d?.summary === 'string' ? d.summary : '')).join('');
}

type Delta = { reasoning_details?: unknown; reasoning?: unknown; reasoning_content?: unknown };

/** Gives a delta (or message) that carries only `reasoning_details` the `reasoning` text the SDK reads; true when it changed. */
function liftDetails(delta: Delta | undefined): boolean {
  if (!delta || delta.reasoning_details === undefined) return false;
  if (typeof delta.reasoning === 'string' || typeof delta.reasoning_content === 'string') return false;
  const text = reasoningDetailsText(delta.reasoning_details);
  if (!text) return false;
  delta.reasoning = text;
  return true;
}

/** One `data:` payload of the event stream, rewritten when it carries reasoning_details alone. */
export function rewriteChunk(json: string): string {
  // Most chunks have none: skip the parse.
  if (!json.includes('"reasoning_details"')) return json;
  try {
    const chunk = JSON.parse(json) as { choices?: { delta?: Delta; message?: Delta }[] };
    let changed = false;
    for (const choice of chunk.choices ?? []) changed = liftDetails(choice.delta) || liftDetails(choice.message) || changed;
    return changed ? JSON.stringify(chunk) : json;
  } catch {
    return json;
  }
}

const FIELD = Buffer.from('"reasoning_details"');
/** Whether a read holds the field, looked for in its bytes (no decode). */
const holdsField = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes(FIELD);

/** The event stream with every `data:` line passed through rewriteChunk (lines may be split across network chunks). */
function rewriteEventStream(body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let rest = '';
  let atLineStart = true;
  const rewriteLines = (text: string) =>
    text
      .split('\n')
      .map((line) => (line.startsWith('data:') ? `data: ${rewriteChunk(line.slice(5).trimStart())}` : line))
      .join('\n');
  // A stage that reads its source when read itself (a pull), not a TransformStream: one hop
  // less of promise jobs for every network read of every answer.
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      // Until something is handed on: a read that ends inside a line holds all of it back.
      for (;;) {
        const { done, value: bytes } = await reader.read();
        if (done) {
          const text = rest + decoder.decode();
          if (text) controller.enqueue(encoder.encode(rewriteLines(text)));
          return controller.close();
        }
        // Nearly every read is whole lines without the field: its bytes go on as they came,
        // not decoded, split, joined and encoded again. (Only when nothing of an earlier read
        // is held back: a partial line, or the first bytes of a character.)
        const wholeLines = bytes.at(-1) === 0x0a;
        if (atLineStart && wholeLines && !holdsField(bytes)) return controller.enqueue(bytes);
        const text = rest + decoder.decode(bytes, { stream: true });
        atLineStart = wholeLines;
        const end = text.lastIndexOf('\n');
        if (end === -1) {
          rest = text;
          continue;
        }
        rest = text.slice(end + 1);
        return controller.enqueue(encoder.encode(rewriteLines(text.slice(0, end + 1))));
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

/** The provider fetch, with OpenRouter's `reasoning_details` readable as `reasoning` (streamed and JSON answers). */
export function withReasoningDetails(baseFetch: typeof fetch): typeof fetch {
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    const response = await baseFetch(input, init);
    const type = response.headers.get('content-type') ?? '';
    if (!response.ok || !response.body) return response;
    if (type.includes('text/event-stream')) {
      return new Response(rewriteEventStream(response.body), { status: response.status, statusText: response.statusText, headers: response.headers });
    }
    if (type.includes('application/json')) {
      const text = await response.text();
      return new Response(rewriteChunk(text), { status: response.status, statusText: response.statusText, headers: response.headers });
    }
    return response;
  }) as typeof fetch;
}

/**
 * Reasoning stays out of what Baton sends a model: the AI SDK turns a stored reasoning
 * part (and, within one answer, the previous step's) into an assistant `reasoning` part,
 * which @ai-sdk/openai-compatible would send back as `reasoning_content`. DeepSeek's
 * reasoner refuses a request that carries it (400), the others ignore it or re-read the
 * same thoughts at the price of their tokens. Removed here, in one place, for every call.
 *
 * Each thinking block is also timed ("Thought for 12 s"): from the model call's start,
 * since a reasoning model may be silent for a long while before its first thought, to
 * the block's end; stored as the part's provider metadata under `baton`.
 */
export const reasoningMiddleware: LanguageModelMiddleware = {
  transformParams: async ({ params }) => {
    let changed = false;
    const prompt = params.prompt.map((message) => {
      if (message.role !== 'assistant' || !message.content.some((part) => part.type === 'reasoning')) return message;
      changed = true;
      return { ...message, content: message.content.filter((part) => part.type !== 'reasoning') };
    });
    return changed ? { ...params, prompt } : params;
  },
  ...partStagesMiddleware([(): PartStage => thinkingTimes()]),
};

/** Times each thinking block of one model call, from the call's start (see reasoningMiddleware). */
export function thinkingTimes(): PartStage {
  const callStart = Date.now();
  let blockStart: number | undefined;
  let blocks = 0;
  return (part) => {
    if (part.type === 'reasoning-start') blockStart = blocks++ === 0 ? callStart : Date.now();
    if (part.type !== 'reasoning-end') return part;
    const thinking: ThinkingMetadata = { thinkingMs: Date.now() - (blockStart ?? callStart) };
    return { ...part, providerMetadata: { ...part.providerMetadata, baton: { ...thinking } } };
  };
}
