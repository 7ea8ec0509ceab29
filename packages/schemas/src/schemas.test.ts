import { describe, expect, it } from 'vitest';
import {
  agentCreateSchema,
  agentUpdateSchema,
  chatStreamRequestSchema,
  cutText,
  DEFAULT_DELEGATION_SETTINGS,
  listQuerySchema,
  newTaskOutputSchema,
  NUL_MESSAGE,
  providerCreateSchema,
  providerUpdateSchema,
  chatImportSchema,
  isSharedFileUrl,
} from './index';

describe('the shared API contract', () => {
  it('fills agent defaults and rejects unknown fields', () => {
    expect(agentCreateSchema.parse({ name: '  Planner ' })).toEqual({
      name: 'Planner',
      description: '',
      systemPrompt: '',
      providerId: null,
      modelId: null,
      temperature: null,
      maxSteps: 20,
      toolIds: [],
      subAgentIds: [],
      delegation: DEFAULT_DELEGATION_SETTINGS,
      remote: null,
      a2aPublished: false,
      editableBy: 'author',
      allowModelOverride: false,
    });
    expect(agentCreateSchema.safeParse({ name: 'x', editableBy: 'everyone' }).success).toBe(false);
    // A remote A2A agent: a card URL and optional headers; a malformed URL or header is refused.
    expect(agentCreateSchema.parse({ name: 'r', remote: { cardUrl: 'https://a.example/.well-known/agent-card.json' } }).remote).toEqual({
      cardUrl: 'https://a.example/.well-known/agent-card.json',
    });
    expect(agentCreateSchema.safeParse({ name: 'r', remote: { cardUrl: 'ftp://a.example' } }).success).toBe(false);
    expect(agentCreateSchema.safeParse({ name: 'r', remote: { cardUrl: 'https://a.example', headers: { 'Bad Name': 'x' } } }).success).toBe(false);
    expect(agentCreateSchema.parse({ name: 'x', delegation: { maxDepth: 2 } }).delegation).toEqual({ ...DEFAULT_DELEGATION_SETTINGS, maxDepth: 2 });
    expect(agentCreateSchema.safeParse({ name: 'x', colour: 'red' }).success).toBe(false);
    for (const delegation of [{ maxDepth: 4 }, { maxDepth: 0 }, { maxConcurrent: 11 }, { contextMode: 'all' }, { toolPolicy: 'any' }, { colour: 1 }]) {
      expect(agentUpdateSchema.safeParse({ delegation }).success, JSON.stringify(delegation)).toBe(false);
    }
    expect(agentUpdateSchema.parse({ delegation: { maxTokensPerTree: null } })).toEqual({ delegation: { maxTokensPerTree: null } });
    expect(agentUpdateSchema.safeParse({ maxSteps: 101 }).success).toBe(false);
    expect(agentUpdateSchema.parse({})).toEqual({});
  });

  it('accepts only http(s) provider URLs', () => {
    expect(providerCreateSchema.safeParse({ name: 'p', baseUrl: 'https://api.example.com/v1' }).success).toBe(true);
    for (const baseUrl of ['ftp://example.com', 'example.com', 'javascript:alert(1)']) {
      expect(providerCreateSchema.safeParse({ name: 'p', baseUrl }).success, baseUrl).toBe(false);
    }
  });

  it('refuses credentials, a query string or a fragment in a provider URL, on create and update', () => {
    const cases: [string, RegExp][] = [
      ['http://user:pass@api.example.com/v1', /user name or password/],
      ['https://sk-123@api.example.com/v1', /user name or password/],
      ['http://@api.example.com/v1', /user name or password/],
      ['https://api.example.com/v1?api-key=sk-123', /query string/],
      ['https://api.example.com/v1?', /query string/],
      ['http://127.0.0.1:3298/403#', /fragment/],
      ['http://127.0.0.1:3298/403#/x', /fragment/],
    ];
    for (const [baseUrl, message] of cases) {
      for (const schema of [providerCreateSchema, providerUpdateSchema]) {
        const result = schema.safeParse({ name: 'p', baseUrl });
        expect(result.success, baseUrl).toBe(false);
        expect(result.error!.issues[0]).toMatchObject({ path: ['baseUrl'], message: expect.stringMatching(message) });
      }
    }
    // An "@" or a colon in the path is not a credential.
    for (const baseUrl of ['https://api.example.com/v1/@team', 'http://127.0.0.1:11434/v1', 'https://gw.example.com/a:b/v1']) {
      expect(providerCreateSchema.safeParse({ name: 'p', baseUrl }).success, baseUrl).toBe(true);
    }
  });

  it('coerces list queries and bounds the page size', () => {
    expect(listQuerySchema.parse({})).toEqual({ limit: 20 });
    expect(listQuerySchema.parse({ limit: '100' }).limit).toBe(100);
    expect(listQuerySchema.safeParse({ limit: '101' }).success).toBe(false);
  });

  it('describes the chat stream body and the newTask output', () => {
    const body = chatStreamRequestSchema.parse({ id: 'c', message: { id: 'm', role: 'user', parts: [{ type: 'text', text: 'hi' }] } });
    expect(body.trigger).toBe('submit-message');
    expect(chatStreamRequestSchema.safeParse({ id: 'c', message: { id: 'm', role: 'system', parts: [] } }).success).toBe(false);
    expect(newTaskOutputSchema.safeParse({ result: 'r', status: 'done', subChatId: null }).success).toBe(false);
  });

  it('refuses NUL in any string of a UI message, naming where, however deep it sits', () => {
    let metadata: unknown = 'bottom\u0000';
    for (let i = 0; i < 100_000; i++) metadata = [metadata];
    const result = chatStreamRequestSchema.safeParse({ id: 'c', message: { id: 'm', role: 'user', parts: [{ type: 'text', text: 'hi' }], metadata } });
    expect(result.success).toBe(false);
    const issue = result.error!.issues[0]!;
    expect(issue.message).toBe(NUL_MESSAGE);
    expect(issue.path.slice(0, 3)).toEqual(['message', 'metadata', 0]);
    expect(issue.path).toHaveLength(100_002);
  });
});

