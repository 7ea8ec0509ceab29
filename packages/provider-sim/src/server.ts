// Standalone: `PROVIDER_SIM_BEHAVIOUR='{"silenceMs":90000}' pnpm --filter @baton/provider-sim start`.
import { behaviourFromEnv } from './behaviour';
import { startProviderSimulator } from './listen';

const port = Number(process.env.PROVIDER_SIM_PORT ?? 4030);
const behaviour = behaviourFromEnv(process.env.PROVIDER_SIM_BEHAVIOUR);
const delayMs = Number(process.env.PROVIDER_SIM_DELAY_MS ?? 15);
const sim = await startProviderSimulator({ port, behaviour, delayMs, hostname: process.env.PROVIDER_SIM_HOSTNAME ?? '127.0.0.1' });
console.log(`Provider simulator at ${sim.baseURL} (any model id) — behaviour ${JSON.stringify(behaviour)}`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void sim.close().finally(() => process.exit(0)));
