// Worker thread: the demo model, standalone over HTTP on 127.0.0.1 with no delay between words.
import { startDemoLlmServer } from '@baton/demo-llm';
import { expose } from './threads';

const server = await startDemoLlmServer({ port: 0, hostname: '127.0.0.1', delayMs: 0 });

expose({
  address: () => ({ url: server.url, baseURL: server.baseURL }),
  close: () => server.close(),
});
