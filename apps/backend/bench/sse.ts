// Minimal SSE client: reads `data:` lines from a fetch response as they arrive.

export interface SseRead {
  /** performance.now() when `isToken` first matched, if it did. */
  firstTokenAt?: number;
  /** How many events matched `isToken`. */
  tokens: number;
  events: number;
  sawDone: boolean;
}

/**
 * Drains an SSE body, calling `isToken` on each parsed `data:` JSON payload. Bounded by the
 * caller's AbortSignal (pass one to fetch) and by `maxEvents`.
 */
export async function readSse(res: Response, isToken: (event: any) => boolean, maxEvents = 100_000): Promise<SseRead> {
  if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}: ${await res.text().catch(() => '')}`);
  const out: SseRead = { tokens: 0, events: 0, sawDone: false };
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl).trimEnd();
        buffer = buffer.slice(nl + 1);
        if (!line.startsWith('data:')) continue;
        const data = line.slice(5).trim();
        if (data === '[DONE]') {
          out.sawDone = true;
          continue;
        }
        out.events++;
        if (out.events > maxEvents) throw new Error(`more than ${maxEvents} SSE events`);
        const event = JSON.parse(data);
        if (event?.type === 'error') throw new Error(`stream error: ${event.errorText}`);
        if (isToken(event)) {
          out.tokens++;
          out.firstTokenAt ??= performance.now();
        }
      }
    }
  } finally {
    reader.releaseLock();
  }
  return out;
}

/** A UI message stream token (Baton's browser endpoint). */
export const isUiTextDelta = (e: any) => e?.type === 'text-delta';

/** An OpenAI chat.completion.chunk carrying text. */
export const isCompletionContent = (e: any) => typeof e?.choices?.[0]?.delta?.content === 'string' && e.choices[0].delta.content.length > 0;

export function postJson(url: string, body: unknown, signal: AbortSignal, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body), signal });
}
