import { describe, expect, it } from 'vitest';
import { json, useTestApp } from './support/test-app';

const t = useTestApp();

describe('GET /api/health', () => {
  it('reports ok and which database is in use', async () => {
    const res = await t.request('/api/health');
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ status: 'ok', database: process.env.DATABASE_URL ? 'postgres' : 'pglite' });
  });
});

describe('workspaces', () => {
  it('has the default workspace', async () => {
    const body = await json(await t.request('/api/workspaces'));
    expect(body.data).toContainEqual(expect.objectContaining({ id: 'default', name: 'Default' }));
    expect(body.nextCursor).toBeNull();
  });

  it('creates workspaces and pages through them with a cursor', async () => {
    for (const name of ['Alpha', 'Beta', 'Gamma']) {
      const res = await t.request('/api/workspaces', { json: { name } });
      expect(res.status).toBe(201);
      expect(await json(res)).toMatchObject({ name, id: expect.stringMatching(/^ws_/) });
    }
    const first = await json(await t.request('/api/workspaces?limit=2'));
    expect(first.data.map((w: { name: string }) => w.name)).toEqual(['Default', 'Alpha']);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await json(await t.request(`/api/workspaces?limit=2&cursor=${first.nextCursor}`));
    expect(second.data.map((w: { name: string }) => w.name)).toEqual(['Beta', 'Gamma']);
    expect(second.nextCursor).toBeNull();
  });

  it('rejects an empty name and limits outside 1–100', async () => {
    expect((await t.request('/api/workspaces', { json: { name: '  ' } })).status).toBe(400);
    for (const limit of ['0', '101', 'abc']) {
      const res = await t.request(`/api/workspaces?limit=${limit}`);
      expect(res.status).toBe(400);
      expect((await json(res)).error.code).toBe('invalid_request');
    }
    const res = await t.request('/api/workspaces?cursor=garbage');
    expect(res.status).toBe(400);
    expect((await json(res)).error.message).toMatch(/cursor/);
  });
});

describe('OpenAPI', () => {
  it('serves an OpenAPI 3.1 document generated from the shared schemas', async () => {
    const res = await t.request('/api/openapi.json');
    expect(res.status).toBe(200);
    const doc = await json(res);
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/health',
        '/api/workspaces',
        '/api/workspaces/{workspaceId}/agents',
        '/api/workspaces/{workspaceId}/agents/{id}',
        '/api/workspaces/{workspaceId}/providers/{id}',
        '/api/workspaces/{workspaceId}/chats/{id}/sub-chats',
        '/api/workspaces/{workspaceId}/chat',
        '/api/workspaces/{workspaceId}/chats/{chatId}/messages',
        '/api/workspaces/{workspaceId}/chats/{chatId}/stop',
        '/api/tools',
        '/api/models',
      ]),
    );
    expect(doc.components.schemas.Agent.properties.subAgentIds).toBeDefined();
    expect(doc.components.schemas.Provider.properties).not.toHaveProperty('apiKey');
    // The OpenAI-compatible /v1, with its request bodies from the schemas that check them.
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/v1/models', '/v1/models/{id}', '/v1/chat/completions', '/v1/responses', '/v1/responses/{id}']),
    );
    const completions = doc.paths['/v1/chat/completions'].post;
    expect(JSON.stringify(completions.requestBody)).toContain('messages');
    expect(completions.parameters.map((p: { name: string }) => p.name)).toContain('X-Baton-Chat-Id');
    expect(JSON.stringify(doc.paths['/v1/responses'].post.requestBody)).toContain('previous_response_id');
    expect(JSON.stringify(completions.responses['200'])).toContain('choices');
  });

  it('serves a readable reference page whose assets are local', async () => {
    const page = await t.request('/api/docs');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('/api/openapi.json');
    const asset = await t.request('/api/docs/assets/swagger-ui-bundle.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
  });
});
