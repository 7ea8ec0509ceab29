import { describe, expect, it, beforeAll } from 'vitest';
import { type Account, bearer, createApiKey, invite, signUp } from './support/accounts';
import { message } from '../src/db/schema';
import { attachFilesToChat } from '../src/services/files';
import { upsertMessage } from '../src/services/messages';
import { FILES, fileForm, upload } from './support/files';
import { json, useTestApp } from './support/test-app';

// Every route × every way of being refused: no credentials, a revoked key, another user's
// key, another workspace, a member on an admin route, another member's chat. Each refusal
// must be the documented status and leave every table exactly as it was.
const t = useTestApp();
const W = '/api/workspaces/default';
/** An answer in the owner's fixture chat, to rate. */
const ANSWER = 'msg_matrix_answer';

type Who = { headers: Record<string, string> };
interface Ids {
  agent: string;
  provider: string;
  mcpServer: string;
  chat: string;
  invitation: string;
  ownerKeyId: string;
  memberId: string;
  inviteToken: string;
  other: string;
  /** A file the owner uploaded, in their chat. */
  file: string;
  /** A share link of the owner's chat. */
  share: string;
}
type Access = 'any' | 'admin' | 'session';
interface Route {
  method: string;
  path: (ids: Ids) => string;
  body?: (ids: Ids) => unknown;
  /** Who may call it: any member, admins, or any member signed in (not with an API key). */
  access: Access;
  /** Under /api/workspaces/:ws/… (so "another workspace" applies). */
  workspace?: boolean;
  /** Addresses one chat, or a file in it (so "another member's chat" applies): this id, replaced by an unknown one, must be 404 too. */
  chat?: (ids: Ids) => string;
  /** A multipart body instead of JSON (made anew for every call). */
  form?: () => FormData;
}

const ws = (method: string, path: (ids: Ids) => string, access: Access = 'any', body?: (ids: Ids) => unknown): Route => ({
  method,
  path,
  access,
  body,
  workspace: true,
});
const onChat = (method: string, suffix: string, body?: () => unknown): Route => ({
  ...ws(method, (i) => `${W}/chats/${i.chat}${suffix}`, 'any', body),
  chat: (i) => i.chat,
});

