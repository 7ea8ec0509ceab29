import { describe, expect, it } from 'vitest';
import { json, useTestApp } from './support/test-app';

const t = useTestApp();
const providers = '/api/workspaces/default/providers';
const SECRET = 'sk-test-super-secret-key-123';

describe('providers', () => {
  it('stores the API key but never returns it', async () => {
    const res = await t.request(providers, {
      json: { name: 'OpenRouter', baseUrl: 'https://openrouter.example/api/v1', apiKey: SECRET, modelIds: ['a', 'b'] },
    });
    expect(res.status).toBe(201);
    const text = await res.text();
    expect(text).not.toContain(SECRET);
    const created = JSON.parse(text);
    expect(created).toMatchObject({ name: 'OpenRouter', hasApiKey: true, modelIds: ['a', 'b'] });
    expect(created).not.toHaveProperty('apiKey');

    for (const path of [providers, `${providers}/${created.id}`]) {
      expect(await (await t.request(path)).text()).not.toContain(SECRET);
    }
    const patched = await t.request(`${providers}/${created.id}`, { method: 'PATCH', json: { name: 'Renamed' } });
    const patchedText = await patched.text();
    expect(patchedText).not.toContain(SECRET);
    expect(JSON.parse(patchedText)).toMatchObject({ name: 'Renamed', hasApiKey: true });

    const cleared = await json(await t.request(`${providers}/${created.id}`, { method: 'PATCH', json: { apiKey: null } }));
    expect(cleared.hasApiKey).toBe(false);
  });

  it('validates the base URL', async () => {
    for (const baseUrl of ['not a url', 'ftp://example.com', '']) {
      const before = await t.snapshot();
      const res = await t.request(providers, { json: { name: 'Bad', baseUrl } });
      expect(res.status).toBe(400);
      expect((await json(res)).error.details).toEqual(expect.arrayContaining([expect.objectContaining({ path: ['baseUrl'] })]));
      expect(await t.snapshot()).toBe(before);
    }
  });

  it('supports get, list, delete and 404s', async () => {
    const p = await json(await t.request(providers, { json: { name: 'Ollama', baseUrl: 'http://127.0.0.1:11434/v1' } }));
    expect(p.hasApiKey).toBe(false);
    const list = await json(await t.request(providers));
    expect(list.data.map((x: { id: string }) => x.id)).toContain(p.id);
    expect((await t.request(`${providers}/${p.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await t.request(`${providers}/${p.id}`)).status).toBe(404);
    expect((await t.request(`${providers}/${p.id}`, { method: 'PATCH', json: { name: 'x' } })).status).toBe(404);
  });
});
