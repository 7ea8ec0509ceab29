import { BATON_CHAT_ID_HEADER } from '@baton/schemas';
import { eq } from 'drizzle-orm';
import OpenAI from 'openai';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { file } from '../src/db/schema';
import { FILES } from './support/files';
import { useOpenAiClient } from './support/openai-client';
import { json, useTestApp } from './support/test-app';

// /v1/responses: images and files in input items (the handling Chat Completions has), text.format
// and tool_choice passed on, and a failed answer as an error, streamed or not.
const t = useTestApp({ demoDelayMs: 1 });
const { client, storedAnswer } = useOpenAiClient(t);

type Sent = { messages: { role: string; content: unknown }[]; response_format?: unknown; tool_choice?: unknown };
const sentSince = (before: number) => t.demo.requests.slice(before) as unknown as Sent[];

describe('/v1/responses inputs and parameters', () => {
  it('stores an input_image and an input_file as files of the chat, which the model gets', async () => {
    const png = await sharp({ create: { width: 40, height: 20, channels: 3, background: '#22aa66' } })
      .png()
      .toBuffer();
    const { data, response } = await client()
      .responses.create({
        model: 'assistant',
        input: [
          {
            role: 'user',
            content: [
              { type: 'input_text', text: 'What are these?' },
              { type: 'input_image', image_url: `data:image/png;base64,${png.toString('base64')}`, detail: 'auto' },
              { type: 'input_file', filename: 'paper.pdf', file_data: `data:application/pdf;base64,${FILES.pdf.toString('base64')}` },
            ],
          },
        ],
      })
      .withResponse();
    expect(data.output_text).toContain('I received 2 files:');
    expect(data.output_text).toContain(`- paper.pdf: application/pdf, ${FILES.pdf.length} bytes`);
    const chatId = response.headers.get(BATON_CHAT_ID_HEADER)!;
    const rows = await t.handle.db.select().from(file).where(eq(file.chatId, chatId));
    expect(rows.map((r) => r.mediaType).sort()).toEqual(['application/pdf', 'image/png']);
    const { body } = await storedAnswer(chatId);
    expect(body.messages[0].parts.map((p: { type: string }) => p.type)).toEqual(['text', 'file', 'file']);
  });

  it('passes text.format on as response_format, and tool_choice as Chat Completions names it', async () => {
    const before = t.demo.requests.length;
    const format = { type: 'json_schema' as const, name: 'answer', schema: { type: 'object', properties: { city: { type: 'string' } } }, strict: false };
    const structured = await client().responses.create({ model: 'writer', input: 'Answer in JSON please', text: { format } });
    const [request] = sentSince(before);
    expect(request!.response_format).toEqual({ type: 'json_schema', json_schema: { name: 'answer', schema: format.schema, strict: false } });
    expect(JSON.parse(structured.output_text)).toBeTypeOf('object');
    expect(structured.text?.format).toMatchObject({ type: 'json_schema', name: 'answer' });

    const next = t.demo.requests.length;
    const called = await client().responses.create({
      model: 'writer',
      input: '/tool lookup_weather {"city":"Oslo"}',
      tools: [{ type: 'function', name: 'lookup_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } }, strict: false }],
      tool_choice: { type: 'function', name: 'lookup_weather' },
    });
    expect(sentSince(next)[0]!.tool_choice).toEqual({ type: 'function', function: { name: 'lookup_weather' } });
    expect(called.output.at(-1)).toMatchObject({ type: 'function_call', name: 'lookup_weather' });
  });

  it('reports a failed answer as a server error, and as response.failed and an error event when streamed', async () => {
    const err = await client(t.owner.apiKey, { maxRetries: 2 })
      .responses.create({ model: 'assistant', input: 'Break off [demo:drop]' })
      .catch((e) => e);
    expect(err).toBeInstanceOf(OpenAI.InternalServerError);
    expect(err.headers.get(BATON_CHAT_ID_HEADER)).toBeTruthy();
    // One attempt only: a retry would have started a second chat.
    const { data: sidebar } = await json(await t.request('/api/workspaces/default/chats?limit=100'));
    expect(sidebar.filter((c: { title: string }) => c.title === 'Break off [demo:drop]')).toHaveLength(1);

    const types: string[] = [];
    const streamed = await (async () => {
      for await (const event of await client().responses.create({ model: 'assistant', input: 'Break off too [demo:drop]', stream: true })) {
        types.push(event.type);
        if (event.type === 'response.failed') expect(event.response).toMatchObject({ status: 'failed', error: { message: expect.any(String) } });
      }
    })().catch((e) => e);
    expect(streamed).toBeInstanceOf(OpenAI.APIError);
    expect(types[0]).toBe('response.created');
    expect(types.at(-1)).toBe('response.failed');
  });
});
