import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { chat } from '../src/db/schema';
import { NodeChat, toolParts } from './support/chat-client';
import { json, useTestApp } from './support/test-app';
import { withStatus } from './support/fixtures';
import { waitFor } from './support/wait';

// One Stop for an answer whose sub-agents the browser runs: the parent's run has ended on
// its newTask calls, so there is no run to stop; the sub-agents below it are the work.
const t = useTestApp({ demoDelayMs: 1 });
const ws = '/api/workspaces/default';
let n = 0;
const uid = (p: string) => `${p}_${Date.now().toString(36)}_${n++}`;
const agents: Record<string, { id: string }> = {};

beforeAll(async () => {
  for (const name of ['Researcher', 'Writer']) agents[name] = await json(await t.request(`${ws}/agents`, { json: { name: `${name} ${uid('a')}` } }));
  agents.Lead = await json(await t.request(`${ws}/agents`, { json: { name: `Lead ${uid('a')}`, subAgentIds: [agents.Researcher!.id, agents.Writer!.id] } }));
});

async function storedChat(id: string) {
  return json(await t.request(`${ws}/chats/${id}`));
}

describe('Stop while the browser runs sub-agents', () => {
  it('cancels the running sub-agent, gives every waiting call a cancelled output and continues nothing', async () => {
    const parent = new NodeChat({ id: uid('chat'), baseUrl: t.baseUrl, body: { agentId: agents.Lead!.id } });
    await parent.sendMessage({ text: `/delegate ${agents.Researcher!.id}: wait for me [demo:steer]\n/delegate ${agents.Writer!.id}: never started` });
    await parent.settled();
    const [running, never] = toolParts(parent.lastMessage, 'newTask');
    expect(never).toBeDefined();

    // The first call's sub-chat runs (a [demo:steer] sub-agent waits up to 30 s); the second never starts.
    const sub = new NodeChat({
      id: uid('sub'),
      baseUrl: t.baseUrl,
      body: { agentId: agents.Researcher!.id, parentChatId: parent.id, parentToolCallId: running!.toolCallId },
    });
    void sub.sendMessage({ text: 'wait for me [demo:steer]' });
    await waitFor('the sub-chat to run', async () => ((await storedChat(sub.id).catch(() => null))?.status === 'running' ? true : undefined));
    const requestsBefore = t.demo.requests.length;

    const stop = await t.request(`${ws}/chats/${parent.id}/stop`, { method: 'POST' });
    expect(stop.status).toBe(200);
    expect(await json(stop)).toEqual({ stopped: true });

    const [row] = await t.handle.db.select().from(chat).where(eq(chat.id, sub.id));
    expect(withStatus(row!)).toMatchObject({ status: 'cancelled', outcome: 'cancelled' });
    const stored = await storedChat(parent.id);
    const last = stored.messages.at(-1);
    expect(last.metadata.stopped).toBe(true);
    const outputs = toolParts(last, 'newTask').map((p) => ({
      state: p.state,
      outcome: (p.output as { outcome: string }).outcome,
      subChatId: (p.output as { subChatId: string | null }).subChatId,
    }));
    expect(outputs).toEqual([
      { state: 'output-available', outcome: 'cancelled', subChatId: sub.id },
      { state: 'output-available', outcome: 'cancelled', subChatId: null },
    ]);
    // Nothing continues the answer: no run, and the model was not asked again for the parent.
    expect(stored.activeRun).toBeNull();
    await new Promise((r) => setTimeout(r, 300));
    expect(t.demo.requests.slice(requestsBefore).filter((r) => JSON.stringify(r.messages).includes('never started'))).toEqual([]);

    // The chat is not stuck: the next message is answered, with the cancelled results in its history.
    await parent.sendMessage({ text: 'go on without them' });
    await parent.settled();
    expect(parent.status).toBe('ready');
    expect((await storedChat(parent.id)).messages.at(-1).role).toBe('assistant');
  });

  it('answers stopped: false when nothing waits (an answer that ended with no open call)', async () => {
    const parent = new NodeChat({ id: uid('chat'), baseUrl: t.baseUrl, body: { agentId: agents.Lead!.id } });
    await parent.sendMessage({ text: 'hello' });
    await parent.settled();
    const stop = await t.request(`${ws}/chats/${parent.id}/stop`, { method: 'POST' });
    expect(await json(stop)).toEqual({ stopped: false });
    expect((await storedChat(parent.id)).messages.at(-1).metadata?.stopped).toBeUndefined();
  });
});
