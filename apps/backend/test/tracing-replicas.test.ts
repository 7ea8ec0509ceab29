import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBackend, workspaceApi, type BackendProcess } from './support/backend-process';
import { NodeChat, toolParts } from './support/chat-client';
import { type OtlpReceiver, runSpanOf, startOtlpReceiver } from './support/otlp-receiver';
import { createTestDatabase } from './support/test-db';
import { waitFor } from './support/wait';

// Two backend processes on one Postgres and Redis, both exporting to one OTLP receiver: a
// sub-agent's run on B is a child of the newTask call made on A — the context comes from
// the database, not from memory.
const onPostgres = Boolean(process.env.DATABASE_URL);
const api = workspaceApi;

describe.skipIf(!onPostgres)('traces across two replicas', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let receiver: OtlpReceiver;
  let a: BackendProcess;
  let b: BackendProcess;
  let agents: Record<string, { id: string }>;

  beforeAll(async () => {
    database = await createTestDatabase();
    receiver = await startOtlpReceiver();
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      PORT: '0',
      DEMO_LLM_DELAY_MS: '1',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      // Exported within 0.1 s of ending (5 s by default).
      OTEL_BSP_SCHEDULE_DELAY: '100',
    };
    [a, b] = await Promise.all([startBackend({ ...env, OTEL_SERVICE_NAME: 'baton-a' }), startBackend({ ...env, OTEL_SERVICE_NAME: 'baton-b' })]);
    agents = Object.fromEntries((await api(a).get('/agents')).data.map((x: { name: string; id: string }) => [x.name, x]));
  });

  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await receiver?.close();
    await database?.close();
  });

  it('browser flow: the parent answers on A, the sub-chat is started through B; its run (on B) is a child of A’s newTask span', async () => {
    const parent = new NodeChat({ id: `chat_tr_${Date.now()}`, baseUrl: a.url, body: { agentId: agents.Assistant!.id } });
    await parent.sendMessage({ text: '/delegate Researcher: list three estuaries' });
    await parent.settled();
    const [pending] = toolParts(parent.lastMessage, 'newTask');
    expect(pending?.state).toBe('input-available');
    const sub = new NodeChat({
      id: `sub_tr_${Date.now()}`,
      baseUrl: b.url,
      body: { agentId: pending!.input.subAgentId, parentChatId: parent.id, parentToolCallId: pending!.toolCallId },
    });
    await sub.sendMessage({ text: pending!.input.task });
    await sub.settled();

    const subRun = await waitFor('the sub-chat’s run span from B', async () => runSpanOf(receiver.spans, sub.id));
    const parentRun = runSpanOf(receiver.spans, parent.id)!;
    expect([parentRun.service, subRun.service]).toEqual(['baton-a', 'baton-b']);
    const call = receiver.spans.find((s) => s.spanId === subRun.parentSpanId)!;
    expect(call).toMatchObject({ name: 'execute_tool newTask', service: 'baton-a', traceId: parentRun.traceId, parentSpanId: parentRun.spanId });
    expect(subRun.traceId).toBe(parentRun.traceId);
  });

  it('server flow: a delegation run on A and retried through B — the new attempt’s run on B joins the same newTask span', async () => {
    const chat = (await api(a).post('/chats', { agentId: agents.Assistant!.id })).body;
    const turn = await api(a).post(`/chats/${chat.id}/messages`, { text: '/delegate Writer: a haiku about tides' });
    expect(turn.status).toBe(200);
    const first = await waitFor('the first attempt’s run span', async () =>
      receiver.spans.find((s) => s.name === 'run' && s.attributes['baton.parent_chat.id'] === chat.id),
    );
    const call = receiver.spans.find((s) => s.spanId === first.parentSpanId)!;
    expect(call).toMatchObject({ name: 'execute_tool newTask', service: 'baton-a' });

    const retry = await api(b).post(`/chats/${chat.id}/delegations/${call.attributes['gen_ai.tool.call.id']}/retry`, {});
    expect(retry.status).toBe(202);
    const second = await waitFor('the retry’s run span from B', async () => runSpanOf(receiver.spans, retry.body.subChatId));
    expect(second).toMatchObject({ service: 'baton-b', traceId: call.traceId, parentSpanId: call.spanId });
  });
});
