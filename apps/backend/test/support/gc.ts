import v8 from 'node:v8';
import vm from 'node:vm';

let gc: (() => void) | undefined;

/**
 * A full garbage collection, now: what a busy process does at some point anyway, so a test
 * can make "after a collection" certain instead of likely. Vitest's workers do not start
 * with --expose-gc; the flag set at run time exposes `gc` in a new context.
 */
export function collectGarbage(): void {
  if (!gc) {
    v8.setFlagsFromString('--expose_gc');
    gc = vm.runInNewContext('gc') as () => void;
  }
  gc();
  gc();
}
