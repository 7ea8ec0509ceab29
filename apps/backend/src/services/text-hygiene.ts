/// <reference lib="es2024.string" />
// isWellFormed/toWellFormed are native in Node 20; the ES2023 lib just does not declare them.

/**
 * What Postgres cannot store: jsonb rejects U+0000 and the `\ud800` escape JSON.stringify
 * writes for a lone surrogate (text columns refuse the first and silently mangle the
 * second). Model output and tool results can carry both, and a failed write would lose a
 * whole answer, so they become U+FFFD instead. Valid surrogate pairs (emoji) are kept.
 */
export function sanitizeText(s: string): string {
  // Cheap enough for every streamed token: the common case is two native scans, no allocation.
  if (!s.includes('\u0000') && s.isWellFormed()) return s;
  return s.toWellFormed().replaceAll('\u0000', '\uFFFD');
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * `sanitizeText` for every string (and object key) of a JSON value. Returns the value
 * itself when nothing needs replacing, and otherwise copies only the arrays and objects on
 * the way to a replaced string, so storing a clean message allocates nothing.
 */
export function sanitizeDeep<T>(value: T): T {
  if (typeof value === 'string') return sanitizeText(value) as T;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const clean = sanitizeDeep(value[i]);
      if (clean === value[i]) continue;
      copy ??= value.slice();
      copy[i] = clean;
    }
    return (copy ?? value) as T;
  }
  if (isPlainObject(value)) {
    let copy: Record<string, unknown> | undefined;
    for (const [key, item] of Object.entries(value)) {
      const cleanKey = sanitizeText(key);
      const clean = sanitizeDeep(item);
      if (cleanKey === key && clean === item) continue;
      copy ??= { ...value };
      if (cleanKey !== key) delete copy[key];
      copy[cleanKey] = clean;
    }
    return (copy ?? value) as T;
  }
  return value;
}
