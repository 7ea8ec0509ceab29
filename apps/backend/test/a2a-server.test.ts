import { Role, type StreamResponse, type Task, TaskState } from '@a2a-js/sdk';
import { type Client, ClientFactory, DefaultAgentCardResolver, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from './support/accounts';
import { useOpenAiClient } from './support/openai-client';
import { json, useTestApp } from './support/test-app';

// Baton's agents as A2A servers, driven by the official SDK's own client (@a2a-js/sdk, A2A 1.0
// over JSON-RPC) against the real HTTP server and the demo model: the card, blocking and
// streamed sends, delegation as status messages, contextId continuing a chat, cancel, tasks/get
// from the database, and the refusals.
const t = useTestApp({ demoDelayMs: 1 });
const { agentNamed, storedAnswer } = useOpenAiClient(t);
const ws = '/api/workspaces/default';

/** fetch with the API key, as an A2A client configured with the card's bearer scheme sends it. */
const withKey =
  (key: string): typeof fetch =>
  (input, init) => {
    const request = new Request(input, init);
    request.headers.set('authorization', `Bearer ${key}`);
    return fetch(request);
  };

async function clientFor(agentId: string, key = t.owner.apiKey): Promise<Client> {
  const fetchImpl = withKey(key);
  const factory = new ClientFactory({ transports: [new JsonRpcTransportFactory({ fetchImpl })], cardResolver: new DefaultAgentCardResolver({ fetchImpl }) });
  return factory.createFromUrl(`${t.baseUrl}/a2a/${agentId}/.well-known/agent-card.json`, '');
}

const userMessage = (text: string, extra: { contextId?: string; taskId?: string } = {}) => ({
  tenant: '',
  configuration: undefined,
  metadata: undefined,
  message: {
    messageId: randomUUID(),
    contextId: extra.contextId ?? '',
    taskId: extra.taskId ?? '',
    role: Role.ROLE_USER,
    parts: [{ content: { $case: 'text' as const, value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' }],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  },
});

const textOf = (parts: { content?: { $case: string; value?: unknown } }[] | undefined) =>
  (parts ?? []).map((p) => (p.content?.$case === 'text' ? String(p.content.value) : '')).join('');

async function sendBlocking(client: Client, text: string, extra?: { contextId?: string }): Promise<Task> {
  const result = await client.sendMessage(userMessage(text, extra));
  expect('status' in result).toBe(true);
  return result as Task;
}

let assistant: { id: string; name: string; description: string };

beforeAll(async () => {
  assistant = await agentNamed('Assistant');
  const res = await t.request(`${ws}/agents/${assistant.id}`, { method: 'PATCH', json: { a2aPublished: true } });
  expect(res.status).toBe(200);
  expect((await json(res)).a2aPublished).toBe(true);
});

describe('the Agent Card', () => {
  it('describes a published agent: skills from its sub-agents, streaming, the bearer scheme, the JSON-RPC endpoint', async () => {
    const url = `${t.baseUrl}/a2a/${assistant.id}/.well-known/agent-card.json`;
    const res = await fetch(url, { headers: { authorization: `Bearer ${t.owner.apiKey}`, 'a2a-version': '1.0' } });
    expect(res.status).toBe(200);
    const card = (await res.json()) as Record<string, any>;
    expect(card).toMatchObject({ name: 'Assistant', description: assistant.description, capabilities: { streaming: true } });
    expect(card.supportedInterfaces).toContainEqual({ url: `${t.baseUrl}/a2a/${assistant.id}`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' });
    expect(card.skills.map((s: { name: string }) => s.name)).toEqual(['Assistant', 'Researcher', 'Writer']);
    expect(card.securitySchemes.batonApiKey).toMatchObject({ httpAuthSecurityScheme: { scheme: 'Bearer' } });
    expect(card.securityRequirements).toEqual([{ schemes: { batonApiKey: {} } }]);

    // Without A2A-Version, the card in 0.3's shape (what 0.3 clients read).
    const legacy = (await (await fetch(url, { headers: { authorization: `Bearer ${t.owner.apiKey}` } })).json()) as Record<string, any>;
    expect(legacy).toMatchObject({ protocolVersion: '0.3.0', name: 'Assistant', url: `${t.baseUrl}/a2a/${assistant.id}`, preferredTransport: 'JSONRPC' });
    expect(legacy).toMatchObject({ capabilities: { streaming: true }, security: [{ batonApiKey: [] }] });
    expect(legacy.securitySchemes.batonApiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(legacy.skills.map((s: { name: string }) => s.name)).toEqual(['Assistant', 'Researcher', 'Writer']);
  });

  it('refuses a missing or wrong key (401) and an agent that is not published or of another workspace (404), revealing nothing', async () => {
    const card = (id: string, headers: Record<string, string> = { authorization: `Bearer ${t.owner.apiKey}` }) =>
      fetch(`${t.baseUrl}/a2a/${id}/.well-known/agent-card.json`, { headers });
    const none = await card(assistant.id, {});
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect((await none.json()).error.code).toBe('unauthorized');
    expect((await card(assistant.id, { authorization: 'Bearer baton_not_a_key' })).status).toBe(401);
    const rpc = await fetch(`${t.baseUrl}/a2a/${assistant.id}`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    expect(rpc.status).toBe(401);

    const writer = await agentNamed('Writer');
    const unpublished = await card(writer.id);
    expect(unpublished.status).toBe(404);
    const unpublishedBody = await unpublished.json();
    const missing = await card('agent_nope');
    expect(missing.status).toBe(404);
    expect((await missing.json()).error.code).toBe(unpublishedBody.error.code);

    // Another workspace of the same person, with a published agent: the default workspace's key does not reach it.
    const other = await json(await t.request('/api/workspaces', { json: { name: 'A2A elsewhere' } }));
    const agent = await json(await t.request(`/api/workspaces/${other.id}/agents`, { json: { name: 'Hidden', a2aPublished: true } }));
    expect(agent.a2aPublished).toBe(true);
    expect((await card(agent.id)).status).toBe(404);
    const otherKey = (await createApiKey(t.anonymous, t.owner, other.id)).key;
    expect((await card(agent.id, { authorization: `Bearer ${otherKey}` })).status).toBe(200);
    // Unpublishing takes it off at once.
    await t.request(`/api/workspaces/${other.id}/agents/${agent.id}`, { method: 'PATCH', json: { a2aPublished: false } });
    expect((await card(agent.id, { authorization: `Bearer ${otherKey}` })).status).toBe(404);
  });
});

describe('tasks', () => {
  it('answers a blocking send as a completed task whose artifact is the answer, in a chat of the key owner; contextId continues that chat', async () => {
    const client = await clientFor(assistant.id);
    const task = await sendBlocking(client, 'Hello over A2A');
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(task.artifacts).toHaveLength(1);
    const answer = textOf(task.artifacts[0]!.parts);
    expect(answer).toContain('Hello over A2A');
    const stored = await storedAnswer(task.contextId);
    expect(stored.body).toMatchObject({ agentId: assistant.id, source: 'api', title: 'Hello over A2A' });
    expect(stored.text).toBe(answer);

    const next = await sendBlocking(client, 'And a second message', { contextId: task.contextId });
    expect(next.contextId).toBe(task.contextId);
    expect(next.id).not.toBe(task.id);
    expect(textOf(next.artifacts[0]!.parts)).toContain('And a second message');
    const chat = await json(await t.request(`${ws}/chats/${task.contextId}`));
    expect(chat.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);

    // tasks/get reads the database: both tasks, as they ended.
    const again = await client.getTask({ tenant: '', id: task.id, historyLength: undefined });
    expect(again.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(textOf(again.artifacts[0]!.parts)).toBe(answer);
    expect(textOf(again.history[0]?.parts)).toBe('Hello over A2A');
  });

  it('streams a delegating answer: the task, delegation status messages, the answer as an artifact, then completed', async () => {
    const client = await clientFor(assistant.id);
    const events: StreamResponse[] = [];
    for await (const event of client.sendMessageStream(userMessage('/delegate Researcher: facts about otters'))) events.push(event);
    const kinds = events.map((e) => e.payload?.$case);
    expect(kinds[0]).toBe('task');
    expect(kinds.at(-1)).toBe('statusUpdate');
    const statuses = events.flatMap((e) => (e.payload?.$case === 'statusUpdate' ? [e.payload.value.status!] : []));
    const said = statuses.map((s) => textOf(s.message?.parts));
    expect(said).toContain('Delegating to Researcher: facts about otters');
    expect(said.some((s) => s.startsWith('Researcher finished (success)'))).toBe(true);
    expect(statuses.slice(0, -1).every((s) => s.state === TaskState.TASK_STATE_WORKING)).toBe(true);
    expect(statuses.at(-1)!.state).toBe(TaskState.TASK_STATE_COMPLETED);
    // The delegation's messages come before the answer's last artifact update, which holds the whole answer.
    const lastArtifact = events.findLastIndex((e) => e.payload?.$case === 'artifactUpdate');
    expect(said.indexOf('Delegating to Researcher: facts about otters')).toBeGreaterThanOrEqual(0);
    expect(lastArtifact).toBe(events.length - 2);
    const final = events[lastArtifact]!.payload as Extract<StreamResponse['payload'], { $case: 'artifactUpdate' }>;
    expect(final.value).toMatchObject({ append: false, lastChunk: true });

    const taskId = (events[0]!.payload as { value: Task }).value.id;
    const stored = await client.getTask({ tenant: '', id: taskId, historyLength: undefined });
    expect(textOf(stored.artifacts[0]!.parts)).toBe(textOf(final.value.artifact!.parts));
    const { data: subChats } = await json(await t.request(`${ws}/chats/${stored.contextId}/sub-chats`));
    expect(subChats).toHaveLength(1);
  });

  it('cancels a running task: the run stops, the stream ends canceled, tasks/get says so', async () => {
    const client = await clientFor(assistant.id);
    const stream = client.sendMessageStream(userMessage('Tell me a story [demo:stall]'));
    const first = await stream.next();
    const task = (first.value as StreamResponse).payload as { $case: 'task'; value: Task };
    expect(task.$case).toBe('task');
    // The demo model stalls after a few words: wait for them, so the run is surely at work.
    for (let e = await stream.next(); !e.done && e.value.payload?.$case !== 'artifactUpdate'; e = await stream.next());
    // A second client follows the same running task.
    const follower = (await clientFor(assistant.id)).resubscribeTask({ tenant: '', id: task.value.id });
    const snapshot = (await follower.next()).value as StreamResponse;
    expect(snapshot.payload).toMatchObject({ $case: 'task', value: { id: task.value.id, status: { state: TaskState.TASK_STATE_WORKING } } });
    const cancelled = await client.cancelTask({ tenant: '', id: task.value.id, metadata: undefined });
    expect(cancelled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    const rest: StreamResponse[] = [];
    for (let e = await stream.next(); !e.done; e = await stream.next()) rest.push(e.value);
    expect(rest.at(-1)?.payload).toMatchObject({ $case: 'statusUpdate', value: { status: { state: TaskState.TASK_STATE_CANCELED } } });
    const followed: StreamResponse[] = [];
    for (let e = await follower.next(); !e.done; e = await follower.next()) followed.push(e.value);
    expect(followed.some((e) => e.payload?.$case === 'artifactUpdate')).toBe(true);
    expect(followed.at(-1)?.payload).toMatchObject({ $case: 'statusUpdate', value: { status: { state: TaskState.TASK_STATE_CANCELED } } });
    expect(await t.isAnswering(task.value.contextId)).toBe(false);
    expect((await client.getTask({ tenant: '', id: task.value.id, historyLength: undefined })).status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    // An ended task is not cancelable.
    await expect(client.cancelTask({ tenant: '', id: task.value.id, metadata: undefined })).rejects.toMatchObject({ name: 'TaskNotCancelableError' });
  });

  it('is input-required while a delegation waits for a person, and goes on to completed once it is approved in Baton', async () => {
    const researcher = await agentNamed('Researcher');
    const agent = await json(
      await t.request(`${ws}/agents`, { json: { name: 'Careful', subAgentIds: [researcher.id], a2aPublished: true, delegation: { requireApproval: true } } }),
    );
    const client = await clientFor(agent.id);
    const task = await sendBlocking(client, '/delegate Researcher: facts about owls');
    expect(task.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(textOf(task.status?.message?.parts)).toContain('Researcher: facts about owls');

    const { last } = await storedAnswer(task.contextId);
    const waiting = last.parts.filter((p: { type: string; state: string }) => p.type === 'tool-newTask' && p.state === 'approval-requested');
    expect(waiting).toHaveLength(1);
    const decided = await t.request(`${ws}/chats/${task.contextId}/approvals/${waiting[0].toolCallId}`, { json: { approve: true } });
    expect(decided.status).toBeLessThan(300);
    let state = TaskState.TASK_STATE_INPUT_REQUIRED;
    for (let i = 0; i < 200 && state !== TaskState.TASK_STATE_COMPLETED; i++) {
      await new Promise((r) => setTimeout(r, 25));
      state = (await client.getTask({ tenant: '', id: task.id, historyLength: undefined })).status!.state;
    }
    expect(state).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it('refuses what it cannot do as A2A errors: an unknown task, a contextId that is not the caller’s chat, a message to a task', async () => {
    const client = await clientFor(assistant.id);
    await expect(client.getTask({ tenant: '', id: 'run_nope', historyLength: undefined })).rejects.toMatchObject({ name: 'TaskNotFoundError' });
    await expect(client.sendMessage(userMessage('hi', { contextId: 'chat_nope' }))).rejects.toMatchObject({ name: 'RequestMalformedError' });
    const done = await sendBlocking(client, 'One task');
    await expect(client.sendMessage(userMessage('more', { contextId: done.contextId, taskId: done.id }))).rejects.toMatchObject({
      name: 'UnsupportedOperationError',
    });
    // Another member's key reaches the agent, not the owner's tasks.
    const before = await t.snapshot();
    await expect(client.getTask({ tenant: '', id: done.id.slice(0, -1), historyLength: undefined })).rejects.toMatchObject({ name: 'TaskNotFoundError' });
    expect(await t.snapshot()).toBe(before);
  });

  it('speaks A2A 0.3 too (message/send, tasks/get) for clients that send no A2A-Version', async () => {
    const rpc = async (method: string, params: unknown) => {
      const res = await fetch(`${t.baseUrl}/a2a/${assistant.id}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.owner.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      });
      return (await res.json()) as { result?: any; error?: any };
    };
    const sent = await rpc('message/send', {
      message: { kind: 'message', messageId: randomUUID(), role: 'user', parts: [{ kind: 'text', text: 'Legacy hello' }] },
    });
    expect(sent.result).toMatchObject({ kind: 'task', status: { state: 'completed' } });
    expect(sent.result.artifacts[0].parts[0].text).toContain('Legacy hello');
    const got = await rpc('tasks/get', { id: sent.result.id });
    expect(got.result).toMatchObject({ id: sent.result.id, contextId: sent.result.contextId, status: { state: 'completed' } });
    expect((await rpc('tasks/get', { id: 'run_nope' })).error).toMatchObject({ code: -32001 });
  });
});
