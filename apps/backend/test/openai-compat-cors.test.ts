import { BATON_CHAT_ID_HEADER } from '@baton/schemas';
import { describe, expect, it } from 'vitest';
import { useOpenAiClient } from './support/openai-client';
import { useTestApp } from './support/test-app';

// /v1 from a browser page of another origin: BATON_CORS_ORIGINS lists the origins; a
// preflight needs no API key, every answer (errors too) names the origin, and a page of an
// origin not listed gets no CORS headers at all.
const ALLOWED = 'https://app.example.com';
const t = useTestApp({ demoDelayMs: 1, corsOrigins: [ALLOWED, 'http://localhost:5173'] });
const { agentNamed } = useOpenAiClient(t);

const preflight = (origin: string, path = '/v1/chat/completions') =>
  fetch(`${t.baseUrl}${path}`, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      // What openai-node sends besides its own key and content type.
      'access-control-request-headers': 'authorization,content-type,x-stainless-os,x-stainless-retry-count,x-baton-chat-id',
    },
  });

describe('CORS on /v1', () => {
  it('answers a preflight from a listed origin without an API key', async () => {
    const res = await preflight(ALLOWED);
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
    expect(res.headers.get('access-control-allow-headers')).toContain('x-stainless-os');
    expect(res.headers.get('access-control-allow-headers')).toContain('authorization');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    expect((await preflight(ALLOWED, '/v1/models')).status).toBe(204);
  });

  it('names the origin on answers and errors, and exposes the chat id', async () => {
    const writer = await agentNamed('Writer');
    const res = await fetch(`${t.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { origin: ALLOWED, authorization: `Bearer ${t.owner.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: writer.id, messages: [{ role: 'user', content: 'From a page' }] }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(res.headers.get('access-control-expose-headers')?.toLowerCase()).toContain(BATON_CHAT_ID_HEADER.toLowerCase());
    expect(res.headers.get(BATON_CHAT_ID_HEADER)).toBeTruthy();
    const streamed = await fetch(`${t.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { origin: ALLOWED, authorization: `Bearer ${t.owner.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: writer.id, stream: true, messages: [{ role: 'user', content: 'Streamed to a page' }] }),
    });
    expect(streamed.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(await streamed.text()).toContain('[DONE]');
    const unauthorized = await fetch(`${t.baseUrl}/v1/models`, { headers: { origin: ALLOWED } });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get('access-control-allow-origin')).toBe(ALLOWED);
  });

  it('adds nothing for an origin not listed, and nothing on /api', async () => {
    const res = await preflight('https://evil.example');
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    const models = await fetch(`${t.baseUrl}/v1/models`, { headers: { origin: 'https://evil.example', authorization: `Bearer ${t.owner.apiKey}` } });
    expect(models.status).toBe(200);
    expect(models.headers.get('access-control-allow-origin')).toBeNull();
    const api = await fetch(`${t.baseUrl}/api/health`, { headers: { origin: ALLOWED } });
    expect(api.headers.get('access-control-allow-origin')).toBeNull();
  });
});
