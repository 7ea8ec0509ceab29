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
  /** Something the error message must say, e.g. the offending field. */
  says?: string;
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
  {
    name: 'temperature as string',
    method: 'PATCH',
    path: (i) => `${ws}/agents/${i.agent}`,
    body: () => ({ temperature: 'hot' }),
    status: 400,
    code: 'invalid_request',
  },
  {
    name: 'subAgentIds not an array',
    method: 'PATCH',
    path: (i) => `${ws}/agents/${i.agent}`,
    body: () => ({ subAgentIds: 'abc' }),
    status: 400,
    code: 'invalid_request',
  },
  {
    name: 'self as sub-agent',
    method: 'PATCH',
    path: (i) => `${ws}/agents/${i.agent}`,
    body: (i) => ({ subAgentIds: [i.agent] }),
    status: 400,
    code: 'invalid_request',
  },
  {
    name: 'foreign sub-agent',
    method: 'POST',
    path: () => `${ws}/agents`,
    body: (i) => ({ name: 'x', subAgentIds: [i.foreignAgent] }),
    status: 400,
    code: 'invalid_request',
  },
  {
    name: 'foreign provider on agent',
    method: 'POST',
    path: () => `${ws}/agents`,
    body: (i) => ({ name: 'x', providerId: i.foreignProvider }),
    status: 400,
    code: 'invalid_request',
  },
  { name: 'oversized body', method: 'POST', path: () => `${ws}/agents`, body: oversized, status: 413, code: 'payload_too_large' },
  { name: 'unknown agent', method: 'GET', path: () => `${ws}/agents/agent_nope`, status: 404, code: 'not_found' },
  { name: 'foreign agent GET', method: 'GET', path: (i) => `${ws}/agents/${i.foreignAgent}`, status: 404, code: 'not_found' },
  {
    name: 'foreign agent PATCH',
    method: 'PATCH',
    path: (i) => `${ws}/agents/${i.foreignAgent}`,
    body: () => ({ name: 'stolen' }),
    status: 404,
    code: 'not_found',
  },
  { name: 'foreign agent DELETE', method: 'DELETE', path: (i) => `${ws}/agents/${i.foreignAgent}`, status: 404, code: 'not_found' },
  { name: 'unknown workspace', method: 'POST', path: () => '/api/workspaces/ws_nope/agents', body: () => ({ name: 'x' }), status: 404, code: 'not_found' },
  {
    name: 'provider bad URL',
    method: 'POST',
    path: () => `${ws}/providers`,
    body: () => ({ name: 'p', baseUrl: 'nope' }),
    status: 400,
    code: 'invalid_request',
  },
  {
    name: 'provider modelIds wrong type',
    method: 'PATCH',
    path: (i) => `${ws}/providers/${i.provider}`,
    body: () => ({ modelIds: [1] }),
    status: 400,
    code: 'invalid_request',
  },
  {
    name: 'foreign provider PATCH',
    method: 'PATCH',
    path: (i) => `${ws}/providers/${i.foreignProvider}`,
    body: () => ({ name: 'x' }),
    status: 404,
    code: 'not_found',
  },
  { name: 'foreign provider DELETE', method: 'DELETE', path: (i) => `${ws}/providers/${i.foreignProvider}`, status: 404, code: 'not_found' },
  {
    name: 'chat with foreign parent',
    method: 'POST',
    path: () => `${ws}/chats`,
    body: (i) => ({ parentChatId: i.foreignChat }),
    status: 400,
    code: 'invalid_request',
  },
  {
    name: 'chat title too long',
    method: 'PATCH',
    path: (i) => `${ws}/chats/${i.chat}`,
    body: () => ({ title: 't'.repeat(201) }),
    status: 400,
    code: 'invalid_request',
  },
  { name: 'chat malformed JSON', method: 'PATCH', path: (i) => `${ws}/chats/${i.chat}`, body: '{', status: 400, code: 'invalid_json' },
  { name: 'foreign chat DELETE', method: 'DELETE', path: (i) => `${ws}/chats/${i.foreignChat}`, status: 404, code: 'not_found' },
  {
    name: 'foreign chat via its own id in another workspace',
    method: 'GET',
    path: (i) => `/api/workspaces/${i.otherWs}/chats/${i.chat}`,
    status: 404,
    code: 'not_found',
  },
  { name: 'duplicate chat id', method: 'POST', path: () => `${ws}/chats`, body: (i) => ({ id: i.chat }), status: 409, code: 'conflict' },
  { name: 'workspace empty name', method: 'POST', path: () => '/api/workspaces', body: () => ({ name: '' }), status: 400, code: 'invalid_request' },
  { name: 'unknown route', method: 'GET', path: () => '/api/nope', status: 404, code: 'not_found' },
  ...nulCases(),
  ...cursorCases(),
];

