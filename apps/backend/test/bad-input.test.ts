import { describe, expect, it } from 'vitest';
import { json, useTestApp } from './support/test-app';

const t = useTestApp();

interface Case {
  name: string;
  method: string;
  path: (ids: Ids) => string;
  body?: string | ((ids: Ids) => unknown);
  contentType?: string;
  status: number;
  code: string;
}
interface Ids {
  agent: string;
  chat: string;
  provider: string;
  foreignAgent: string;
  foreignChat: string;
  foreignProvider: string;
  otherWs: string;
}

const ws = '/api/workspaces/default';
const oversized = JSON.stringify({ name: 'x', description: 'y'.repeat(1024 * 1024) });

const cases: Case[] = [
  { name: 'malformed JSON', method: 'POST', path: () => `${ws}/agents`, body: '{"name": ', status: 400, code: 'invalid_json' },
  { name: 'non-JSON content type', method: 'POST', path: () => `${ws}/agents`, body: 'name=x', contentType: 'text/plain', status: 400, code: 'invalid_json' },
  { name: 'JSON that is not an object', method: 'POST', path: () => `${ws}/agents`, body: () => ['x'], status: 400, code: 'invalid_request' },
  { name: 'missing name', method: 'POST', path: () => `${ws}/agents`, body: () => ({}), status: 400, code: 'invalid_request' },
  { name: 'unknown field', method: 'POST', path: () => `${ws}/agents`, body: () => ({ name: 'x', colour: 'red' }), status: 400, code: 'invalid_request' },
  { name: 'maxSteps 0', method: 'POST', path: () => `${ws}/agents`, body: () => ({ name: 'x', maxSteps: 0 }), status: 400, code: 'invalid_request' },
  { name: 'maxSteps 101', method: 'PATCH', path: (i) => `${ws}/agents/${i.agent}`, body: () => ({ maxSteps: 101 }), status: 400, code: 'invalid_request' },
  { name: 'temperature as string', method: 'PATCH', path: (i) => `${ws}/agents/${i.agent}`, body: () => ({ temperature: 'hot' }), status: 400, code: 'invalid_request' },
  { name: 'subAgentIds not an array', method: 'PATCH', path: (i) => `${ws}/agents/${i.agent}`, body: () => ({ subAgentIds: 'abc' }), status: 400, code: 'invalid_request' },
  { name: 'self as sub-agent', method: 'PATCH', path: (i) => `${ws}/agents/${i.agent}`, body: (i) => ({ subAgentIds: [i.agent] }), status: 400, code: 'invalid_request' },
  { name: 'foreign sub-agent', method: 'POST', path: () => `${ws}/agents`, body: (i) => ({ name: 'x', subAgentIds: [i.foreignAgent] }), status: 400, code: 'invalid_request' },
  { name: 'foreign provider on agent', method: 'POST', path: () => `${ws}/agents`, body: (i) => ({ name: 'x', providerId: i.foreignProvider }), status: 400, code: 'invalid_request' },
  { name: 'oversized body', method: 'POST', path: () => `${ws}/agents`, body: oversized, status: 413, code: 'payload_too_large' },
  { name: 'unknown agent', method: 'GET', path: () => `${ws}/agents/agent_nope`, status: 404, code: 'not_found' },
  { name: 'foreign agent GET', method: 'GET', path: (i) => `${ws}/agents/${i.foreignAgent}`, status: 404, code: 'not_found' },
  { name: 'foreign agent PATCH', method: 'PATCH', path: (i) => `${ws}/agents/${i.foreignAgent}`, body: () => ({ name: 'stolen' }), status: 404, code: 'not_found' },
  { name: 'foreign agent DELETE', method: 'DELETE', path: (i) => `${ws}/agents/${i.foreignAgent}`, status: 404, code: 'not_found' },
  { name: 'unknown workspace', method: 'POST', path: () => '/api/workspaces/ws_nope/agents', body: () => ({ name: 'x' }), status: 404, code: 'not_found' },
  { name: 'provider bad URL', method: 'POST', path: () => `${ws}/providers`, body: () => ({ name: 'p', baseUrl: 'nope' }), status: 400, code: 'invalid_request' },
  { name: 'provider modelIds wrong type', method: 'PATCH', path: (i) => `${ws}/providers/${i.provider}`, body: () => ({ modelIds: [1] }), status: 400, code: 'invalid_request' },
  { name: 'foreign provider PATCH', method: 'PATCH', path: (i) => `${ws}/providers/${i.foreignProvider}`, body: () => ({ name: 'x' }), status: 404, code: 'not_found' },
  { name: 'foreign provider DELETE', method: 'DELETE', path: (i) => `${ws}/providers/${i.foreignProvider}`, status: 404, code: 'not_found' },
  { name: 'chat with foreign parent', method: 'POST', path: () => `${ws}/chats`, body: (i) => ({ parentChatId: i.foreignChat }), status: 400, code: 'invalid_request' },
  { name: 'chat title too long', method: 'PATCH', path: (i) => `${ws}/chats/${i.chat}`, body: () => ({ title: 't'.repeat(201) }), status: 400, code: 'invalid_request' },
  { name: 'chat malformed JSON', method: 'PATCH', path: (i) => `${ws}/chats/${i.chat}`, body: '{', status: 400, code: 'invalid_json' },
  { name: 'foreign chat DELETE', method: 'DELETE', path: (i) => `${ws}/chats/${i.foreignChat}`, status: 404, code: 'not_found' },
  { name: 'foreign chat via its own id in another workspace', method: 'GET', path: (i) => `/api/workspaces/${i.otherWs}/chats/${i.chat}`, status: 404, code: 'not_found' },
  { name: 'duplicate chat id', method: 'POST', path: () => `${ws}/chats`, body: (i) => ({ id: i.chat }), status: 409, code: 'conflict' },
  { name: 'workspace empty name', method: 'POST', path: () => '/api/workspaces', body: () => ({ name: '' }), status: 400, code: 'invalid_request' },
  { name: 'unknown route', method: 'GET', path: () => '/api/nope', status: 404, code: 'not_found' },
];

