// Time to first token, one request at a time: through Baton vs straight from the model.
import { batonChat, directChat, firstWordMs, openAiChat, type Target } from './chats';
import { now, summarize, type Summary } from './stats';

export interface TtftResult {
  baton: Summary;
  direct: Summary;
  /** Through Baton's OpenAI-compatible API (`POST /v1/chat/completions`, streamed). */
  openAi: Summary;
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
  const openAiSample = async () => firstWordMs(await openAiChat(t, prompt, { timeoutMs: 20_000 }), 'Baton /v1');
  for (let i = 0; i < warmups; i++) {
    await directSample();
    await batonSample();
    await openAiSample();
  }
  const b: number[] = [];
  const d: number[] = [];
  const o: number[] = [];
  const deadline = now() + budgetMs;
  for (let i = 0; i < samples && now() < deadline; i++) {
    // The three kinds take turns going first.
    const round = [() => batonSample().then((v) => b.push(v)), () => directSample().then((v) => d.push(v)), () => openAiSample().then((v) => o.push(v))];
    for (let k = 0; k < round.length; k++) await round[(i + k) % round.length]!();
  }
  const baton = summarize(b);
  const direct = summarize(d);
  return { baton, direct, openAi: summarize(o), overheadMs: baton.median - direct.median, ratio: baton.median / direct.median };
}
