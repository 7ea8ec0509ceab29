import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { agent } from '../src/db/schema';
import { type Account, bearer, createApiKey, invitedAccount } from './support/accounts';
import { json, useTestApp } from './support/test-app';

// Who may change an agent (issue 24 item 7): the author and admins; other members only when it
// is shared, and never delete it or change the sharing. Every refusal is a 403 with the reason
// and writes nothing.
const t = useTestApp();
const W = '/api/workspaces/default';

let admin: Account;
let ada: Account;
let bob: Account;
let ownerName: string;

const as = (who: Account) => ({ cookie: who.cookie });

async function call(who: Account, method: string, path: string, body?: unknown) {
  return t.request(`${W}${path}`, { method, headers: as(who), ...(body === undefined ? {} : { json: body }) });
}

async function createAgent(who: Account, body: Record<string, unknown>) {
  const res = await call(who, 'POST', '/agents', body);
  expect(res.status, await res.clone().text()).toBe(201);
  return json(res);
}

async function expectRefused(res: Promise<Response>, reason: RegExp, before: string) {
  const r = await res;
  const body = await json(r);
  expect(r.status, JSON.stringify(body)).toBe(403);
  expect(body.error.code).toBe('forbidden');
  expect(body.error.message).toMatch(reason);
  expect(await t.snapshot(), 'a refused change wrote something').toBe(before);
}

beforeAll(async () => {
  admin = await invitedAccount(t.anonymous, t.owner, 'admin@baton.test', { role: 'admin' });
  ada = await invitedAccount(t.anonymous, t.owner, 'ada@baton.test');
  bob = await invitedAccount(t.anonymous, t.owner, 'bob@baton.test');
  ownerName = (await json(await t.request('/api/me'))).user.name;
});

describe('who may edit an agent', () => {
  it('an agent records its author; every response says what the caller may do', async () => {
    const own = await createAgent(ada, { name: 'Ada’s helper' });
    expect(own).toMatchObject({ authorId: ada.userId, authorName: 'ada', editableBy: 'author', canEdit: true, canDelete: true, canShare: true });
    const seenByBob = await json(await call(bob, 'GET', `/agents/${own.id}`));
    expect(seenByBob).toMatchObject({ authorId: ada.userId, editableBy: 'author', canEdit: false, canDelete: false, canShare: false });
    const seenByAdmin = await json(await call(admin, 'GET', `/agents/${own.id}`));
    expect(seenByAdmin).toMatchObject({ canEdit: true, canShare: true });
    const list = await json(await call(bob, 'GET', '/agents?limit=100'));
    expect(list.data.find((a: { id: string }) => a.id === own.id)).toMatchObject({ canEdit: false, authorName: 'ada' });
  });

  it('a member is refused on another’s agent with 403 and who may, on every path that changes it', async () => {
    const target = await createAgent(t.owner, { name: 'Owner’s assistant', description: 'Shared by all' });
    const sub = await createAgent(bob, { name: 'Bob’s sub-agent' });
    const before = await t.snapshot();
    const onlyOwner = new RegExp(`^Only ${ownerName} \\(the author\\) or an admin can edit this agent`);
    for (const patch of [
      { description: 'mine now' },
      { subAgentIds: [sub.id] },
      { a2aPublished: true },
      { toolIds: [] },
      { delegation: { requireApproval: true } },
      { name: 'Renamed' },
    ]) {
      await expectRefused(call(bob, 'PATCH', `/agents/${target.id}`, patch), onlyOwner, before);
    }
    await expectRefused(call(bob, 'PATCH', `/agents/${target.id}`, { editableBy: 'workspace' }), onlyOwner, before);
    await expectRefused(
      call(bob, 'DELETE', `/agents/${target.id}`),
      new RegExp(`^Only ${ownerName} \\(the author\\) or an admin can delete this agent`),
      before,
    );
    await expectRefused(call(bob, 'DELETE', `/agents/${target.id}?force=true`), /can delete this agent/, before);
    // With an API key of theirs, the same.
    const key = (await createApiKey(t.anonymous, bob)).key;
    const keyed = await t.request(`${W}/agents/${target.id}`, { method: 'PATCH', headers: { ...bearer(key), cookie: '' }, json: { description: 'x' } });
    expect(keyed.status).toBe(403);
    // Validation does not run first: a bad patch is still "not yours", not a 400 about the agent's lists.
    const bad = await call(bob, 'PATCH', `/agents/${target.id}`, { subAgentIds: ['agent_nope'] });
    expect(bad.status).toBe(403);
    // Using it is still everyone's: Bob chats with the owner's agent.
    const chat = await json(await call(bob, 'POST', '/chats', { agentId: target.id }));
    const turn = await call(bob, 'POST', `/chats/${chat.id}/messages`, { text: 'hello' });
    expect(turn.status, await turn.clone().text()).toBe(200);
  });

  it('a member edits and deletes their own agent', async () => {
    const own = await createAgent(bob, { name: 'Bob’s own' });
    const patched = await call(bob, 'PATCH', `/agents/${own.id}`, { description: 'better', editableBy: 'workspace' });
    expect(patched.status).toBe(200);
    expect(await json(patched)).toMatchObject({ description: 'better', editableBy: 'workspace', canEdit: true });
    expect((await call(bob, 'DELETE', `/agents/${own.id}`)).status).toBe(204);
  });

  it('shared editing: any member may edit, but only the author or an admin may delete or stop sharing', async () => {
    const shared = await createAgent(ada, { name: 'Team critic', editableBy: 'workspace' });
    expect(shared.editableBy).toBe('workspace');
    expect(await json(await call(bob, 'GET', `/agents/${shared.id}`))).toMatchObject({ canEdit: true, canDelete: false, canShare: false });
    const edited = await call(bob, 'PATCH', `/agents/${shared.id}`, { systemPrompt: 'Be sharp.', editableBy: 'workspace' });
    expect(edited.status, await edited.clone().text()).toBe(200);
    expect((await json(edited)).systemPrompt).toBe('Be sharp.');
    const before = await t.snapshot();
    await expectRefused(
      call(bob, 'PATCH', `/agents/${shared.id}`, { editableBy: 'author' }),
      /^Only ada \(the author\) or an admin can change who may edit this agent$/,
      before,
    );
    await expectRefused(call(bob, 'DELETE', `/agents/${shared.id}`), /^Only ada \(the author\) or an admin can delete this agent$/, before);
    // The author withdraws it: Bob is refused again.
    expect((await call(ada, 'PATCH', `/agents/${shared.id}`, { editableBy: 'author' })).status).toBe(200);
    expect((await call(bob, 'PATCH', `/agents/${shared.id}`, { description: 'again' })).status).toBe(403);
  });

  it('admins (not only the owner) edit, share and delete every agent', async () => {
    const adas = await createAgent(ada, { name: 'Ada’s private one' });
    const res = await call(admin, 'PATCH', `/agents/${adas.id}`, { description: 'tidied by an admin', editableBy: 'workspace' });
    expect(res.status, await res.clone().text()).toBe(200);
    // The author stays the author.
    expect(await json(res)).toMatchObject({ authorId: ada.userId, editableBy: 'workspace' });
    expect((await call(admin, 'DELETE', `/agents/${adas.id}`)).status).toBe(204);
  });

  it('an agent whose author is gone is the admins’ alone, unless shared', async () => {
    const orphan = await createAgent(ada, { name: 'Orphan' });
    await t.handle.db.update(agent).set({ authorId: null }).where(eq(agent.id, orphan.id));
    const before = await t.snapshot();
    await expectRefused(
      call(ada, 'PATCH', `/agents/${orphan.id}`, { description: 'x' }),
      /^Only an admin \(the agent has no author any more\) can edit/,
      before,
    );
    expect((await call(admin, 'PATCH', `/agents/${orphan.id}`, { editableBy: 'workspace' })).status).toBe(200);
    expect((await call(ada, 'PATCH', `/agents/${orphan.id}`, { description: 'x' })).status).toBe(200);
  });

  it('another workspace’s agent is 404, not 403', async () => {
    const other = await json(await t.request('/api/workspaces', { json: { name: 'Elsewhere' } }));
    const there = await json(await t.request(`/api/workspaces/${other.id}/agents`, { json: { name: 'Far away' } }));
    expect((await call(bob, 'PATCH', `/agents/${there.id}`, { description: 'x' })).status).toBe(404);
    expect((await call(bob, 'DELETE', `/agents/${there.id}`)).status).toBe(404);
    // The starter agents of a new workspace are its creator's.
    const starters = await json(await t.request(`/api/workspaces/${other.id}/agents?limit=100`));
    expect(starters.data.filter((a: { name: string }) => a.name === 'Assistant').map((a: { authorId: string }) => a.authorId)).toEqual([t.owner.userId]);
  });

  it('a share withdrawn while a member saves: the save lands before, or is refused; never half', async () => {
    const shared = await createAgent(ada, { name: 'Raced', editableBy: 'workspace' });
    const [save, withdraw] = await Promise.all([
      call(bob, 'PATCH', `/agents/${shared.id}`, { description: 'raced save' }),
      call(ada, 'PATCH', `/agents/${shared.id}`, { editableBy: 'author' }),
    ]);
    expect(withdraw.status).toBe(200);
    expect([200, 403]).toContain(save.status);
    const after = await json(await call(ada, 'GET', `/agents/${shared.id}`));
    expect(after.editableBy).toBe('author');
    expect(after.description).toBe(save.status === 200 ? 'raced save' : '');
  });
});