describe('cutText', () => {
  it('cuts to the limit, one unit shorter when the limit falls inside a surrogate pair', () => {
    expect(cutText('abc', 5)).toBe('abc');
    expect(cutText('abcdef', 3)).toBe('abc');
    expect(cutText('ab🦦c', 3)).toBe('ab');
    expect(cutText('ab🦦c', 4)).toBe('ab🦦');
  });
});

describe('chatStreamRequestSchema with messages (the AI SDK default transport)', () => {
  const user = (id: string, text = 'hi') => ({ id, role: 'user', parts: [{ type: 'text', text }] });
  it('takes the last message as the newest and keeps the others, system messages included, to compare', () => {
    const system = { id: 's', role: 'system', parts: [{ type: 'text', text: 'Be brief.' }] };
    const body = chatStreamRequestSchema.parse({ id: 'c', messages: [system, user('a'), user('b')], trigger: 'submit-message', messageId: undefined });
    expect(body.message.id).toBe('b');
    expect(body.earlier?.map((m) => m.id)).toEqual(['s', 'a']);
  });
  it('checks the newest as message is checked, naming it in the list', () => {
    const result = chatStreamRequestSchema.safeParse({ id: 'c', messages: [user('a'), { id: 'b', role: 'system', parts: [{ type: 'text', text: 'x' }] }] });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['messages', 1, 'role']);
  });
});

describe('share links and chat exports', () => {
  it('reads a share URL of this origin, nothing else', () => {
    expect(isSharedFileUrl('/api/shared/tok_1/files/file_2')).toBe(true);
    for (const url of ['https://evil.example/api/shared/t/files/f', '/api/shared/t/files/f/../x', '/api/workspaces/w/files/f', '/api/shared//files/f']) {
      expect(isSharedFileUrl(url), url).toBe(false);
    }
  });

  it('takes an export of version 1 only, with typed parts and no NUL bytes', () => {
    const chat = {
      id: 'c',
      title: 'T',
      agentId: null,
      agentName: null,
      delegation: null,
      messages: [{ id: 'm', role: 'user', parts: [{ type: 'text', text: 'hi', extra: 1 }] }],
      subChats: [],
    };
    expect(chatImportSchema.parse({ version: 1, chat }).chat.messages[0]!.parts[0]).toEqual({ type: 'text', text: 'hi', extra: 1 });
    expect(chatImportSchema.safeParse({ version: 2, chat }).error?.issues[0]?.message).toBe('version must be 1 (a Baton chat export)');
    expect(chatImportSchema.safeParse({ version: 1, chat: { ...chat, title: 'a\u0000' } }).success).toBe(false);
    expect(chatImportSchema.safeParse({ version: 1, chat: { ...chat, messages: [{ id: 'm', role: 'user', parts: [{ text: 'no type' }] }] } }).success).toBe(
      false,
    );
  });
});
