// Standalone entry point: `pnpm --filter @baton/demo-llm start`.
import { delayFromEnv } from './app';
import { startDemoLlmServer } from './listen';

const rawPort = process.env.DEMO_LLM_PORT;
const port = rawPort === undefined || rawPort.trim() === '' ? 4010 : Number(rawPort);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`DEMO_LLM_PORT must be a port number, got '${rawPort}'`);
  process.exit(1);
}

const delayMs = delayFromEnv();
// All interfaces by default, so it is reachable from other containers (docker compose);
// benchmarks keep it on loopback.
const hostname = process.env.DEMO_LLM_HOSTNAME?.trim() || '0.0.0.0';
const server = await startDemoLlmServer({ port, delayMs, hostname });
console.log(`Baton demo model (offline, scripted) at ${server.baseURL} — model 'baton-demo', ${delayMs} ms between words`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    server.close().finally(() => process.exit(0));
  });
}
