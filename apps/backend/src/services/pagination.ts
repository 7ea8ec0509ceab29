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

function decodeCursor(cursor: string): Cursor {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    const date = new Date(String(at));
    if (typeof id !== 'string' || Number.isNaN(date.getTime())) throw new Error('bad cursor');
    return { at: date, id };
  } catch {
    throw invalidRequest('cursor is not valid: pass the nextCursor of a previous page');
  }
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
export function toPage<Row, Item>(
  rows: Row[],
  query: ListQuery,
  key: (row: Row) => { at: Date; id: string },
  serialize: (row: Row) => Item,
): Page<Item> {
  const hasMore = rows.length > query.limit;
  const pageRows = hasMore ? rows.slice(0, query.limit) : rows;
  const last = pageRows.at(-1);
  return {
    data: pageRows.map(serialize),
    nextCursor: hasMore && last ? encodeCursor(key(last).at, key(last).id) : null,
  };
}
