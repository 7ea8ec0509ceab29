import type { LanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { cachedModel, secretDigest } from './model-cache';

const model = (name: string) => ({ name }) as unknown as LanguageModel;

describe('cachedModel', () => {
  it('builds a model once per scope and key, and again for another key or another scope object', () => {
    const scope = [{}, {}];
    let built = 0;
    const build = () => model(`m${++built}`);
    const first = cachedModel(scope, 'a', build);
    expect(cachedModel(scope, 'a', build)).toBe(first);
    expect(built).toBe(1);
    expect(cachedModel(scope, 'b', build)).not.toBe(first);
    // Same contents, other objects (another app's timeouts, say): not the same models.
    expect(cachedModel([{}, {}], 'a', build)).not.toBe(first);
    expect(built).toBe(3);
  });

  it('keeps at most 64 models per scope, dropping the least recently used', () => {
    const scope = [{}];
    const kept = cachedModel(scope, 'kept', () => model('kept'));
    for (let i = 0; i < 64; i++) {
      cachedModel(scope, `k${i}`, () => model(`k${i}`));
      cachedModel(scope, 'kept', () => model('rebuilt')); // used again: stays
    }
    expect(cachedModel(scope, 'kept', () => model('rebuilt'))).toBe(kept);
    expect((cachedModel(scope, 'k0', () => model('k0 again')) as unknown as { name: string }).name).toBe('k0 again');
  });

  it('names a secret by its digest, never the secret itself', () => {
    expect(secretDigest('sk-secret')).not.toContain('sk-secret');
    expect(secretDigest('sk-secret')).toBe(secretDigest('sk-secret'));
    expect(secretDigest('sk-other')).not.toBe(secretDigest('sk-secret'));
    expect(secretDigest(null)).toBe('');
  });
});
