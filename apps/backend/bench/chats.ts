// What the load generator sends: Baton's browser chat request and the same turn sent
// straight to the model, with prompts whose scripted answers have known lengths.
import { randomUUID } from 'node:crypto';
import { DEMO_MODEL_ID } from '@baton/demo-llm';
import { streamWords, type StreamResult } from './http-client';

/** The demo model answers this with 76 words (its standard reply). */
export const STANDARD_PROMPT = 'Hello! Please tell me how fast this answer arrives.';
/** Answered with 158 words: the reply quotes the message, so a longer message means more words. */
export const LONG_PROMPT = `Hello! ${'Please tell me how fast this long answer arrives, word after word. '.repeat(8)}`;
/** Answered with 9 words (no such sub-agent), for sequential samples of a paced model. */
export const SHORT_PROMPT = '/delegate Nobody: say hi';

export function newChatBody(agentId: string, text: string) {
  return {
    id: `chat_bench_${randomUUID()}`,
    agentId,
    message: { id: `msg_bench_${randomUUID()}`, role: 'user', parts: [{ type: 'text', text }] },
  };
}

/** What @ai-sdk/openai sends for a chat without system prompt or tools. */
export const directBody = (text: string) => ({
  model: DEMO_MODEL_ID,
  messages: [{ role: 'user', content: text }],
  stream: true,
  stream_options: { include_usage: true },
});

export interface Target {
  batonUrl: string;
  demoUrl: string;
  agentId: string;
}

/**
 * One chat through Baton's browser endpoint, read to its end. Baton ends the stream only
 * after the run's end is stored, so when this resolves the turn is complete.
 */
export function batonChat(t: Target, text: string, options?: { timeoutMs?: number; keepArrivals?: boolean }): Promise<StreamResult & { chatId: string }> {
  const body = newChatBody(t.agentId, text);
  return streamWords(`${t.batonUrl}/api/workspaces/default/chat`, body, 'ui', options).then((r) => ({ ...r, chatId: body.id }));
}

/** The same turn through Baton's OpenAI-compatible API (a new chat per call, like the browser's). */
export function openAiChat(t: Target, text: string, options?: { timeoutMs?: number; keepArrivals?: boolean }): Promise<StreamResult> {
  return streamWords(`${t.batonUrl}/v1/chat/completions`, { ...directBody(text), model: t.agentId }, 'completion', options);
}

/** The same turn straight from the model. */
export function directChat(t: Target, text: string, options?: { timeoutMs?: number; keepArrivals?: boolean }): Promise<StreamResult> {
  return streamWords(`${t.demoUrl}/v1/chat/completions`, directBody(text), 'completion', options);
}

export function firstWordMs(r: StreamResult, what: string): number {
  if (!r.ok || r.firstWordAt === undefined) throw new Error(`${what}: ${r.error ?? 'no words'}`);
  return r.firstWordAt - r.start;
}
