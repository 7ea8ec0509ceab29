import { eq } from 'drizzle-orm';
import { BATON_CHAT_ID_HEADER, fileUrl } from '@baton/schemas';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { file } from '../src/db/schema';
import { FILES } from './support/files';
import { useOpenAiClient } from './support/openai-client';
import { useTestApp } from './support/test-app';

// Issue 20, slice 2: /v1 takes images (image_url) and files (file) in user messages and
// stores them as files of the chat; the model gets them like a browser's.
const t = useTestApp();
const { client, agentNamed, storedAnswer } = useOpenAiClient(t);

describe('/v1 images and files', () => {
  it('the official client sends an image and a PDF: both are stored as files of the chat and the demo model reports them', async () => {
    const assistant = await agentNamed('Assistant');
    const wide = await sharp({ create: { width: 4000, height: 1000, channels: 3, background: '#22aa66' } })
      .png()
      .toBuffer();
    const { data, response } = await client()
      .chat.completions.create({
        model: assistant.id,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What are these?' },
              { type: 'image_url', image_url: { url: `data:image/png;base64,${wide.toString('base64')}` } },
              { type: 'file', file: { filename: 'paper.pdf', file_data: `data:application/pdf;base64,${FILES.pdf.toString('base64')}` } },
            ],
          },
        ],
      })
      .withResponse();
    const answer = data.choices[0]!.message.content!;
    expect(answer).toContain('I received 2 files:');
    expect(answer).toMatch(/- image 1: image\/png, [\d.]+ KiB/);
    expect(answer).toContain(`- paper.pdf: application/pdf, ${FILES.pdf.length} bytes`);

    const chatId = response.headers.get(BATON_CHAT_ID_HEADER)!;
    const rows = await t.handle.db.select().from(file).where(eq(file.chatId, chatId));
    expect(rows.map((r) => [r.mediaType, r.size]).sort()).toEqual([
      ['application/pdf', FILES.pdf.length],
      ['image/png', wide.length],
    ]);
    const { body } = await storedAnswer(chatId);
    const user = body.messages[0];
    expect(user.parts).toEqual([
      { type: 'text', text: 'What are these?' },
      { type: 'file', mediaType: 'image/png', filename: 'attachment.png', url: fileUrl('default', rows.find((r) => r.mediaType === 'image/png')!.id) },
      { type: 'file', mediaType: 'application/pdf', filename: 'paper.pdf', url: fileUrl('default', rows.find((r) => r.mediaType === 'application/pdf')!.id) },
    ]);
    // The model saw the image scaled down.
    const request = t.demo.requests.at(-1)!;
    const parts = request.messages.filter((m) => m.role === 'user').at(-1)!.content as { type: string; image_url?: { url: string } }[];
    const image = parts.find((p) => p.type === 'image_url')!;
    const meta = await sharp(Buffer.from(image.image_url!.url.split(',')[1]!, 'base64')).metadata();
    expect([meta.width, meta.height]).toEqual([2048, 512]);
  });

  it('fetches an https: image through the guarded outbound fetch: a private address is refused and nothing is stored', async () => {
    const assistant = await agentNamed('Assistant');
    const before = await t.snapshot();
    const res = await fetch(`${t.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.owner.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: assistant.id,
        messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://127.0.0.1:9/cat.png' } }] }],
      }),
    });
    expect(res.status).toBe(502);
    expect(JSON.stringify(await res.json())).toMatch(/image could not be loaded/);
    expect(await t.snapshot()).toBe(before);
  });

  it('refuses more than 10 files in one message, storing nothing', async () => {
    const assistant = await agentNamed('Assistant');
    const before = await t.snapshot();
    const tiny = { type: 'file', file: { filename: 'a.txt', file_data: 'data:text/plain;base64,aGk=' } };
    const res = await fetch(`${t.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.owner.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: assistant.id, messages: [{ role: 'user', content: Array.from({ length: 11 }, () => tiny) }] }),
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toMatch(/at most 10 files/);
    expect(await t.snapshot()).toBe(before);
  });
});