/** Only what a previous page handed out is a cursor; anything else is a 400, never a failed query. */
function cursorCases(): Case[] {
  const cursor = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const bad: [string, unknown][] = [
    ['a five-digit year', ['99999-01-01T00:00:00.000Z', 'x']],
    ['the last date JavaScript has', ['+275760-09-13T00:00:00.000Z', 'x']],
    ['year 10000, as toISOString writes it', ['+010000-01-01T00:00:00.000Z', 'x']],
    ['year 0', ['0000-01-01T00:00:00.000Z', 'x']],
    ['a negative year', ['-000001-01-01T00:00:00.000Z', 'x']],
    ['a date that is not ISO', ['Sat, 01 Jan 2000 00:00:00 GMT', 'x']],
    ['a timestamp number', [946684800000, 'x']],
    ['a numeric id', ['2000-01-01T00:00:00.000Z', 7]],
    ['an id with a NUL', ['2000-01-01T00:00:00.000Z', 'x\u0000']],
    ['an extra element', ['2000-01-01T00:00:00.000Z', 'x', 'y']],
    ['an object', { at: '2000-01-01T00:00:00.000Z', id: 'x' }],
  ];
  const lists = [`${ws}/chats`, `${ws}/agents`, `${ws}/providers`, '/api/workspaces'];
  return bad.flatMap(([name, value], i) => {
    const list = lists[i % lists.length]!;
    return [
      {
        name: `cursor with ${name} on ${list}`,
        method: 'GET',
        path: () => `${list}?cursor=${cursor(value)}`,
        status: 400,
        code: 'invalid_request',
        says: 'cursor',
      },
    ];
  });
}

