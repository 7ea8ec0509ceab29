import { convertToModelMessages } from 'ai';
import { prepareBrowserTurn } from '../src/agent/prepare-turn';
import { startTurn } from '../src/agent/turn';
import { resolveModel } from '../src/agent/models';
import { requireWorkspace } from '../src/services/workspaces';
import { openBenchDatabase, startBaton, startDemo } from './setup';
import { median, now } from './stats';
import { newChatBody, waitForRunEnd, batonSample, directSample } from './ttft';
import { isUiTextDelta, readSse } from './sse';

const db = await openBenchDatabase(process.env.DATABASE_URL);
const demo = await startDemo();
const baton = await startBaton(db.handle, demo);
const res = await fetch(`${baton.url}/api/workspaces/default/agents`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Bench' }) });
const agentId = ((await res.json()) as any).id;
const deps = baton.app.deps;
const T: Record<string, number[]> = {};
const rec = (k: string, v: number) => (T[k] ??= []).push(v);
for (let i = 0; i < 40; i++) {
  let t = now();
  await requireWorkspace(deps.db, 'default');
  rec('requireWorkspace', now() - t);
  const body = newChatBody(agentId);
  t = now();
  const input = await prepareBrowserTurn(deps, 'default', { ...body, trigger: 'submit-message' } as any);
  rec('prepareBrowserTurn', now() - t);
  t = now();
  await resolveModel(deps.db, 'default', input.agent, deps.defaultModel);
  rec('resolveModel', now() - t);
  t = now();
  await convertToModelMessages(input.history, { tools: {}, ignoreIncompleteToolCalls: true });
  rec('convertToModelMessages', now() - t);
  t = now();
  const turn = await startTurn(deps, input);
  rec('startTurn() returns', now() - t);
  const reader = turn.stream.getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error('no text');
    if (value.type === 'text-delta') break;
  }
  rec('startTurn → first text-delta', now() - t);
  while (!(await reader.read()).done);
  await turn.result;
  // in-process full endpoint
  const b2 = newChatBody(agentId);
  t = now();
  const r2 = await baton.app.request('/api/workspaces/default/chat', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(b2) });
  const rd = await readSse(r2, isUiTextDelta);
  rec('app.request (no socket) → first text-delta', rd.firstTokenAt! - t);
  await waitForRunEnd(baton, b2.id);
  t = now();
  await (await fetch(`${baton.url}/api/health`)).text();
  rec('GET /api/health over HTTP', now() - t);
  t = now();
  await (await fetch(`${demo.baseURL}/models`)).text();
  rec('GET demo /v1/models over HTTP', now() - t);
  rec('baton sample', await batonSample(baton, agentId));
  rec('direct sample', await directSample(demo.baseURL));
}
for (const [k, v] of Object.entries(T)) console.log(k.padEnd(45), median(v.slice(5)).toFixed(2));
await baton.close(); await demo.close(); await db.close();
