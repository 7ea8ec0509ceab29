import { openBenchDatabase, startBaton, startDemo } from './setup';
import { spawnThread } from './threads';
import { newChatBody, waitForRunEnd, directBody } from './ttft';
const db = await openBenchDatabase(process.env.DATABASE_URL);
const demo = await startDemo();
const baton = await startBaton(db.handle, demo);
const t = await spawnThread(new URL('./_trace-thread.ts', import.meta.url));
const res = await fetch(`${baton.url}/api/workspaces/default/agents`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Bench' }) });
const agentId = ((await res.json()) as any).id;
for (let i = 0; i < 10; i++) {
  const b = newChatBody(agentId);
  console.log('BATON ', await t.call('trace', { url: `${baton.url}/api/workspaces/default/chat`, body: b }));
  await waitForRunEnd(baton, b.id);
  console.log('DIRECT', await t.call('trace', { url: `${demo.baseURL}/chat/completions`, body: directBody() }));
}
await t.terminate(); await baton.close(); await demo.close(); await db.close();
