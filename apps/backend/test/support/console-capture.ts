import { vi } from 'vitest';

/** Everything the process prints to the console while `work` runs (errors with their stack and fields). Call `vi.restoreAllMocks()` after. */
export async function consoleDuring(work: () => Promise<void>): Promise<string> {
  const printed: unknown[][] = [];
  for (const method of ['error', 'warn', 'log', 'info', 'debug'] as const) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void printed.push(args));
  }
  await work();
  return printed
    .map((args) => args.map((a) => (a instanceof Error ? `${a.stack} ${JSON.stringify(a)}` : typeof a === 'string' ? a : JSON.stringify(a))).join(' '))
    .join('\n');
}
