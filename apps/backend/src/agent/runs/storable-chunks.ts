import type { BatonUIMessageChunk } from '@baton/schemas';
import { sanitizeDeep, sanitizeText } from '../../services/text-hygiene';

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

/**
 * Makes a run's chunks storable as they pass (see sanitizeText): what a reader sees live
 * is then exactly what is stored. A surrogate pair that a provider split across two text
 * deltas is rejoined rather than replaced.
 */
export class StorableChunks {
  /** A high surrogate held back from the end of a delta, by text/reasoning part id. */
  private readonly held = new Map<string, string>();

  clean(chunk: BatonUIMessageChunk): BatonUIMessageChunk[] {
    if (chunk.type === 'text-delta' || chunk.type === 'reasoning-delta') {
      let delta = chunk.delta;
      const held = this.held.get(chunk.id);
      if (held !== undefined) {
        delta = held + delta;
        this.held.delete(chunk.id);
      }
      if (delta.length > 0 && isHighSurrogate(delta.charCodeAt(delta.length - 1))) {
        this.held.set(chunk.id, delta.slice(-1));
        delta = delta.slice(0, -1);
      }
      const clean = sanitizeText(delta);
      return clean === chunk.delta ? [chunk] : clean ? [{ ...chunk, delta: clean }] : [];
    }
    if ((chunk.type === 'text-end' || chunk.type === 'reasoning-end') && this.held.has(chunk.id)) {
      this.held.delete(chunk.id);
      return [{ type: chunk.type === 'text-end' ? 'text-delta' : 'reasoning-delta', id: chunk.id, delta: '\uFFFD' }, chunk];
    }
    return [sanitizeDeep(chunk)];
  }
}
