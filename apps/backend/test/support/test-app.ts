import { asc } from 'drizzle-orm';
import { afterAll, beforeAll } from 'vitest';
import { createApp } from '../../src/app';
import type { DatabaseHandle } from '../../src/db/client';
import { agent, chat, message, provider, workspace } from '../../src/db/schema';
import { createTestDatabase } from './test-db';

export interface TestApp {
  handle: DatabaseHandle;
  request(path: string, init?: RequestInit & { json?: unknown }): Promise<Response>;
  /** Every row of every table, for "a rejected request wrote nothing" checks. */
  snapshot(): Promise<string>;
}

/** Registers a fresh database and app for the calling test file. */
export function useTestApp(): TestApp {
  const ctx = {} as TestApp;
  beforeAll(async () => {
    const handle = await createTestDatabase();
    const app = createApp({ db: handle.db, databaseKind: handle.kind });
    ctx.handle = handle;
    ctx.request = (path, init = {}) => {
      const { json, ...rest } = init;
      if (json === undefined) return Promise.resolve(app.request(path, rest));
      return Promise.resolve(
        app.request(path, {
          ...rest,
          method: rest.method ?? 'POST',
          headers: { 'content-type': 'application/json', ...rest.headers },
          body: JSON.stringify(json),
        }),
      );
    };
    ctx.snapshot = async () => {
      const db = handle.db;
      const rows = await Promise.all([
        db.select().from(workspace).orderBy(asc(workspace.id)),
        db.select().from(provider).orderBy(asc(provider.id)),
        db.select().from(agent).orderBy(asc(agent.id)),
        db.select().from(chat).orderBy(asc(chat.id)),
        db.select().from(message).orderBy(asc(message.id)),
      ]);
      return JSON.stringify(rows);
    };
  });
  afterAll(async () => {
    await ctx.handle?.close();
  });
  return ctx;
}

export async function json<T = any>(res: Response): Promise<T> {
  return (await res.json()) as T;
}