const routes: Route[] = [
  { method: 'GET', path: () => '/api/me', access: 'any' },
  { method: 'GET', path: () => '/api/tools', access: 'any' },
  { method: 'GET', path: () => '/api/models', access: 'any' },
  { method: 'GET', path: () => '/api/workspaces', access: 'any' },
  { method: 'POST', path: () => '/api/workspaces', access: 'session', body: () => ({ name: 'Nope' }) },
  { method: 'POST', path: (i) => `/api/invitations/${i.inviteToken}/accept`, access: 'session' },
  // Load image: loopback is refused by the outbound guard here (no BATON_ALLOW_PRIVATE_URLS), so nothing is fetched.
  { method: 'GET', path: () => `/api/image?url=${encodeURIComponent('http://127.0.0.1:9/pic.png')}`, access: 'any' },
  ws('GET', () => `${W}/agents`),
  ws(
    'POST',
    () => `${W}/agents`,
    'any',
    () => ({ name: 'Matrix agent' }),
  ),
  ws('GET', (i) => `${W}/agents/${i.agent}`),
  // The owner's agent, not shared: a member may use it but not change it (its author and admins may).
  ws(
    'PATCH',
    (i) => `${W}/agents/${i.agent}`,
    'admin',
    () => ({ description: 'changed' }),
  ),
  ws('DELETE', (i) => `${W}/agents/${i.agent}`, 'admin'),
  ws('GET', () => `${W}/providers`),
  ws('GET', (i) => `${W}/providers/${i.provider}`),
  ws(
    'POST',
    () => `${W}/providers`,
    'admin',
    () => ({ name: 'P', baseUrl: 'https://llm.example/v1' }),
  ),
  ws(
    'PATCH',
    (i) => `${W}/providers/${i.provider}`,
    'admin',
    () => ({ name: 'Q' }),
  ),
  ws('DELETE', (i) => `${W}/providers/${i.provider}`, 'admin'),
  // Loopback is refused before connecting here (no BATON_ALLOW_PRIVATE_URLS): nothing leaves the machine.
  ws(
    'POST',
    () => `${W}/providers/test`,
    'admin',
    () => ({ baseUrl: 'http://127.0.0.1:9/v1' }),
  ),
  // MCP servers: loopback is refused by the outbound guard here, so a listing never connects.
  ws('GET', () => `${W}/mcp-servers`),
  ws('GET', (i) => `${W}/mcp-servers/${i.mcpServer}`),
  ws(
    'POST',
    () => `${W}/mcp-servers`,
    'admin',
    () => ({ name: 'M', url: 'http://127.0.0.1:9/mcp' }),
  ),
  ws(
    'PATCH',
    (i) => `${W}/mcp-servers/${i.mcpServer}`,
    'admin',
    () => ({ headers: { Authorization: 'Bearer x' } }),
  ),
  ws('POST', (i) => `${W}/mcp-servers/${i.mcpServer}/refresh`),
  ws('DELETE', (i) => `${W}/mcp-servers/${i.mcpServer}`, 'admin'),
  ws('GET', () => `${W}/tools`),
  ws('GET', () => `${W}/chats`),
  ws('GET', () => `${W}/chats/search?q=matrix`),
  ws(
    'POST',
    () => `${W}/chats`,
    'any',
    () => ({ title: 'Matrix chat' }),
  ),
  ws(
    'POST',
    () => `${W}/chats/import`,
    'any',
    () => ({ version: 1, chat: { id: 'imported', title: 'Imported', agentId: null, agentName: null, delegation: null, messages: [], subChats: [] } }),
  ),
  ws('GET', () => `${W}/shares`),
  // Before the chat's DELETE (the link goes with the chat). Anyone revokes their own links; another's is not there.
  ws('DELETE', (i) => `${W}/shares/${i.share}`),
  onChat('GET', ''),
  onChat('PATCH', '', () => ({ title: 'renamed' })),
  onChat('POST', '/shares', () => ({})),
  onChat('GET', '/export'),
  // Before the chat's DELETE below: rating an answer of the fixture chat (written in beforeAll).
  onChat('PUT', `/messages/${ANSWER}/feedback`, () => ({ rating: 'down', comment: 'matrix' })),
  onChat('DELETE', `/messages/${ANSWER}/feedback`),
  ws('GET', (i) => `${W}/agents/${i.agent}/feedback`, 'admin'),
  onChat('DELETE', ''),
  onChat('GET', '/sub-chats'),
  onChat('GET', '/trace'),
  onChat('GET', '/stream'),
  onChat('POST', '/stop'),
  onChat('POST', '/messages', () => ({ text: 'hello' })),
  onChat('POST', '/approvals/call_matrix', () => ({ approve: true })),
  onChat('POST', '/messages/msg_matrix_version/activate'),
  ws(
    'POST',
    () => `${W}/chat`,
    'any',
    (i) => ({ id: 'chat_matrix_new', agentId: i.agent, message: { id: 'msg_matrix', role: 'user', parts: [{ type: 'text', text: 'hi' }] } }),
  ),
  { ...ws('POST', () => `${W}/files`), form: () => fileForm('matrix.png', FILES.png) },
  { ...ws('GET', (i) => `${W}/files/${i.file}`), chat: (i) => i.file },
  ws('GET', () => `${W}/members`),
  ws(
    'PATCH',
    (i) => `${W}/members/${i.memberId}`,
    'admin',
    () => ({ role: 'admin' }),
  ),
  ws('POST', (i) => `${W}/members/${i.memberId}/password-reset`, 'admin'),
  ws('GET', () => `${W}/invitations`, 'admin'),
  ws(
    'POST',
    () => `${W}/invitations`,
    'admin',
    () => ({ role: 'member' }),
  ),
  ws('DELETE', (i) => `${W}/invitations/${i.invitation}`, 'admin'),
  ws('GET', () => `${W}/api-keys`),
  ws(
    'POST',
    () => `${W}/api-keys`,
    'session',
    () => ({ name: 'another' }),
  ),
  // Anyone revokes their own keys; only admins another's (to a member, another's key is not there).
  ws('DELETE', (i) => `${W}/api-keys/${i.ownerKeyId}`),
];

let ids: Ids;
let member: Account;
let memberKey: string;
let revokedKey: string;
let outsiderKey: string;

const as = (headers: Record<string, string>): Who => ({ headers: { cookie: '', ...headers } });
const sessionOf = (a: Account): Who => ({ headers: { cookie: a.cookie } });

async function call(route: Route, who: Who, path = route.path(ids)) {
  const body = route.body?.(ids);
  if (route.form) return t.request(path, { method: route.method, headers: who.headers, body: route.form() });
  return t.request(path, { method: route.method, headers: who.headers, ...(body === undefined ? {} : { json: body }) });
}

