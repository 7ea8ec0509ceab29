// Worker threads for the benchmark: the HTTP client and the demo model each get their own
// event loop, so neither competes with Baton's (see docs/benchmarks.md, "Method").
import { parentPort, Worker } from 'node:worker_threads';

type Handlers = Record<string, (args: any) => unknown>;
type Reply = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: string };

/** In a worker: answers `call`s from the main thread with `handlers`. */
export function expose(handlers: Handlers): void {
  const port = parentPort;
  if (!port) throw new Error('expose() runs in a worker thread');
  port.on('message', async ({ id, cmd, args }: { id: number; cmd: string; args: unknown }) => {
    let reply: Reply;
    try {
      const handler = handlers[cmd];
      if (!handler) throw new Error(`unknown command "${cmd}"`);
      reply = { id, ok: true, result: await handler(args) };
    } catch (err) {
      reply = { id, ok: false, error: err instanceof Error ? err.message : String(err) };
    }
    port.postMessage(reply);
  });
  port.postMessage({ ready: true });
}

export interface Thread {
  call<T>(cmd: string, args?: unknown, timeoutMs?: number): Promise<T>;
  terminate(): Promise<void>;
}

/** Starts `file` (a TypeScript module calling `expose`) in a worker thread, with tsx registered there. */
export async function spawnThread(file: URL, startTimeoutMs = 30_000): Promise<Thread> {
  // Workers do not inherit the tsx loader that `--import tsx` registered on the main thread.
  const tsx = import.meta.resolve('tsx/esm/api');
  const worker = new Worker(`import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(file.href)}); })`, { eval: true });
  const pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void; timer: NodeJS.Timeout }>();
  let nextId = 1;
  let failure: Error | undefined;
  const failAll = (err: Error) => {
    failure = err;
    for (const p of pending.values()) {
      clearTimeout(p.timer);
      p.reject(err);
    }
    pending.clear();
  };
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${file.pathname} did not start`)), startTimeoutMs);
    worker.once('error', (err) => (clearTimeout(timer), reject(err)));
    worker.once('message', () => (clearTimeout(timer), resolve()));
  });
  worker.on('error', failAll);
  worker.on('exit', (code) => failAll(new Error(`worker exited with ${code}`)));
  worker.on('message', (reply: Reply) => {
    const p = pending.get(reply.id);
    if (!p) return;
    pending.delete(reply.id);
    clearTimeout(p.timer);
    if (reply.ok) p.resolve(reply.result);
    else p.reject(new Error(reply.error));
  });
  return {
    call<T>(cmd: string, args?: unknown, timeoutMs = 120_000) {
      if (failure) return Promise.reject(failure);
      const id = nextId++;
      return new Promise<T>((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(new Error(`${cmd}: no answer within ${timeoutMs} ms`));
        }, timeoutMs);
        pending.set(id, { resolve: resolve as (v: unknown) => void, reject, timer });
        worker.postMessage({ id, cmd, args });
      });
    },
    async terminate() {
      worker.removeAllListeners('exit');
      await worker.terminate();
    },
  };
}
