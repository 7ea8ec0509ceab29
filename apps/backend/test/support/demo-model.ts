import { serve } from '@hono/node-server';
import { createDemoLlmApp } from '@baton/demo-llm';
import { Hono } from 'hono';

export interface RecordedRequest {
  messages: { role: string; content: unknown }[];
  tools?: { function: { name: string; description?: string } }[];
}

export interface RecordingDemoModel {
  baseURL: string;
  /** Every chat-completions request the backend sent, for asserting which tools and prompts it offered. */
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/**
 * The real demo model over a real socket, with a thin recorder in front: the backend talks
 * to it through @ai-sdk/openai exactly as it would to a provider.
 */
export async function startRecordingDemoModel({ delayMs = 1 } = {}): Promise<RecordingDemoModel> {
  const demo = createDemoLlmApp({ delayMs });
  const requests: RecordedRequest[] = [];
  const app = new Hono().all('*', async (c) => {
    if (c.req.method === 'POST') requests.push(await c.req.raw.clone().json());
    return demo.fetch(c.req.raw);
  });
  const { server, port } = await new Promise<{ server: ReturnType<typeof serve>; port: number }>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => resolve({ server: s, port: info.port }));
  });
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export function toolNames(request: RecordedRequest): string[] {
  return (request.tools ?? []).map((t) => t.function.name).sort();
}

export function systemPrompt(request: RecordedRequest): string {
  const system = request.messages.find((m) => m.role === 'system');
  return typeof system?.content === 'string' ? system.content : JSON.stringify(system?.content ?? '');
}
