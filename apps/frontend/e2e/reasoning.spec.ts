import { type ProviderSimulator, startProviderSimulator } from '@baton/provider-sim';
import { expect, test } from '@playwright/test';
import { api, lastAnswer, startChat } from './delegation-helpers';
import { createAgentViaApi, shot, unique } from './helpers';

// A reasoning model on a local server that reports no usage: the provider simulator,
// streaming its thinking in `reasoning_content` (DeepSeek, vLLM, Qwen) slowly
// enough to watch, and sending no usage at all.
let sim: ProviderSimulator | undefined;
let simUrl: string;
test.beforeAll(async () => {
  sim = await startProviderSimulator({ delayMs: 150, behaviour: { reasoning: { field: 'reasoning_content', chunks: 16 }, usage: false } });
  simUrl = sim.baseURL;
});
test.afterAll(() => sim?.close());

test('a reasoning model: Thinking… streams collapsed, opens to the thoughts, says how long once done and after a reload; estimated tokens read ≈', async ({
  page,
  request,
}) => {
  const provider = await request.post(`${api}/providers`, { data: { name: unique('Local reasoner'), baseUrl: simUrl, apiKey: null, modelIds: ['qwen3-sim'] } });
  expect(provider.status(), await provider.text()).toBe(201);
  const agent = await createAgentViaApi(request, { name: unique('Thinker'), providerId: ((await provider.json()) as { id: string }).id, modelId: 'qwen3-sim' });

  await startChat(page, agent.name, 'Tell me about otters');
  const thinking = lastAnswer(page).getByTestId('thinking');
  const toggle = thinking.getByRole('button');
  // Streaming, and collapsed: the thoughts are one click away, not in the way.
  await expect(toggle).toHaveText(/^Thinking…/);
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(thinking.getByTestId('thinking-text')).toHaveCount(0);
  // Opened while it streams, the thoughts grow.
  await toggle.click();
  const thoughts = thinking.getByTestId('thinking-text');
  await expect(thoughts).toContainText('Let me think');
  await shot(page, 'reasoning-streaming');
  await expect(thoughts).toContainText('answer briefly.');
  // Done: how long it thought, the answer below it.
  await expect(toggle).toHaveText(/^Thought for \d+ s$/);
  await expect(lastAnswer(page)).toContainText('otters');
  // The answer streams word by word after the thinking: its end is when Stop goes away.
  await expect(page.getByRole('button', { name: 'Stop answering' })).toHaveCount(0, { timeout: 60_000 });
  // No usage from the provider: Baton's own count, said to be an estimate.
  await expect(lastAnswer(page).getByTestId('answer-usage')).toContainText(/≈ [\d,]+ tokens/);
  await expect(page.getByTestId('chat-usage')).toContainText(/≈ [\d,]+ tokens/);
  await shot(page, 'reasoning-done');
  await toggle.click();
  await expect(thoughts).toHaveCount(0);

  // Stored with the answer: after a reload it is there, collapsed, with its time.
  await page.reload();
  const stored = lastAnswer(page).getByTestId('thinking');
  await expect(stored.getByRole('button')).toHaveText(/^Thought for \d+ s$/);
  await expect(stored.getByRole('button')).toHaveAttribute('aria-expanded', 'false');
  await stored.getByRole('button').click();
  await expect(stored.getByTestId('thinking-text')).toContainText('Let me think about this step by step.');
  await expect(lastAnswer(page).getByTestId('answer-usage')).toContainText(/≈ [\d,]+ tokens/);
  await shot(page, 'reasoning-after-reload');
});
