// Worker thread: the demo model, standalone over HTTP on 127.0.0.1. No delay between words,
// unless BENCH_DEMO_DELAY_MS asks for one (a diagnostic, not the standard figures).
import { startDemoLlmServer } from '@baton/demo-llm';
import { expose } from './threads';

export const demoDelayMs = (): number => {
  const n = Number(process.env.BENCH_DEMO_DELAY_MS ?? 0);
  return Number.isFinite(n) && n >= 0 ? n : 0;
};

const server = await startDemoLlmServer({ port: 0, hostname: '127.0.0.1', delayMs: demoDelayMs() });

expose({
  address: () => ({ url: server.url, baseURL: server.baseURL, delayMs: demoDelayMs() }),
  close: () => server.close(),
});
