import type { ChatTrace, TraceNode } from '@baton/schemas';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { chat, run, workspace } from '../src/db/schema';
import { newId } from '../src/ids';
import type { ChatRow } from '../src/services/chat-rows';
import { invitedAccount } from './support/accounts';
import { addSubChat, at } from './support/delegation-tree';
import { useLeadTeam } from './support/fixtures';
import { json, useTestApp } from './support/test-app';

const t = useTestApp({ demoDelayMs: 1 });
const ws = '/api/workspaces/default';
const agents = useLeadTeam(t);

async function trace(chatId: string): Promise<TraceNode> {
  const res = await t.request(`${ws}/chats/${chatId}/trace`);
  expect(res.status).toBe(200);
  return ((await json(res)) as ChatTrace).root;
}

const descendants = (node: TraceNode): TraceNode[] => node.children.flatMap((child) => [child, ...descendants(child)]);
const sumUsage = (nodes: TraceNode[]) =>
  nodes.reduce((sum, n) => ({ inputTokens: sum.inputTokens + n.usage.inputTokens, outputTokens: sum.outputTokens + n.usage.outputTokens }), {
    inputTokens: 0,
    outputTokens: 0,
  });

async function stepsOf(chatId: string): Promise<number> {
  const rows = await t.handle.db.select({ steps: run.steps }).from(run).where(eq(run.chatId, chatId));
  return rows.reduce((sum, r) => sum + r.steps, 0);
}

/** A top-level chat of the Lead that answered one message through the REST flow. */
async function answeredChat(text: string) {
  const c = await json(await t.request(`${ws}/chats`, { json: { agentId: agents.Lead!.id } }));
  const res = await t.request(`${ws}/chats/${c.id}/messages`, { json: { text } });
  expect(res.status).toBe(200);
  return { chat: c, turn: await json(res) };
}

async function chatRow(id: string): Promise<ChatRow> {
  const [row] = await t.handle.db.select().from(chat).where(eq(chat.id, id));
  return row!;
}

