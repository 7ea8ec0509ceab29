import { chmodSync, lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Closes an embedded database's data directory to everyone but its owner: directories 0700,
 * files 0600 (what Postgres itself insists on for its data directory).
 *
 * PGlite writes through Emscripten's NODEFS, which sets the modes it keeps in its own
 * virtual file system (0666 for files, 0777 for some directories) with chmod, so the process
 * umask does not help: run on a data directory that already existed at 0755, the chats and
 * the session table were readable, and the files writable, by every user of the machine.
 * Run before PGlite opens the directory (the directory itself, so nothing is reachable while
 * it starts) and after (what it created or found); the directory at 0700 keeps out anything
 * created later whatever its mode, and the next start closes that too.
 */
export function restrictDataDir(dir: string): void {
  const visit = (path: string) => {
    const stat = lstatSync(path);
    // A link is never followed: it may point outside the data directory.
    if (stat.isSymbolicLink()) return;
    const wanted = stat.isDirectory() ? 0o700 : 0o600;
    if ((stat.mode & 0o777) !== wanted) chmodSync(path, wanted);
    if (stat.isDirectory()) for (const entry of readdirSync(path)) visit(join(path, entry));
  };
  visit(dir);
}

/** Only the directory itself (cheap, before PGlite reads it). */
export function restrictDataDirRoot(dir: string): void {
  chmodSync(dir, 0o700);
}
