import { createHash } from 'node:crypto';
import type { LanguageModel } from 'ai';

/**
 * Language model instances, built once and reused by later turns. Building one per turn cost
 * more than the construction: the provider's chunk schemas (zod) were new objects each turn,
 * so zod compiled its fast path again and V8 never kept optimised code for it — the largest
 * single cost per streamed word after the web streams themselves (docs/benchmarks.md §3a).
 *
 * Kept per `scope` — the objects a model's fetch is built from (outbound guard, timeouts,
 * limits), held weakly so an app that goes away takes its models with it — and per `key`,
 * which must name everything the model is built from. At most `MAX_MODELS` per scope, the
 * least recently used going first.
 */
const MAX_MODELS = 64;

type Scope = readonly object[];
interface Node {
  next: WeakMap<object, Node>;
  models?: Map<string, LanguageModel>;
}
const root: Node = { next: new WeakMap() };

function modelsOf(scope: Scope): Map<string, LanguageModel> {
  let node = root;
  for (const part of scope) {
    let child = node.next.get(part);
    if (!child) {
      child = { next: new WeakMap() };
      node.next.set(part, child);
    }
    node = child;
  }
  node.models ??= new Map();
  return node.models;
}

export function cachedModel(scope: Scope, key: string, build: () => LanguageModel): LanguageModel {
  const models = modelsOf(scope);
  const hit = models.get(key);
  if (hit) {
    models.delete(key);
    models.set(key, hit);
    return hit;
  }
  const model = build();
  models.set(key, model);
  if (models.size > MAX_MODELS) models.delete(models.keys().next().value!);
  return model;
}

/** A key part for a secret: its digest, so the key itself is never a map key in memory twice. */
export const secretDigest = (secret: string | null) => (secret === null ? '' : createHash('sha256').update(secret).digest('base64url'));
