// Retrying a call that never had a sub-chat (here a rejected one) with `summary` context writes
// the summary with one model call. That call can take as long as the provider likes, so it is
// made before the chat is locked: other requests on the chat go on meanwhile.
import { serve } from '@hono/node-server';
import { SUMMARY_SYSTEM_PROMPT } from '@baton/delegation';
import { eq, sql } from 'drizzle-orm';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chat } from '../src/db/schema';
import { json, useTestApp } from './support/test-app';
import { waitFor } from './support/wait';

const t = useTestApp({ demoDelayMs: 1, allowPrivateUrls: true });
const ws = '/api/workspaces/default';

// In front of the demo model: summary requests wait until the test lets them through.
const heldSummaries: (() => void)[] = [];
let gateUrl: string;
let closeGate: () => void;
beforeAll(async () => {
  const app = new Hono().all('*', async (c) => {
    const body = await c.req.raw.clone().json();
    if (body.messages?.some((m: { role: string; content: unknown }) => m.role === 'system' && m.content === SUMMARY_SYSTEM_PROMPT)) {
      await new Promise<void>((release) => heldSummaries.push(release));
    }
    const url = new URL(c.req.url);
    return fetch(`${t.demo.baseURL.replace(/\/v1$/, '')}${url.pathname}`, { method: 'POST', headers: c.req.raw.headers, body: JSON.stringify(body) });
  });
  await new Promise<void>((resolve) => {
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
      gateUrl = `http://127.0.0.1:${info.port}/v1`;
      resolve();
    });
    closeGate = () => server.close();
  });
});
afterAll(() => {
  for (const release of heldSummaries) release();
  closeGate?.();
});

async function createAgent(body: Record<string, unknown>) {
  const res = await t.request(`${ws}/agents`, { json: { description: 'An agent', ...body } });
  expect(res.status).toBe(201);
  return json(res);
}

describe('retry with summary context', () => {
  it('writes the summary outside the chat lock: a rename of the chat completes while the summary is in flight', async () => {
    const provider = await json(await t.request(`${ws}/providers`, { json: { name: 'Gated demo', baseUrl: gateUrl, apiKey: 'k', modelIds: ['baton-demo'] } }));
    const researcher = await createAgent({ name: 'Researcher' });
    const lead = await createAgent({
      name: 'Summarizing lead',
      providerId: provider.id,
      modelId: 'baton-demo',
      subAgentIds: [researcher.id],
      delegation: { requireApproval: true, contextMode: 'summary' },
    });
    const c = await json(await t.request(`${ws}/chats`, { json: { agentId: lead.id } }));
    const paused = await json(await t.request(`${ws}/chats/${c.id}/messages`, { json: { text: 'Otters.\n/delegate Researcher: facts about otters' } }));
    const call = paused.messages.at(-1).parts.find((p: { type: string }) => p.type === 'tool-newTask');
    // Rejected: the call never had a sub-chat, so a retry has to write its context now.
    expect((await t.request(`${ws}/chats/${c.id}/approvals/${call.toolCallId}`, { json: { approve: false } })).status).toBe(200);
    await waitFor('the answer after the rejection ends', async () =>
      (await json(await t.request(`${ws}/chats/${c.id}`))).activeRun === null ? true : undefined,
    );

    const retried = t.request(`${ws}/chats/${c.id}/delegations/${call.toolCallId}/retry`, { json: {} });
    await waitFor('the summary call reached the provider', async () => (heldSummaries.length === 1 ? true : undefined));

    // The chat's row is not locked while the model writes: another transaction takes the
    // lock at once (NOWAIT fails instead of waiting), and a request that writes the chat completes.
    await t.handle.db.transaction(async (tx) => {
      await tx.execute(sql`select id from chat where id = ${c.id} for no key update nowait`);
    });
    const renamed = await t.request(`${ws}/chats/${c.id}`, { method: 'PATCH', json: { title: 'Renamed meanwhile' } });
    expect(renamed.status).toBe(200);
    expect(heldSummaries).toHaveLength(1);

    heldSummaries[0]!();
    const res = await retried;
    expect(res.status).toBe(202);
    const attempt = await json(res);
    const [sub] = await t.handle.db.select().from(chat).where(eq(chat.id, attempt.subChatId));
    expect(sub).toMatchObject({ attempt: 1, contextMode: 'summary', delegateContext: expect.stringMatching(/^Summary of the conversation so far:/) });
    const [parent] = await t.handle.db.select().from(chat).where(eq(chat.id, c.id));
    expect(parent!.title).toBe('Renamed meanwhile');
    await waitFor('the answer continued after the retried delegation', async () => {
      const stored = await json(await t.request(`${ws}/chats/${c.id}`));
      const output = stored.messages.at(-1).parts.find((p: { toolCallId?: string }) => p.toolCallId === call.toolCallId)?.output;
      return stored.activeRun === null && output?.subChatId === attempt.subChatId ? output : undefined;
    });
  });
});
