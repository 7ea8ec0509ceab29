// `pnpm --filter @baton/a2a-agent-sim start`: the scripted agent on PORT (default 4100), by hand.
import { startA2AAgentSim } from './index';

const sim = await startA2AAgentSim({ port: Number(process.env.PORT ?? 4100) });
console.log(`Scripted A2A agent: ${sim.cardUrl}`);