/** Postgres stores no U+0000: every way a NUL can arrive must be a 400 naming where it was. */
function nulCases(): Case[] {
  const NUL = '\u0000';
  const userMessage = (parts: unknown[], extra: Record<string, unknown> = {}) => ({ id: 'm_nul', role: 'user', parts, ...extra });
  const text = (t: string) => ({ type: 'text', text: t });
  const body: { name: string; method: string; path: (i: Ids) => string; body: (i: Ids) => unknown; says: string }[] = [
    { name: 'agent name', method: 'POST', path: () => `${ws}/agents`, body: () => ({ name: `a${NUL}b` }), says: 'name' },
    { name: 'agent description', method: 'PATCH', path: (i) => `${ws}/agents/${i.agent}`, body: () => ({ description: NUL }), says: 'description' },
    { name: 'agent systemPrompt', method: 'PATCH', path: (i) => `${ws}/agents/${i.agent}`, body: () => ({ systemPrompt: `be${NUL}` }), says: 'systemPrompt' },
    { name: 'agent modelId', method: 'PATCH', path: (i) => `${ws}/agents/${i.agent}`, body: () => ({ modelId: `m${NUL}` }), says: 'modelId' },
    { name: 'agent providerId', method: 'POST', path: () => `${ws}/agents`, body: () => ({ name: 'x', providerId: `p${NUL}` }), says: 'providerId' },
    { name: 'agent toolIds', method: 'POST', path: () => `${ws}/agents`, body: () => ({ name: 'x', toolIds: [`calculator${NUL}`] }), says: 'toolIds.0' },
    { name: 'agent subAgentIds', method: 'PATCH', path: (i) => `${ws}/agents/${i.agent}`, body: () => ({ subAgentIds: [`a${NUL}`] }), says: 'subAgentIds.0' },
    { name: 'provider name', method: 'POST', path: () => `${ws}/providers`, body: () => ({ name: `p${NUL}`, baseUrl: 'http://x.test/v1' }), says: 'name' },
    {
      name: 'provider baseUrl',
      method: 'PATCH',
      path: (i) => `${ws}/providers/${i.provider}`,
      body: () => ({ baseUrl: `http://x.test/${NUL}` }),
      says: 'baseUrl',
    },
    { name: 'provider apiKey', method: 'PATCH', path: (i) => `${ws}/providers/${i.provider}`, body: () => ({ apiKey: `sk-${NUL}` }), says: 'apiKey' },
    {
      name: 'provider modelIds',
      method: 'PATCH',
      path: (i) => `${ws}/providers/${i.provider}`,
      body: () => ({ modelIds: ['ok', `m${NUL}`] }),
      says: 'modelIds.1',
    },
    { name: 'workspace name', method: 'POST', path: () => '/api/workspaces', body: () => ({ name: NUL }), says: 'name' },
    { name: 'chat title on create', method: 'POST', path: () => `${ws}/chats`, body: () => ({ title: `t${NUL}` }), says: 'title' },
    { name: 'chat title on rename', method: 'PATCH', path: (i) => `${ws}/chats/${i.chat}`, body: () => ({ title: `t${NUL}` }), says: 'title' },
    { name: 'chat id on create', method: 'POST', path: () => `${ws}/chats`, body: () => ({ id: `c${NUL}` }), says: 'id' },
    { name: 'chat agentId', method: 'POST', path: () => `${ws}/chats`, body: () => ({ agentId: `a${NUL}` }), says: 'agentId' },
    { name: 'REST message text', method: 'POST', path: (i) => `${ws}/chats/${i.chat}/messages`, body: () => ({ text: `hi${NUL}there` }), says: 'text' },
    {
      name: 'REST message agentId',
      method: 'POST',
      path: (i) => `${ws}/chats/${i.chat}/messages`,
      body: () => ({ text: 'hi', agentId: `a${NUL}` }),
      says: 'agentId',
    },
    {
      name: 'stream chat id',
      method: 'POST',
      path: () => `${ws}/chat`,
      body: (i) => ({ id: `c${NUL}`, agentId: i.agent, message: userMessage([text('hi')]) }),
      says: 'id',
    },
    {
      name: 'stream agentId',
      method: 'POST',
      path: () => `${ws}/chat`,
      body: () => ({ id: 'c_nul', agentId: `a${NUL}`, message: userMessage([text('hi')]) }),
      says: 'agentId',
    },
    {
      name: 'stream message id',
      method: 'POST',
      path: () => `${ws}/chat`,
      body: (i) => ({ id: 'c_nul', agentId: i.agent, message: { ...userMessage([text('hi')]), id: `m${NUL}` } }),
      says: 'message.id',
    },
    {
      name: 'stream message text',
      method: 'POST',
      path: () => `${ws}/chat`,
      body: (i) => ({ id: 'c_nul', agentId: i.agent, message: userMessage([text('ok'), text(`a${NUL}b`)]) }),
      says: 'message.parts.1.text',
    },
    {
      name: 'stream part field deep inside',
      method: 'POST',
      path: () => `${ws}/chat`,
      body: (i) => ({ id: 'c_nul', agentId: i.agent, message: userMessage([{ ...text('ok'), providerMetadata: { x: { y: [1, `z${NUL}`] } } }]) }),
      says: 'message.parts.0.providerMetadata.x.y.1',
    },
    {
      name: 'stream message metadata',
      method: 'POST',
      path: () => `${ws}/chat`,
      body: (i) => ({ id: 'c_nul', agentId: i.agent, message: userMessage([text('ok')], { metadata: { note: NUL } }) }),
      says: 'message.metadata.note',
    },
    {
      name: 'stream part key',
      method: 'POST',
      path: () => `${ws}/chat`,
      body: (i) => ({ id: 'c_nul', agentId: i.agent, message: userMessage([{ ...text('ok'), [`k${NUL}`]: 1 }]) }),
      says: 'message.parts.0',
    },
    {
      name: 'stream parentToolCallId',
      method: 'POST',
      path: () => `${ws}/chat`,
      body: (i) => ({ id: 'c_nul', agentId: i.agent, parentChatId: i.chat, parentToolCallId: `call${NUL}`, message: userMessage([text('task')]) }),
      says: 'parentToolCallId',
    },
  ];
  const paths: { name: string; method: string; path: (i: Ids) => string; body?: (i: Ids) => unknown; says: string }[] = [
    { name: 'chat id', method: 'GET', path: () => `${ws}/chats/a%00b`, says: 'id' },
    { name: 'chat id on rename', method: 'PATCH', path: () => `${ws}/chats/a%00b`, body: () => ({ title: 'x' }), says: 'id' },
    { name: 'chat id for sub-chats', method: 'GET', path: () => `${ws}/chats/a%00b/sub-chats`, says: 'id' },
    { name: 'chat id for a REST turn', method: 'POST', path: () => `${ws}/chats/a%00b/messages`, body: () => ({ text: 'hi' }), says: 'chatId' },
    { name: 'chat id for stop', method: 'POST', path: () => `${ws}/chats/a%00b/stop`, says: 'chatId' },
    { name: 'chat id for following a run', method: 'GET', path: () => `${ws}/chats/a%00b/stream`, says: 'chatId' },
    { name: 'agent id', method: 'DELETE', path: () => `${ws}/agents/%00`, says: 'id' },
    { name: 'provider id', method: 'PATCH', path: () => `${ws}/providers/p%00`, body: () => ({ name: 'x' }), says: 'id' },
    { name: 'workspace id', method: 'GET', path: () => '/api/workspaces/a%00b/agents', says: 'workspaceId' },
    {
      name: 'workspace id of the stream endpoint',
      method: 'POST',
      path: () => '/api/workspaces/%00/chat',
      body: () => ({ id: 'c', message: userMessage([text('hi')]) }),
      says: 'workspaceId',
    },
  ];
  return [
    ...body.map((c) => ({ ...c, name: `NUL in ${c.name}`, says: `${c.says}: must not contain NUL`, status: 400, code: 'invalid_request' })),
    ...paths.map((c) => ({ ...c, name: `NUL in path: ${c.name}`, says: `${c.says}: must not contain NUL`, status: 400, code: 'invalid_request' })),
  ];
}

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
    if (c.says) expect(payload.error.message).toContain(c.says);
    expect(await t.snapshot()).toBe(before);
  });
});
