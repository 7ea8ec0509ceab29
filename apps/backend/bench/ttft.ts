// Time to first token, one request at a time: through Baton vs straight from the model.
import { batonChat, directChat, firstWordMs, type Target } from './chats';
import { now, summarize, type Summary } from './stats';

export interface TtftResult {
  baton: Summary;
  direct: Summary;
  /** Baton median − direct median. */
  overheadMs: number;
  /** Baton median / direct median. */
  ratio: number;
}

/**
 * Interleaves the two kinds of sample (alternating which goes first) so drift (JIT, GC,
 * database caches) hits both alike. Bounded by `samples` and by `budgetMs`.
 */
export async function measureTtft(t: Target, prompt: string, { samples = 50, warmups = 5, budgetMs = 60_000 } = {}): Promise<TtftResult> {
  const batonSample = async () => firstWordMs(await batonChat(t, prompt, { timeoutMs: 20_000 }), 'Baton');
  const directSample = async () => firstWordMs(await directChat(t, prompt, { timeoutMs: 20_000 }), 'demo model');
  for (let i = 0; i < warmups; i++) {
    await directSample();
    await batonSample();
  }
  const b: number[] = [];
  const d: number[] = [];
  const deadline = now() + budgetMs;
  for (let i = 0; i < samples && now() < deadline; i++) {
    if (i % 2) {
      d.push(await directSample());
      b.push(await batonSample());
    } else {
      b.push(await batonSample());
      d.push(await directSample());
    }
  }
  const baton = summarize(b);
  const direct = summarize(d);
  return { baton, direct, overheadMs: baton.median - direct.median, ratio: baton.median / direct.median };
}