/** The route answers `status` with `code`, and every table is exactly as before. */
async function expectRefused(route: Route, who: Who, status: number, code: string, path?: string) {
  const before = await t.snapshot();
  const res = await call(route, who, path);
  const label = `${route.method} ${path ?? route.path(ids)}`;
  expect(res.status, `${label}: ${await res.clone().text()}`).toBe(status);
  expect((await json(res)).error.code, label).toBe(code);
  expect(await t.snapshot(), `${label} wrote something`).toBe(before);
}

beforeAll(async () => {
  const owner = t.owner;
  const ownerSession = sessionOf(owner);
  const post = async (path: string, body: unknown) => json(await t.request(path, { json: body, headers: ownerSession.headers }));
  const agent = await post(`${W}/agents`, { name: 'Matrix target' });
  const provider = await post(`${W}/providers`, { name: 'Matrix provider', baseUrl: 'https://llm.example/v1', apiKey: 'sk-matrix' });
  const mcpServer = await post(`${W}/mcp-servers`, { name: 'Matrix MCP', url: 'http://127.0.0.1:9/mcp' });
  const chat = await post(`${W}/chats`, { agentId: agent.id, title: "The owner's chat" });
  const file = await json(await upload(t, 'matrix.png', FILES.png, { headers: ownerSession.headers }));
  await attachFilesToChat(t.handle.db, { workspaceId: 'default', userId: owner.userId }, chat.id, [file.id]);
  await t.handle.db.insert(message).values({ id: ANSWER, chatId: chat.id, role: 'assistant', parts: [{ type: 'text', text: 'An answer' }], seq: 0 });
  // A message to switch versions to (`…/messages/:id/activate`; it is already the active one).
  await upsertMessage(t.handle.db, chat.id, { id: 'msg_matrix_version', role: 'user', parts: [{ type: 'text', text: 'Matrix question' }] });
  const invitation = await post(`${W}/invitations`, { role: 'member' });
  const other = await post('/api/workspaces', { name: 'Other' });

  member = await signUp(t.anonymous, { email: 'member@baton.test', inviteToken: await invite(t.anonymous, owner) });
  memberKey = (await createApiKey(t.anonymous, member)).key;
  const revoked = await createApiKey(t.anonymous, member, 'default', 'soon revoked');
  expect((await t.request(`${W}/api-keys/${revoked.id}`, { method: 'DELETE', headers: sessionOf(member).headers })).status).toBe(204);
  revokedKey = revoked.key;
  // Someone who belongs to another workspace only.
  const outsider = await signUp(t.anonymous, { email: 'outsider@baton.test', inviteToken: await invite(t.anonymous, owner, other.id, 'admin') });
  outsiderKey = (await createApiKey(t.anonymous, outsider, other.id)).key;

  const ownerKeys = await json(await t.request(`${W}/api-keys`, { headers: ownerSession.headers }));
  const share = await post(`${W}/chats/${chat.id}/shares`, {});
  ids = {
    agent: agent.id,
    provider: provider.id,
    mcpServer: mcpServer.id,
    chat: chat.id,
    invitation: invitation.id,
    ownerKeyId: ownerKeys.data[0].id,
    memberId: member.userId,
    inviteToken: (await post(`${W}/invitations`, { role: 'member' })).token,
    other: other.id,
    file: file.id,
    share: share.id,
  };
});

