import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/client';

/** Every path under `dir` (itself included) that its group or other users may read, write or enter. */
function openToOthers(dir: string): string[] {
  const found: string[] = [];
  const visit = (path: string) => {
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) return;
    if (stat.mode & 0o077) found.push(`${path} ${(stat.mode & 0o777).toString(8)}`);
    if (stat.isDirectory()) for (const entry of readdirSync(path)) visit(join(path, entry));
  };
  visit(dir);
  return found;
}

const root = mkdtempSync(join(tmpdir(), 'baton-pglite-modes-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

// PGlite (Emscripten's NODEFS) creates its files mode 0666 whatever the process umask: on a
// shared machine every other user could read the chats and rewrite the database.
describe('the embedded database keeps its files to the owner', () => {
  it('a data directory that already exists at 0755 holds nothing the group or others can read or write', async () => {
    const dataDir = join(root, 'data');
    mkdirSync(dataDir);
    chmodSync(dataDir, 0o755);
    const handle = await openDatabase({ kind: 'pglite', dataDir });
    await handle.db.execute(sql`create table written_while_running (x int)`);
    await handle.db.execute(sql`insert into written_while_running values (1)`);
    expect(openToOthers(dataDir)).toEqual([]);
    await handle.close();
    expect(openToOthers(dataDir)).toEqual([]);
  });

  it('files left open to others by an earlier version are closed at the next start', async () => {
    const dataDir = join(root, 'data');
    for (const entry of readdirSync(dataDir)) chmodSync(join(dataDir, entry), lstatSync(join(dataDir, entry)).isDirectory() ? 0o777 : 0o666);
    chmodSync(dataDir, 0o777);
    const handle = await openDatabase({ kind: 'pglite', dataDir });
    const rows = await handle.db.execute(sql`select x from written_while_running`);
    expect((rows as { rows: unknown[] }).rows).toEqual([{ x: 1 }]);
    expect(openToOthers(dataDir)).toEqual([]);
    await handle.close();
  });
});