describe('GET /chats/:id/trace', () => {
  it('traces a REST delegation to two sub-agents: who did what, how it ended, how long, how many steps and tokens', async () => {
    const { chat: c, turn } = await answeredChat('/delegate Researcher: facts about otters\n/delegate Writer: a poem that will fail');
    const calls = turn.messages.at(-1).parts.filter((p: { type: string }) => p.type === 'tool-newTask');
    expect(calls).toHaveLength(2);
    const root = await trace(c.id);
    const stored = await json(await t.request(`${ws}/chats/${c.id}`));

    expect(root).toMatchObject({ chatId: c.id, agentId: agents.Lead!.id, agentName: 'Lead', task: null, depth: 0, status: 'succeeded', outcome: null });
    expect(root.usage).toEqual({ inputTokens: stored.inputTokens, outputTokens: stored.outputTokens });
    expect(root.usage.inputTokens).toBeGreaterThan(0);
    expect(root.steps).toBe(await stepsOf(c.id));
    expect(root.durationMs).toBe(Date.parse(root.endedAt!) - Date.parse(root.startedAt));

    // Children in the order their sub-chats were started, as the sub-chat list has them.
    const subChats = (await json(await t.request(`${ws}/chats/${c.id}/sub-chats`))).data;
    expect(root.children.map((n) => n.chatId)).toEqual(subChats.map((s: { id: string }) => s.id));
    for (const node of root.children) {
      const call = calls.find((p: { output: { subChatId: string } }) => p.output.subChatId === node.chatId);
      const sub = subChats.find((s: { id: string }) => s.id === node.chatId);
      const name = call.input.subAgentId === agents.Researcher!.id ? 'Researcher' : 'Writer';
      expect(node).toMatchObject({ agentId: call.input.subAgentId, agentName: name, task: call.input.task, depth: 1, status: 'succeeded', children: [] });
      // How the delegation ended is the sub-chat's own record of it.
      expect(node.outcome).toBe(sub.outcome);
      expect(node.outcome).toBe(name === 'Writer' ? 'error' : 'success');
      expect(sub.status).toBe(name === 'Writer' ? 'error' : 'success');
      expect(node.usage).toEqual({ inputTokens: sub.inputTokens, outputTokens: sub.outputTokens });
      expect(node.usage.outputTokens).toBeGreaterThan(0);
      expect(node.steps).toBe(await stepsOf(node.chatId));
      // A sub-agent works inside its parent's answer.
      expect(Date.parse(node.startedAt)).toBeGreaterThanOrEqual(Date.parse(root.startedAt));
      expect(Date.parse(node.endedAt!)).toBeLessThanOrEqual(Date.parse(root.endedAt!));
      expect(node.durationMs).toBe(Date.parse(node.endedAt!) - Date.parse(node.startedAt));
    }
    // The roll-up on the chat agrees with the trace.
    expect(stored.usage).toEqual({
      own: root.usage,
      delegated: sumUsage(descendants(root)),
      total: sumUsage([root, ...descendants(root)]),
    });
  });

  describe('a tree three levels deep', () => {
    // The levels below are written with the services, so that times, steps and tokens are
    // known exactly (nested delegation through the runtime is in delegation-rules-*.test.ts).
    const ids: Record<string, string> = {};
    beforeAll(async () => {
      const { chat: c } = await answeredChat('Hello there');
      const top = await chatRow(c.id);
      ids.top = top.id;
      const a = await addSubChat(t.handle.db, top, {
        agentId: agents.Researcher!.id,
        task: 'Research otters',
        outcome: 'success',
        runs: [
          { status: 'failed', startedAt: at(1_000), endedAt: at(3_000), steps: 4, inputTokens: 10, outputTokens: 5 },
          { status: 'succeeded', startedAt: at(5_000), endedAt: at(9_000), steps: 3, inputTokens: 20, outputTokens: 8 },
        ],
      });
      ids.a = a.id;
      const a1 = await addSubChat(t.handle.db, a, {
        agentId: agents.Writer!.id,
        task: 'Write up the findings',
        outcome: 'budget_exhausted',
        runs: [{ status: 'succeeded', startedAt: at(2_000), endedAt: at(2_500), steps: 2, inputTokens: 7, outputTokens: 3 }],
      });
      ids.a1 = a1.id;
      ids.a1a = (
        await addSubChat(t.handle.db, a1, {
          agentId: agents.Researcher!.id,
          task: 'Check one source',
          runs: [{ status: 'running', startedAt: at(2_100), steps: 1, inputTokens: 0, outputTokens: 0 }],
        })
      ).id;
      // Written after a1 but started before it: children follow their creation time.
      ids.a2 = (
        await addSubChat(t.handle.db, a, {
          agentId: agents.Researcher!.id,
          task: 'Count otters',
          outcome: 'step_limit',
          runs: [{ status: 'failed', startedAt: at(1_500), endedAt: at(1_700), steps: 100, inputTokens: 50, outputTokens: 50 }],
        })
      ).id;
      ids.b = (await addSubChat(t.handle.db, top, { agentId: agents.Writer!.id, task: 'Never started', createdAt: at(20_000), runs: [] })).id;
      // Rows linked into the tree that are not this user's: another workspace's, nobody's.
      await t.handle.db.insert(workspace).values({ id: 'ws_elsewhere', name: 'Elsewhere' });
      await t.handle.db.insert(chat).values([
        { id: newId('chat'), workspaceId: 'ws_elsewhere', userId: top.userId, parentChatId: ids.a, depth: 2, inputTokens: 1000, outputTokens: 1000 },
        { id: newId('chat'), workspaceId: 'default', userId: null, parentChatId: ids.a1, depth: 3, inputTokens: 1000, outputTokens: 1000 },
      ]);
    });

    it('has every level, children by creation, each node from its runs', async () => {
      const root = await trace(ids.top!);
      expect(root).toMatchObject({ chatId: ids.top, agentName: 'Lead', depth: 0, status: 'succeeded', outcome: null, task: null });
      expect(root.steps).toBe(await stepsOf(ids.top!));
      expect(root.children.map((n) => n.chatId)).toEqual([ids.a, ids.b]);

      const [a, b] = root.children as [TraceNode, TraceNode];
      // Two runs: the first start, the last end, all steps, the latest status.
      expect(a).toEqual({
        chatId: ids.a,
        agentId: agents.Researcher!.id,
        agentName: 'Researcher',
        task: 'Research otters',
        depth: 1,
        status: 'succeeded',
        outcome: 'success',
        startedAt: at(1_000).toISOString(),
        endedAt: at(9_000).toISOString(),
        durationMs: 8_000,
        steps: 7,
        usage: { inputTokens: 30, outputTokens: 13 },
        replacedUsage: { inputTokens: 0, outputTokens: 0 },
        children: expect.any(Array),
      });
      expect(a.children.map((n) => n.chatId)).toEqual([ids.a2, ids.a1]);
      const [a2, a1] = a.children as [TraceNode, TraceNode];
      expect(a2).toMatchObject({
        depth: 2,
        status: 'failed',
        outcome: 'step_limit',
        steps: 100,
        durationMs: 200,
        usage: { inputTokens: 50, outputTokens: 50 },
        children: [],
      });
      expect(a1).toMatchObject({ depth: 2, agentName: 'Writer', status: 'succeeded', outcome: 'budget_exhausted', steps: 2, durationMs: 500 });
      // Still at work: no end, no duration yet.
      expect(a1.children).toEqual([
        {
          chatId: ids.a1a,
          agentId: agents.Researcher!.id,
          agentName: 'Researcher',
          task: 'Check one source',
          depth: 3,
          status: 'running',
          outcome: null,
          startedAt: at(2_100).toISOString(),
          endedAt: null,
          durationMs: null,
          steps: 1,
          usage: { inputTokens: 0, outputTokens: 0 },
          replacedUsage: { inputTokens: 0, outputTokens: 0 },
          children: [],
        },
      ]);
      // Never ran: it starts when it was created.
      expect(b).toMatchObject({ chatId: ids.b, status: null, outcome: null, startedAt: at(20_000).toISOString(), endedAt: null, durationMs: null, steps: 0 });
    });

    it('starts at a sub-chat: its subtree, at its depth in the whole tree', async () => {
      const a = await trace(ids.a!);
      expect(a).toMatchObject({ chatId: ids.a, depth: 1, task: 'Research otters' });
      expect(descendants(a).map((n) => [n.chatId, n.depth])).toEqual([
        [ids.a2, 2],
        [ids.a1, 2],
        [ids.a1a, 3],
      ]);
    });

    it('usage on GET chat: own, the sum of the trace below it, and both', async () => {
      for (const id of [ids.top!, ids.a!, ids.a1!]) {
        const root = await trace(id);
        const { usage } = await json(await t.request(`${ws}/chats/${id}`));
        expect(usage).toEqual({ own: root.usage, delegated: sumUsage(descendants(root)), total: sumUsage([root, ...descendants(root)]) });
      }
      const { usage } = await json(await t.request(`${ws}/chats/${ids.a}`));
      expect(usage).toEqual({
        own: { inputTokens: 30, outputTokens: 13 },
        delegated: { inputTokens: 57, outputTokens: 53 },
        total: { inputTokens: 87, outputTokens: 66 },
      });
    });

    it('another member cannot trace it; unknown chats are 404', async () => {
      const member = await invitedAccount(t.anonymous, t.owner, 'trace-member@baton.test');
      for (const id of [ids.top, ids.a1a]) {
        const res = await t.request(`${ws}/chats/${id}/trace`, { headers: { cookie: member.cookie } });
        expect(res.status).toBe(404);
        expect((await json(res)).error.code).toBe('not_found');
      }
      const res = await t.request(`${ws}/chats/chat_nope/trace`);
      expect(res.status).toBe(404);
      expect((await json(res)).error.code).toBe('not_found');
    });
  });

  it('is in the OpenAPI document, with the recursive TraceNode schema', async () => {
    const doc = await json(await t.request('/api/openapi.json'));
    const op = doc.paths['/api/workspaces/{workspaceId}/chats/{id}/trace']?.get;
    expect(op).toBeDefined();
    expect(JSON.stringify(op.responses[200])).toContain('#/components/schemas/ChatTrace');
    const { ChatTrace, TraceNode } = doc.components.schemas;
    expect(ChatTrace.properties.root.$ref).toBe('#/components/schemas/TraceNode');
    expect(TraceNode.properties.children).toEqual({ type: 'array', items: { $ref: '#/components/schemas/TraceNode' } });
    expect(TraceNode.required).toEqual(expect.arrayContaining(['chatId', 'depth', 'status', 'outcome', 'durationMs', 'steps', 'usage', 'children']));
    expect(JSON.stringify(doc.components.schemas.ChatWithMessages.properties.usage)).toContain('UsageSplit');
  });
});