describe('every route refuses what it must, and writes nothing when it does', () => {
  it('no credentials → 401', async () => {
    for (const route of routes) await expectRefused(route, as({}), 401, 'unauthorized');
  });

  it('a revoked or made-up API key → 401, even with a valid session cookie next to it', async () => {
    for (const route of routes) {
      await expectRefused(route, as(bearer(revokedKey)), 401, 'unauthorized');
      await expectRefused(route, { headers: { ...bearer('baton_madeup'), cookie: member.cookie } }, 401, 'unauthorized');
    }
  });

  it("another user's key (for their own workspace) → 404 on this workspace's routes", async () => {
    for (const route of routes.filter((r) => r.workspace)) await expectRefused(route, as(bearer(outsiderKey)), 404, 'not_found');
  });

  it('another workspace (one the caller is not in) → 404, with a session and with a key', async () => {
    for (const route of routes.filter((r) => r.workspace)) {
      const path = route.path(ids).replace(W, `/api/workspaces/${ids.other}`);
      await expectRefused(route, sessionOf(member), 404, 'not_found', path);
      await expectRefused(route, as(bearer(memberKey)), 404, 'not_found', path);
      await expectRefused(route, sessionOf(member), 404, 'not_found', path.replace(ids.other, 'ws_does_not_exist'));
    }
    // A member of the other workspace naming this workspace's file under their own workspace's URL.
    const file = routes.find((r) => r.method === 'GET' && r.path(ids).includes('/files/'))!;
    await expectRefused(file, as(bearer(outsiderKey)), 404, 'not_found', file.path(ids).replace(W, `/api/workspaces/${ids.other}`));
  });

  it('a member on an admin route → 403; an API key where a session is needed → 403', async () => {
    for (const route of routes.filter((r) => r.access === 'admin')) {
      await expectRefused(route, sessionOf(member), 403, 'forbidden');
      await expectRefused(route, as(bearer(memberKey)), 403, 'forbidden');
    }
    for (const route of routes.filter((r) => r.access === 'session')) await expectRefused(route, as(bearer(memberKey)), 403, 'forbidden');
    const revokeOwnersKey = routes.find((r) => r.method === 'DELETE' && r.path(ids).includes('/api-keys/'))!;
    await expectRefused(revokeOwnersKey, sessionOf(member), 404, 'not_found');
    const revokeOwnersLink = routes.find((r) => r.method === 'DELETE' && r.path(ids).includes('/shares/'))!;
    await expectRefused(revokeOwnersLink, sessionOf(member), 404, 'not_found');
  });

  it("another member's chat → 404, exactly like an unknown chat", async () => {
    for (const route of routes.filter((r) => r.chat)) {
      await expectRefused(route, sessionOf(member), 404, 'not_found');
      await expectRefused(route, as(bearer(memberKey)), 404, 'not_found');
      await expectRefused(route, sessionOf(t.owner), 404, 'not_found', route.path(ids).replace(route.chat!(ids), 'id_unknown'));
    }
    // Nor can it be named as the parent of a delegation, or listed.
    const list = await json(await t.request(`${W}/chats`, { headers: sessionOf(member).headers }));
    expect(list.data).toEqual([]);
  });

  it('the same routes work for the owner (so the refusals above are about the caller, not the route)', async () => {
    // Deleting last: the other routes still need what they delete.
    const ordered = [...routes.filter((r) => r.method !== 'DELETE'), ...routes.filter((r) => r.method === 'DELETE')];
    for (const route of ordered) {
      // The owner is a member of the invitation's workspace already (409), everything else succeeds.
      const res = await call(route, sessionOf(t.owner));
      // The fixture chat has no call waiting for approval: the owner reaches the route and gets its own 404;
      // the image's address is refused by the outbound guard: its own 502.
      const path = route.path(ids);
      const expected = path.endsWith('/accept') ? [409] : path.includes('/approvals/') ? [404] : path.startsWith('/api/image') ? [502] : [200, 201, 204];
      expect(expected, `${route.method} ${path}: ${res.status} ${await res.clone().text()}`).toContain(res.status);
    }
  });

  it('public routes need no credentials', async () => {
    for (const path of ['/api/health', '/api/openapi.json', '/api/docs', '/api/auth-status', `/api/invitations/${ids.inviteToken}`]) {
      expect((await t.request(path, { headers: { cookie: '' } })).status, path).toBe(200);
    }
    // A share link's chat (the fixture's chat is deleted by then).
    const chat = await json(await t.request(`${W}/chats`, { json: { title: 'Shared' } }));
    const link = await json(await t.request(`${W}/chats/${chat.id}/shares`, { json: {} }));
    expect((await t.request(`/api/shared/${link.token}`, { headers: { cookie: '' } })).status).toBe(200);
    const spec = await json(await t.request('/api/openapi.json'));
    expect(Object.keys(spec.components.securitySchemes).sort()).toEqual(['apiKey', 'session']);
    for (const path of [
      '/api/shared/{token}',
      '/api/shared/{token}/files/{fileId}',
      '/api/workspaces/{workspaceId}/shares',
      '/api/workspaces/{workspaceId}/shares/{shareId}',
      '/api/workspaces/{workspaceId}/chats/{id}/shares',
      '/api/workspaces/{workspaceId}/chats/{id}/export',
      '/api/workspaces/{workspaceId}/chats/import',
    ])
      expect(spec.paths, path).toHaveProperty([path]);
  });
});
