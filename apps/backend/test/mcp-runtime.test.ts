import { startTestMcpServer, type TestMcpServer } from '@baton/mcp-test-server';
import { mcpToolId } from '@baton/schemas';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { chat, mcpServer, message } from '../src/db/schema';
import { findActiveRun } from '../src/services/runs';
import { NodeChat, toolParts } from './support/chat-client';
import { toolNames } from './support/demo-model';
import { json, useTestApp } from './support/test-app';
import { waitFor } from './support/wait';
import { type StoredPart, partsText } from './support/messages';

const t = useTestApp({ allowPrivateUrls: true });
const ws = '/api/workspaces/default';
const TOKEN = 'runtime-token-do-not-leak-7';
const ASK_OTTERS = '/tool lookup_fact {"topic":"otters"}';
const OTTER_FACT = 'Fact about otters: Sea otters hold hands while they sleep so they do not drift apart.';

const servers: TestMcpServer[] = [];
async function mcpServerFor(name: string, options: { token?: string } = { token: TOKEN }) {
  const server = await startTestMcpServer(options);
  servers.push(server);
  const row = await json(
    await t.request(`${ws}/mcp-servers`, { json: { name, url: server.url, headers: options.token ? { Authorization: `Bearer ${options.token}` } : {} } }),
  );
  expect(row.toolsError).toBeNull();
  return { server, id: row.id as string };
}
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

async function agentWith(name: string, toolIds: string[], extra: Record<string, unknown> = {}) {
  const res = await t.request(`${ws}/agents`, { json: { name, toolIds, ...extra } });
  expect(res.status).toBe(201);
  return (await json(res)) as { id: string };
}

async function send(agentId: string, text: string) {
  const c = await json(await t.request(`${ws}/chats`, { json: { agentId } }));
  const res = await t.request(`${ws}/chats/${c.id}/messages`, { json: { text } });
  expect(res.status).toBe(200);
  const body = await json(res);
  return { chatId: c.id as string, body, assistant: body.messages.at(-1) as { parts: StoredPart[] } };
}