describe('bad input matrix: clear error, nothing written', () => {
  let ids: Ids;

  it('sets up fixtures', async () => {
    const other = await json(await t.request('/api/workspaces', { json: { name: 'Other' } }));
    const o = `/api/workspaces/${other.id}`;
    ids = {
      agent: (await json(await t.request(`${ws}/agents`, { json: { name: 'Mine' } }))).id,
      chat: (await json(await t.request(`${ws}/chats`, { json: { title: 'Mine' } }))).id,
      provider: (await json(await t.request(`${ws}/providers`, { json: { name: 'P', baseUrl: 'http://x.test/v1' } }))).id,
      foreignAgent: (await json(await t.request(`${o}/agents`, { json: { name: 'Theirs' } }))).id,
      foreignChat: (await json(await t.request(`${o}/chats`, { json: { title: 'Theirs' } }))).id,
      foreignProvider: (await json(await t.request(`${o}/providers`, { json: { name: 'P', baseUrl: 'http://y.test/v1' } }))).id,
      otherWs: other.id,
    };
  });

  it.each(cases)('$name → $status $code', async (c) => {
    const before = await t.snapshot();
    const body = typeof c.body === 'function' ? JSON.stringify(c.body(ids)) : c.body;
    const res = await t.request(c.path(ids), {
      method: c.method,
      body,
      headers: body === undefined ? {} : { 'content-type': c.contentType ?? 'application/json' },
    });
    expect(res.status).toBe(c.status);
    const payload = await json(res);
    expect(payload.error.code).toBe(c.code);
    expect(payload.error.message).toEqual(expect.any(String));
    expect(await t.snapshot()).toBe(before);
  });
});
