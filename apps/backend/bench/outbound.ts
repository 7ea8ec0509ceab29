// 5. What the outbound guard costs a model call: the guarded fetch Baton uses vs Node's own fetch.
import { createGuardedFetch } from '../src/outbound/guarded-fetch';
import { now, summarize, type Summary } from './stats';

export interface OutboundResult {
  node: Summary;
  guarded: Summary;
}

/** POST chat/completions with `fetchFn`, ms until the first chunk carrying content; the body is read to its end. */
async function firstContentMs(fetchFn: typeof fetch, baseURL: string): Promise<number> {
  const start = now();
  const res = await fetchFn(`${baseURL}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      model: 'baton-demo',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'How far can an otter swim?' }],
    }),
    signal: AbortSignal.timeout(10_000),
  });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let first: number | undefined;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (first === undefined) {
      text += decoder.decode(value, { stream: true });
      if (/"content":"[^"]/.test(text)) first = now() - start;
    }
  }
  if (first === undefined) throw new Error('outbound: no content from the demo model');
  return first;
}

/**
 * From the bench's process, against the unpaced demo model's process: warm connections on
 * both sides (each keeps its pool), interleaved so drift hits both alike.
 * The guarded fetch is the operator's (private addresses allowed), as the bench's default model uses it.
 */
export async function measureOutbound(baseURL: string, { samples = 50, warmups = 5, budgetMs = 30_000 } = {}): Promise<OutboundResult> {
  const guarded = createGuardedFetch({ allowPrivateAddresses: true });
  for (let i = 0; i < warmups; i++) {
    await firstContentMs(fetch, baseURL);
    await firstContentMs(guarded, baseURL);
  }
  const node: number[] = [];
  const guard: number[] = [];
  const deadline = now() + budgetMs;
  for (let i = 0; i < samples && now() < deadline; i++) {
    if (i % 2) {
      node.push(await firstContentMs(fetch, baseURL));
      guard.push(await firstContentMs(guarded, baseURL));
    } else {
      guard.push(await firstContentMs(guarded, baseURL));
      node.push(await firstContentMs(fetch, baseURL));
    }
  }
  return { node: summarize(node), guarded: summarize(guard) };
}