describe('MCP tools in a turn', () => {
  let facts: { server: TestMcpServer; id: string };
  beforeAll(async () => {
    facts = await mcpServerFor('Facts');
  });

  it('the demo model calls the MCP tool; the stored message has its input and output; the session is closed', async () => {
    const agent = await agentWith('Fact checker', [mcpToolId(facts.id, 'lookup_fact')]);
    const before = facts.server.calls().length;
    const { body, assistant, chatId } = await send(agent.id, ASK_OTTERS);
    expect(body.run.status).toBe('succeeded');
    const call = assistant.parts.find((p) => p.type === 'tool-lookup_fact');
    expect(call).toMatchObject({ state: 'output-available', input: { topic: 'otters' }, output: OTTER_FACT });
    expect(partsText(assistant.parts)).toContain(`**lookup_fact**: ${OTTER_FACT}`);
    expect(facts.server.calls().slice(before)).toEqual([{ name: 'lookup_fact', args: { topic: 'otters' } }]);
    expect(facts.server.openSessions()).toBe(0);
    // What was stored (what a reload shows) is the same.
    const [stored] = await t.handle.db
      .select()
      .from(message)
      .where(eq(message.id, body.messages.at(-1).id));
    expect(stored!.chatId).toBe(chatId);
    expect((stored!.parts as StoredPart[]).find((p) => p.type === 'tool-lookup_fact')).toMatchObject({ input: { topic: 'otters' }, output: OTTER_FACT });
    // The conversation goes on after the tool call (its part is in the history the model reads).
    const next = await json(await t.request(`${ws}/chats/${chatId}/messages`, { json: { text: 'Thanks!' } }));
    expect(next.run.status).toBe('succeeded');
    expect(facts.server.openSessions()).toBe(0);
  });

  it('works over the older HTTP+SSE transport too, and closes its stream', async () => {
    const server = await json(
      await t.request(`${ws}/mcp-servers`, {
        json: { name: 'Facts over SSE', url: facts.server.sseUrl, transport: 'sse', headers: { Authorization: `Bearer ${TOKEN}` } },
      }),
    );
    const agent = await agentWith('SSE fact checker', [mcpToolId(server.id, 'lookup_fact')]);
    const { assistant } = await send(agent.id, ASK_OTTERS);
    expect(assistant.parts.find((p) => p.type === 'tool-lookup_fact')).toMatchObject({ state: 'output-available', output: OTTER_FACT });
    await vi.waitFor(() => expect(facts.server.openSessions()).toBe(0));
  });

  it('offers only the selected tools of the server', async () => {
    const agent = await agentWith('Adder only', [mcpToolId(facts.id, 'add')]);
    const { assistant } = await send(agent.id, ASK_OTTERS);
    expect(partsText(assistant.parts)).toBe('No tool named **lookup_fact** is available to this agent.');
    expect(facts.server.openSessions()).toBe(0);
  });

  it('a sub-agent uses the MCP tool in a server-side (REST) delegation, and its result quotes the output', async () => {
    const toolIds = [mcpToolId(facts.id, 'lookup_fact')];
    const researcher = await agentWith('MCP Researcher', toolIds);
    // The default policy intersects: the lead must be allowed the tool too.
    const lead = await agentWith('MCP Lead', toolIds, { subAgentIds: [researcher.id] });
    const { chatId, assistant } = await send(lead.id, `/delegate MCP Researcher: ${ASK_OTTERS}`);
    const delegation = assistant.parts.find((p) => p.type === 'tool-newTask')!;
    expect(delegation.output).toMatchObject({ status: 'success', result: expect.stringContaining(OTTER_FACT) });
    const [sub] = await t.handle.db.select().from(chat).where(eq(chat.parentChatId, chatId));
    expect(sub!.effectiveToolIds).toEqual(toolIds);
    const subMessages = await t.handle.db.select().from(message).where(eq(message.chatId, sub!.id));
    const parts = subMessages.flatMap((m) => m.parts as StoredPart[]);
    expect(parts.find((p) => p.type === 'tool-lookup_fact')).toMatchObject({ state: 'output-available', input: { topic: 'otters' }, output: OTTER_FACT });
    expect(facts.server.openSessions()).toBe(0);
  });

  it('a sub-chat the browser starts (client-side delegation) gets the MCP tool and shows the call', async () => {
    const toolIds = [mcpToolId(facts.id, 'lookup_fact')];
    const researcher = await agentWith('Browser Researcher', toolIds);
    const lead = await agentWith('Browser Lead', toolIds, { subAgentIds: [researcher.id] });
    const parent = new NodeChat({ id: `chat_mcp_browser_${Date.now().toString(36)}`, baseUrl: t.baseUrl, body: { agentId: lead.id } });
    await parent.sendMessage({ text: `/delegate Browser Researcher: ${ASK_OTTERS}` });
    await parent.settled();
    const [call] = toolParts(parent.lastMessage, 'newTask');
    expect(call).toMatchObject({ state: 'input-available', input: { subAgentId: researcher.id, task: ASK_OTTERS } });
    const sub = new NodeChat({
      id: `sub_mcp_browser_${Date.now().toString(36)}`,
      baseUrl: t.baseUrl,
      body: { agentId: researcher.id, parentChatId: parent.id, parentToolCallId: call!.toolCallId },
    });
    await sub.sendMessage({ text: ASK_OTTERS });
    await sub.settled();
    expect(toolNames(t.demo.requests.at(-1)!).sort()).toEqual(['lookup_fact', 'note', 'taskResult']);
    expect(toolParts(sub.lastMessage, 'lookup_fact')).toMatchObject([{ state: 'output-available', input: { topic: 'otters' }, output: OTTER_FACT }]);
    expect(toolParts(sub.lastMessage, 'taskResult')[0]!.input.result).toContain(OTTER_FACT);
    expect(facts.server.openSessions()).toBe(0);
  });

  it('does not offer a sub-agent an MCP tool outside the root’s tools (intersect policy)', async () => {
    const researcher = await agentWith('Fenced Researcher', [mcpToolId(facts.id, 'lookup_fact')]);
    const lead = await agentWith('Fenced Lead', ['calculator'], { subAgentIds: [researcher.id] });
    const before = facts.server.calls().length;
    const { chatId, assistant } = await send(lead.id, `/delegate Fenced Researcher: ${ASK_OTTERS}`);
    const delegation = assistant.parts.find((p) => p.type === 'tool-newTask')!;
    expect(delegation.output.result).not.toContain(OTTER_FACT);
    const [sub] = await t.handle.db.select().from(chat).where(eq(chat.parentChatId, chatId));
    expect(sub!.effectiveToolIds).toEqual([]);
    expect(facts.server.calls().length).toBe(before);
  });

  it('closes the session when the model call fails', async () => {
    const agent = await agentWith('Failing fact checker', [mcpToolId(facts.id, 'lookup_fact')]);
    const { body } = await send(agent.id, `${ASK_OTTERS}\n[demo:error]`);
    expect(body.run.status).toBe('failed');
    expect(facts.server.openSessions()).toBe(0);
  });

  it('closes the session when the turn is stopped, and when it is interrupted (shutdown)', async () => {
    const agent = await agentWith('Stalling fact checker', [mcpToolId(facts.id, 'lookup_fact')]);
    for (const how of ['stop', 'shutdown'] as const) {
      const c = await json(await t.request(`${ws}/chats`, { json: { agentId: agent.id } }));
      // The model stalls mid-answer: the turn stays open with its MCP session.
      const answer = t.request(`${ws}/chats/${c.id}/messages`, { json: { text: `${ASK_OTTERS}\n[demo:stall]` } });
      await waitFor('the MCP session to open', async () => (facts.server.openSessions() === 1 ? true : undefined));
      const run = await waitFor('the run', () => findActiveRun(t.handle.db, c.id));
      if (how === 'stop') expect(await json(await t.request(`${ws}/chats/${c.id}/stop`, { method: 'POST' }))).toEqual({ stopped: true });
      else expect(t.runs.abort(run.id, { kind: 'shutdown' })).toBe(true);
      const body = await json(await answer);
      expect(body.run.status).toBe(how === 'stop' ? 'cancelled' : 'interrupted');
      expect(facts.server.openSessions()).toBe(0);
    }
  });

  it('a server that dies between listing and the call gives the model an error result, and the turn finishes', async () => {
    const dying = await mcpServerFor('Dying');
    const agent = await agentWith('Unlucky fact checker', [mcpToolId(dying.id, 'lookup_fact')]);
    dying.server.dieAfterNextListing();
    const { body, assistant } = await send(agent.id, ASK_OTTERS);
    expect(body.run.status).toBe('succeeded');
    const call = assistant.parts.find((p) => p.type === 'tool-lookup_fact');
    expect(call).toMatchObject({
      state: 'output-error',
      input: { topic: 'otters' },
      errorText: expect.stringContaining('The MCP server "Dying" failed during the call'),
    });
    // The model got the error and answered after it.
    expect(partsText(assistant.parts)).toContain('**lookup_fact**');
    expect(JSON.stringify(body)).not.toContain(TOKEN);
  });

  it('a server unreachable at turn start: its stored tools are offered and a call is an error result the model reads', async () => {
    const gone = await mcpServerFor('Gone');
    const agent = await agentWith('Stranded fact checker', [mcpToolId(gone.id, 'lookup_fact'), 'calculator']);
    await gone.server.close();
    const { body, assistant } = await send(agent.id, ASK_OTTERS);
    expect(body.run.status).toBe('succeeded');
    expect(assistant.parts.find((p) => p.type === 'tool-lookup_fact')).toMatchObject({
      state: 'output-error',
      errorText: expect.stringContaining('The MCP server "Gone" could not be reached'),
    });
  });

  it('a server never listed successfully is waited for; unreachable, it is left out and the turn still runs', async () => {
    const row = await json(await t.request(`${ws}/mcp-servers`, { json: { name: 'Never listed', url: 'http://127.0.0.1:9/mcp' } }));
    expect(row.toolsError).not.toBeNull();
    const agent = await agentWith('Hopeful fact checker', [mcpToolId(row.id, 'lookup_fact')]);
    const { body, assistant } = await send(agent.id, ASK_OTTERS);
    expect(body.run.status).toBe('succeeded');
    expect(partsText(assistant.parts)).toBe('No tool named **lookup_fact** is available to this agent.');
  });

  it('arguments that do not match the tool’s schema are an error result the model reads; the server never sees the call', async () => {
    const agent = await agentWith('Careless adder', [mcpToolId(facts.id, 'add')]);
    const before = facts.server.calls().length;
    const { body, assistant } = await send(agent.id, '/tool add {"a":"two","b":3}');
    expect(body.run.status).toBe('succeeded');
    expect(assistant.parts.find((p) => p.type === 'tool-add')).toMatchObject({
      state: 'output-error',
      errorText: expect.stringContaining('do not match the input schema of "add": arguments/a must be number'),
    });
    expect(facts.server.calls().slice(before)).toEqual([]);
    // Valid arguments still reach it.
    const ok = await send(agent.id, '/tool add {"a":2,"b":3}');
    expect(ok.assistant.parts.find((p) => p.type === 'tool-add')).toMatchObject({ state: 'output-available' });
    expect(facts.server.calls().slice(before)).toEqual([{ name: 'add', args: { a: 2, b: 3 } }]);
  });

  it('a turn’s session replaces a stored listing that no longer matches what the server lists', async () => {
    const agent = await agentWith('Listing refresher', [mcpToolId(facts.id, 'lookup_fact')]);
    const [row] = await t.handle.db.select().from(mcpServer).where(eq(mcpServer.id, facts.id));
    const stale = row!.tools.map((tool) => ({ ...tool, description: 'An old description.' }));
    await t.handle.db.update(mcpServer).set({ tools: stale }).where(eq(mcpServer.id, facts.id));
    const { body } = await send(agent.id, ASK_OTTERS);
    expect(body.run.status).toBe('succeeded');
    await waitFor('the stored listing to be the server’s again', async () => {
      const [now] = await t.handle.db.select().from(mcpServer).where(eq(mcpServer.id, facts.id));
      return now!.tools.every((tool) => tool.description !== 'An old description.') ? true : undefined;
    });
  });

  it('a deleted server’s tool ids stay on the agent and are skipped', async () => {
    const doomed = await mcpServerFor('Doomed');
    const agent = await agentWith('Orphaned fact checker', [mcpToolId(doomed.id, 'lookup_fact')]);
    expect((await t.request(`${ws}/mcp-servers/${doomed.id}`, { method: 'DELETE' })).status).toBe(204);
    const { body } = await send(agent.id, ASK_OTTERS);
    expect(body.run.status).toBe('succeeded');
    expect(doomed.server.calls()).toEqual([]);
  });
});
