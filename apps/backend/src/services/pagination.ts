import { and, asc, desc, eq, gt, lt, or, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { ListQuery, Page } from '@baton/schemas';
import { invalidRequest } from '../errors';

// Keyset pagination over (timestamp, id): stable while rows are added, and cheap on the
// (workspace_id, timestamp) indexes whatever the page number.
interface Keyset {
  at: PgColumn;
  id: PgColumn;
  direction: 'asc' | 'desc';
}

type Cursor = { at: Date; id: string };

function encodeCursor(at: Date, id: string): string {
  return Buffer.from(JSON.stringify([at.toISOString(), id])).toString('base64url');
}

const invalidCursor = () => invalidRequest('cursor is not valid: pass the nextCursor of a previous page');

/**
 * Accepts exactly what `encodeCursor` hands out, because anything looser reaches the query:
 * a date outside years 1..9999 (sent as `+010000-…`, `0000-…`, which Postgres cannot parse)
 * or an id with a NUL would fail it with a 500 instead of a 400.
 */
function decodeCursor(cursor: string): Cursor {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  if (!Array.isArray(value) || value.length !== 2) throw invalidCursor();
  const [at, id] = value as unknown[];
  if (typeof at !== 'string' || typeof id !== 'string' || id.includes('\u0000')) throw invalidCursor();
  const date = new Date(at);
  if (Number.isNaN(date.getTime()) || date.toISOString() !== at) throw invalidCursor();
  const year = date.getUTCFullYear();
  if (year < 1 || year > 9999) throw invalidCursor();
  return { at: date, id };
}

export function keysetWhere(keyset: Keyset, cursor: string | undefined): SQL | undefined {
  if (!cursor) return undefined;
  const c = decodeCursor(cursor);
  const after = keyset.direction === 'asc' ? gt : lt;
  return or(after(keyset.at, c.at), and(eq(keyset.at, c.at), after(keyset.id, c.id)));
}

export function keysetOrder(keyset: Keyset): SQL[] {
  const dir = keyset.direction === 'asc' ? asc : desc;
  return [dir(keyset.at), dir(keyset.id)];
}

/** Callers fetch `limit + 1` rows; the extra row only says whether another page exists. */
export function toPage<Row, Item>(rows: Row[], query: ListQuery, key: (row: Row) => { at: Date; id: string }, serialize: (row: Row) => Item): Page<Item> {
  const hasMore = rows.length > query.limit;
  const pageRows = hasMore ? rows.slice(0, query.limit) : rows;
  const last = pageRows.at(-1);
  return {
    data: pageRows.map(serialize),
    nextCursor: hasMore && last ? encodeCursor(key(last).at, key(last).id) : null,
  };
}
