import { mcpToolId } from '@baton/schemas';
import { afterAll, describe, expect, it } from 'vitest';
import { findActiveRun } from '../src/services/runs';
import { postStream, userMessage } from './support/chat-client';
import { collectGarbage } from './support/gc';
import { HOSTILE_TOOL, startHostileMcpServer, type HostileMcpServer } from './support/hostile-mcp';
import { json, useTestApp } from './support/test-app';
import { waitFor } from './support/wait';

/*
 * Stop ends a run whatever the run waits on: an MCP server that never finishes connecting,
 * an MCP tool call that never returns, a model stream that stalls and ignores its abort.
 * The deadlines are long here (the defaults, and 2 minutes to connect), so only Stop can end
 * these runs within the test.
 */
const t = useTestApp({ allowPrivateUrls: true, defaultModel: async () => ({ kind: 'demo' }), mcpTimeoutMs: 120_000 });
const ws = '/api/workspaces/default';
let seq = 0;
const uid = (p: string) => `${p}_${Date.now().toString(36)}_${seq++}`;

const servers: HostileMcpServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

async function agentWithHostileTool() {
  const server = await startHostileMcpServer();
  servers.push(server);
  const added = await json(await t.request(`${ws}/mcp-servers`, { json: { name: uid('Hostile'), url: server.url } }));
  expect(added.toolsError).toBeNull();
  const agent = await json(await t.request(`${ws}/agents`, { json: { name: uid('Agent'), toolIds: [mcpToolId(added.id, HOSTILE_TOOL)] } }));
  return { server, agent };
}

/** Sends `text` in a new chat (the request answers once the run has ended), and the chat's id. */
async function sendInNewChat(agentId: string, text: string) {
  const c = await json(await t.request(`${ws}/chats`, { json: { agentId } }));
  const answer = t.request(`${ws}/chats/${c.id}/messages`, { json: { text } }).then(json);
  return { chatId: c.id as string, answer };
}

async function stop(chatId: string) {
  expect(await json(await t.request(`${ws}/chats/${chatId}/stop`, { method: 'POST' }))).toEqual({ stopped: true });
}

describe('Stop', () => {
  it('ends a run waiting on an MCP server that never finishes connecting', async () => {
    const { server, agent } = await agentWithHostileTool();
    server.set('initialize', 'sse-without-answer');
    const { chatId, answer } = await sendInNewChat(agent.id, `/tool ${HOSTILE_TOOL} {"topic":"otters"}`);
    // Once at creation, once for this turn.
    await waitFor('the turn to connect', async () => (server.received('initialize') === 2 ? true : undefined));
    await stop(chatId);
    expect((await answer).run.status).toBe('cancelled');
    expect(await t.isAnswering(chatId)).toBe(false);
  });

  it('ends a run waiting on an MCP tool call that never returns', async () => {
    const { server, agent } = await agentWithHostileTool();
    server.set('tools/call', 'no-answer');
    const { chatId, answer } = await sendInNewChat(agent.id, `/tool ${HOSTILE_TOOL} {"topic":"otters"}`);
    await waitFor('the call', async () => (server.received('tools/call') === 1 ? true : undefined));
    await stop(chatId);
    expect((await answer).run.status).toBe('cancelled');
    expect(await t.isAnswering(chatId)).toBe(false);
  });

  it('ends a stalled answer whose client disconnected, after a garbage collection too', async () => {
    const agent = await json(await t.request(`${ws}/agents`, { json: { name: uid('Writer') } }));
    const chatId = uid('chat');
    const disconnect = new AbortController();
    await postStream(
      `${t.baseUrl}${ws}/chat`,
      { id: chatId, agentId: agent.id, message: userMessage(uid('u'), 'Tell me a long story [demo:stall]') },
      { stopAfterChunks: 4, signal: disconnect.signal },
    );
    disconnect.abort();
    for (let i = 0; i < 3; i++) {
      collectGarbage();
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    expect(await findActiveRun(t.handle.db, chatId)).toBeDefined();
    await stop(chatId);
    expect(await t.isAnswering(chatId)).toBe(false);
    const answer = (await json(await t.request(`${ws}/chats/${chatId}`))).messages.at(-1);
    expect(answer.metadata.stopped).toBe(true);
  });
});