describe('deleting an agent other people’s chats use', () => {
  it('asks first (409 with the count), then deletes on ?force=true and leaves those chats readable', async () => {
    const used = await createAgent(t.owner, { name: 'Widely used' });
    const chat = await json(await call(bob, 'POST', '/chats', { agentId: used.id }));
    expect((await call(bob, 'POST', `/chats/${chat.id}/messages`, { text: 'remember this' })).status).toBe(200);
    // The owner's own chat does not count: only other people's.
    await json(await call(t.owner, 'POST', '/chats', { agentId: used.id }));
    const before = await t.snapshot();
    const asked = await call(t.owner, 'DELETE', `/agents/${used.id}`);
    expect(asked.status).toBe(409);
    const body = await json(asked);
    expect(body.error).toMatchObject({ code: 'agent_in_use', details: { otherChats: 1 } });
    expect(body.error.message).toMatch(/^1 chat of another person uses this agent/);
    expect(await t.snapshot(), 'the 409 wrote something').toBe(before);
    expect((await call(t.owner, 'DELETE', `/agents/${used.id}?force=sure`)).status).toBe(400);

    expect((await call(t.owner, 'DELETE', `/agents/${used.id}?force=true`)).status).toBe(204);
    expect((await call(t.owner, 'GET', `/agents/${used.id}`)).status).toBe(404);
    const read = await call(bob, 'GET', `/chats/${chat.id}`);
    expect(read.status).toBe(200);
    const readable = await json(read);
    expect(readable.agentId).toBeNull();
    expect(readable.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant']);
  });

  it('an agent only the caller’s own chats use is deleted at once', async () => {
    const mine = await createAgent(bob, { name: 'Only mine' });
    await json(await call(bob, 'POST', '/chats', { agentId: mine.id }));
    expect((await call(bob, 'DELETE', `/agents/${mine.id}`)).status).toBe(204);
  });
});
