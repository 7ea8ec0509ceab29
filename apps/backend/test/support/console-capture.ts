import { vi } from 'vitest';
import { logTo } from '../../src/ops/logger';
import { appendToSuiteLog } from './suite-secrets';

/** A log line as a person reads it: the message, its error text, then its other fields. */
function readable(line: string): string {
  const { msg, error, level, time, service, ...fields } = JSON.parse(line) as Record<string, unknown>;
  return `${String(msg)}${error === undefined ? '' : `: ${String(error)}`} ${JSON.stringify({ level, ...fields })}`;
}

/**
 * Everything the process prints while `work` runs: its log lines (ops/logger.ts) and anything
 * still printed through the console (errors with their stack and fields). Call `vi.restoreAllMocks()` after.
 */
export async function consoleDuring(work: () => Promise<void>): Promise<string> {
  const printed: string[] = [];
  for (const method of ['error', 'warn', 'log', 'info', 'debug'] as const) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      printed.push(args.map((a) => (a instanceof Error ? `${a.stack} ${JSON.stringify(a)}` : typeof a === 'string' ? a : JSON.stringify(a))).join(' '));
    });
  }
  const restore = logTo({
    write: (line: string) => {
      printed.push(readable(line));
      // Still checked with the whole suite's log for secrets.
      appendToSuiteLog(line);
    },
  });
  try {
    await work();
  } finally {
    restore();
  }
  return printed.join('\n');
}
