import OpenAI from 'openai';
import { beforeAll } from 'vitest';
import { seedStarterAgents } from '../../src/services/starter-agents';
import { json, type TestApp } from './test-app';

const ws = '/api/workspaces/default';

type ClientOptions = Partial<ConstructorParameters<typeof OpenAI>[0]>;

/**
 * The official OpenAI client against the test app's real socket, unchanged apart from
 * `baseURL` and `apiKey` (retries off unless a test turns them on), and the starter agents
 * of a fresh instance in the default workspace (bootstrap seeds them; the test app does not).
 */
export function useOpenAiClient(t: TestApp) {
  beforeAll(async () => {
    await seedStarterAgents(t.handle.db);
  });

  const client = (apiKey = t.owner.apiKey, options: ClientOptions = {}) => new OpenAI({ baseURL: `${t.baseUrl}/v1`, apiKey, maxRetries: 0, ...options });

  async function agentNamed(name: string): Promise<{ id: string; name: string; description: string }> {
    const { data } = await json(await t.request(`${ws}/agents?limit=100`));
    return data.find((a: { name: string }) => a.name === name);
  }

  /** The stored chat and its last message, with that message's text parts joined as /v1 joins them. */
  async function storedAnswer(chatId: string) {
    const body = await json(await t.request(`${ws}/chats/${chatId}`));
    const last = body.messages.at(-1);
    const text = last.parts
      .filter((p: { type: string }) => p.type === 'text')
      .map((p: { text: string }) => p.text)
      .join('\n\n');
    return { body, last, text };
  }

  async function waitUntilIdle(chatId: string) {
    while (await t.isAnswering(chatId)) await new Promise((r) => setTimeout(r, 20));
  }

  return { client, agentNamed, storedAnswer, waitUntilIdle };
}

/** Reads a stream to its end: every chunk, the content deltas, and their text. */
export async function collect(stream: AsyncIterable<OpenAI.Chat.Completions.ChatCompletionChunk>) {
  const chunks: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  const deltas = chunks.flatMap((c) => (c.choices[0]?.delta.content ? [c.choices[0].delta.content] : []));
  return { chunks, deltas, text: deltas.join('') };
}
