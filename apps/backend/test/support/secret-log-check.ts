import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Secrets are at least this long (suite-secrets.ts). */
const PREFIX = 8;

/** Shown instead of a found secret: enough to tell which one, not enough to use it. */
const masked = (secret: string) => `${secret.slice(0, 4)}…(${secret.length} chars)`;

/**
 * After the whole run: every secret a test sent or received (suite-secrets.ts) against every
 * log line the run's backends wrote. A hit fails the run (vitest reports a teardown's exit code,
 * not its thrown errors), naming the log file, the line and the secret, masked.
 */
export async function checkNoSecretInLogs(dir: string): Promise<void> {
  const { hits, secrets, lines } = await findSecretsInLogs(dir);
  if (hits.length > 0) {
    console.error(`\n✖ ${hits.length} log line(s) of this run hold a secret a test used:\n${hits.slice(0, 20).join('\n')}\n`);
    process.exitCode = 1;
  } else {
    console.log(`✓ no secret in the run's log: ${secrets} secrets checked against ${lines} lines`);
  }
}

/** The log lines of `dir` that hold a secret listed there (each hit: file, masked secret, line). */
export async function findSecretsInLogs(dir: string): Promise<{ hits: string[]; secrets: number; lines: number }> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const secrets = new Set<string>();
  for (const name of names.filter((n) => n.startsWith('secrets-'))) {
    for (const line of (await readFile(join(dir, name), 'utf8')).split('\n')) if (line) secrets.add(JSON.parse(line) as string);
  }
  // Each secret is looked up by its first characters at every position of a line: one map
  // lookup per character rather than one scan per secret (thousands of secrets, many lines).
  const byPrefix = new Map<string, string[]>();
  for (const secret of secrets) {
    const prefix = secret.slice(0, PREFIX);
    byPrefix.set(prefix, [...(byPrefix.get(prefix) ?? []), secret]);
  }
  const hits: string[] = [];
  let lines = 0;
  for (const name of names.filter((n) => n.startsWith('log'))) {
    for (const line of (await readFile(join(dir, name), 'utf8')).split('\n')) {
      if (!line) continue;
      lines++;
      for (let i = 0; i + PREFIX <= line.length; i++) {
        for (const secret of byPrefix.get(line.slice(i, i + PREFIX)) ?? []) {
          if (line.startsWith(secret, i)) hits.push(`${name}: ${masked(secret)} in ${line.slice(0, 300)}`);
        }
      }
    }
  }
  return { hits, secrets: secrets.size, lines };
}
