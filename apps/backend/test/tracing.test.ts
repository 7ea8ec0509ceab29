import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTracing, type Tracing } from '../src/ops/tracing';
import { NodeChat, toolParts } from './support/chat-client';
import { useLeadTeam } from './support/fixtures';
import { ancestorsOf, type OtlpReceiver, type ReceivedSpan, runSpanOf, startOtlpReceiver } from './support/otlp-receiver';
import { json, useTestApp } from './support/test-app';
import { waitFor } from './support/wait';

// Spans exported over OTLP to a receiver the test starts: the delegation tree as one trace,
// in the server flow (REST) and the browser flow (the sub-chat started by a later request).
const t = useTestApp({ demoDelayMs: 1 });
const agents = useLeadTeam(t);
const ws = '/api/workspaces/default';
let receiver: OtlpReceiver;
let tracing: Tracing;
let n = 0;
const uid = (p: string) => `${p}_${Date.now().toString(36)}_${n++}`;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  tracing = (await startTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }))!;
});
afterAll(async () => {
  await tracing?.shutdown();
  await receiver?.close();
});

/** Waits until the receiver has a span `find` picks out (spans are exported as they end). */
const spanWhere = (what: string, find: (spans: ReceivedSpan[]) => ReceivedSpan | undefined) =>
  waitFor(what, async () => {
    await tracing.flush();
    return find(receiver.spans);
  });

/** Whether any attribute of any span holds `text` (prompts and answers must not be exported by default). */
const exported = (text: string) => receiver.spans.some((s) => Object.values(s.attributes).some((v) => String(v).includes(text)));

describe('traces of a delegation tree', () => {
  it('server flow: request → run → newTask call (the AI SDK tool span) → the sub-agent’s run, with GenAI model-call spans and no prompt text', async () => {
    const task = `count the herons of the Loire ${uid('t')}`;
    const c = await json(await t.request(`${ws}/chats`, { json: { agentId: agents.Lead.id } }));
    const res = await t.request(`${ws}/chats/${c.id}/messages`, { json: { text: `/delegate Researcher: ${task}` } });
    expect(res.status).toBe(200);

    const subRun = await spanWhere('the sub-agent’s run span', (spans) => spans.find((s) => s.name === 'run' && s.attributes['baton.parent_chat.id'] === c.id));
    const parentRun = runSpanOf(receiver.spans, c.id)!;
    expect(parentRun).toBeDefined();
    const inTrace = receiver.spans.filter((s) => s.traceId === parentRun.traceId);
    // The sub-agent's run is a child of the parent's newTask call, which is under the parent's run.
    expect(subRun.traceId).toBe(parentRun.traceId);
    const call = inTrace.find((s) => s.spanId === subRun.parentSpanId)!;
    expect(call.name).toBe('execute_tool newTask');
    expect(call.attributes['gen_ai.tool.name']).toBe('newTask');
    expect(ancestorsOf(receiver.spans, call)).toContain(parentRun);
    // The request that started it all, named by its route pattern, not its path.
    const request = inTrace.find((s) => s.spanId === parentRun.parentSpanId)!;
    expect(request.name).toBe('POST /api/workspaces/:workspaceId/chats/:chatId/messages');
    expect(request.attributes).toMatchObject({ 'http.route': '/api/workspaces/:workspaceId/chats/:chatId/messages', 'http.response.status_code': 200 });
    expect(request.service).toBe('baton-backend');
    expect(parentRun.attributes).toMatchObject({ 'baton.run.status': 'succeeded', 'gen_ai.agent.name': 'Lead', 'baton.run.mode': 'server' });
    expect(subRun.attributes).toMatchObject({ 'baton.run.status': 'succeeded', 'gen_ai.agent.name': 'Researcher' });
    // Each model call of the sub-agent: GenAI conventions (model, tokens, finish reason).
    const modelCalls = inTrace.filter((s) => s.name.startsWith('chat ') && ancestorsOf(receiver.spans, s).includes(subRun));
    expect(modelCalls.length).toBeGreaterThan(0);
    expect(modelCalls[0]!.attributes).toMatchObject({ 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': expect.any(String) });
    expect(modelCalls[0]!.attributes['gen_ai.usage.input_tokens']).toBeGreaterThan(0);
    expect(modelCalls[0]!.attributes['gen_ai.response.finish_reasons']).toBeTruthy();
    // No prompt, task or answer text unless BATON_TRACE_CONTENT=true.
    expect(exported('herons of the Loire')).toBe(false);
    expect(receiver.spans.some((s) => 'gen_ai.input.messages' in s.attributes || 'gen_ai.output.messages' in s.attributes)).toBe(false);
  });

  it('browser flow: the sub-chat a later request starts runs as a child of the newTask call the parent’s run handed to the browser', async () => {
    const parent = new NodeChat({ id: uid('chat'), baseUrl: t.baseUrl, body: { agentId: agents.Lead.id } });
    await parent.sendMessage({ text: '/delegate Writer: a short poem about kingfishers' });
    await parent.settled();
    const [pending] = toolParts(parent.lastMessage, 'newTask');
    expect(pending?.state).toBe('input-available');
    // What the browser's modal does: a second chat, started with the call's ids.
    const sub = new NodeChat({
      id: uid('sub'),
      baseUrl: t.baseUrl,
      body: { agentId: pending!.input.subAgentId, parentChatId: parent.id, parentToolCallId: pending!.toolCallId },
    });
    await sub.sendMessage({ text: pending!.input.task });
    await sub.settled();

    const subRun = await spanWhere('the sub-chat’s run span', (spans) => runSpanOf(spans, sub.id));
    const parentRun = runSpanOf(receiver.spans, parent.id)!;
    expect(subRun.traceId).toBe(parentRun.traceId);
    const call = receiver.spans.find((s) => s.traceId === subRun.traceId && s.spanId === subRun.parentSpanId)!;
    expect(call).toMatchObject({ name: 'execute_tool newTask', parentSpanId: parentRun.spanId });
    expect(call.attributes).toMatchObject({ 'gen_ai.tool.call.id': pending!.toolCallId, 'baton.tool.executor': 'browser' });
    const request = receiver.spans.find((s) => s.spanId === parentRun.parentSpanId)!;
    expect(request.name).toBe('POST /api/workspaces/:workspaceId/chat');
    expect(exported('kingfishers')).toBe(false);
  });

  it('http/protobuf (the default protocol) arrives as protobuf; BATON_TRACE_CONTENT=true adds the prompts and answers', async () => {
    await tracing.shutdown();
    tracing = (await startTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, BATON_TRACE_CONTENT: 'true', OTEL_SERVICE_NAME: 'baton-traced' }))!;
    const c = await json(await t.request(`${ws}/chats`, { json: { agentId: agents.Researcher.id } }));
    const res = await t.request(`${ws}/chats/${c.id}/messages`, { json: { text: 'tell me about lighthouse keepers' } });
    expect(res.status).toBe(200);
    const run = await spanWhere('the run span', (spans) => runSpanOf(spans, c.id));
    expect(receiver.contentTypes.at(-1)).toBe('application/x-protobuf');
    expect(run.service).toBe('baton-traced');
    const modelCall = receiver.spans.find((s) => s.traceId === run.traceId && s.name.startsWith('chat '))!;
    expect(String(modelCall.attributes['gen_ai.input.messages'])).toContain('lighthouse keepers');
    expect(modelCall.attributes['gen_ai.output.messages']).toBeTruthy();
  });
});
