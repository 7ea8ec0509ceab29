/**
 * At most `limit` tasks at once; the rest wait their turn in call order. Both flows use it
 * for a batch's sub-agents (`maxConcurrent`): the browser for the sub-chats it starts, the
 * server for the sub-agents it runs.
 */
export function createLimiter(limit: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  const release = () => {
    const next = waiting.shift();
    // The slot passes straight to the next in line, so no later caller can take it first.
    if (next) next();
    else running--;
  };
  return {
    /** Resolves when the task may start; call the returned function when it ends (more calls do nothing). */
    async acquire(): Promise<() => void> {
      if (running < limit) running++;
      else await new Promise<void>((resolve) => waiting.push(resolve));
      let released = false;
      return () => {
        if (released) return;
        released = true;
        release();
      };
    },
    /** Tasks waiting for a slot. */
    get waiting() {
      return waiting.length;
    },
  };
}
