import { createServer, type Server } from 'node:http';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { createAgentViaApi, createChatViaApi, shot, unique, WORKSPACE } from './helpers';

/*
 * Everyday chat polish: edit and resend, copy, timestamps, the theme, the model in the
 * header, the favicon, the retrying notice, and accessibility (live region, skip link,
 * touch targets at 390 px). Against the real backend and the offline demo model, whose
 * answer quotes the message it answers.
 */

const messages = (page: Page) => page.getByRole('list', { name: 'Messages' });
const userMessages = (page: Page) => messages(page).getByRole('listitem', { name: 'You' });
const answers = (page: Page) => messages(page).getByRole('listitem', { name: 'Agent' });
const composer = (page: Page) => page.getByLabel('Message', { exact: true });

async function startChat(page: Page, text: string, agent = 'Assistant'): Promise<string> {
  await page.goto(`/w/${WORKSPACE}`);
  await page.getByLabel('Agent', { exact: true }).selectOption({ label: agent });
  await composer(page).fill(text);
  await composer(page).press('Enter');
  await expect(page).toHaveURL(/\/chat\/chat_[\w-]+$/);
  return decodeURIComponent(page.url().split('/chat/')[1]!);
}

async function waitForAnswer(answer: Locator) {
  await expect(answer.getByRole('button', { name: 'Copy answer' })).toBeVisible({ timeout: 20_000 });
}

test('edit the last message and resend it: the answer after it is replaced; copy it; see when it was sent', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.setViewportSize({ width: 1440, height: 900 });
  await startChat(page, 'Tell me about walruses');
  await waitForAnswer(answers(page).last());
  await expect(answers(page).last()).toContainText('Tell me about walruses');

  const mine = userMessages(page).last();
  await mine.hover();
  // Relative time, the exact one on hover.
  const sent = mine.locator('time');
  await expect(sent).toHaveText('just now');
  expect(await sent.getAttribute('title')).toMatch(/\d{4}/);
  await expect(answers(page).last().locator('time')).toHaveText('just now');

  await mine.getByRole('button', { name: 'Copy message' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('Tell me about walruses');

  // Esc keeps the original.
  await mine.getByRole('button', { name: 'Edit message' }).click();
  const box = page.getByRole('textbox', { name: 'Edit message' });
  await expect(box).toBeFocused();
  await expect(box).toHaveValue('Tell me about walruses');
  await box.fill('never sent');
  await box.press('Escape');
  await expect(box).toHaveCount(0);
  await expect(userMessages(page).last()).toContainText('Tell me about walruses');

  await userMessages(page).last().hover();
  await userMessages(page).last().getByRole('button', { name: 'Edit message' }).click();
  await box.fill('Tell me about narwhals');
  await shot(page, 'edit-message-1440');
  await box.press('Enter');
  await expect(userMessages(page)).toHaveCount(1);
  await expect(userMessages(page).last()).toContainText('Tell me about narwhals');
  await waitForAnswer(answers(page).last());
  await expect(answers(page)).toHaveCount(1);
  await expect(answers(page).last()).toContainText('Tell me about narwhals');
  await expect(messages(page)).not.toContainText('walruses');
  // The title came from this message: it follows the edit, in the header and the sidebar.
  await expect(page.getByRole('heading', { name: 'Tell me about narwhals' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name: 'Tell me about narwhals' })).toBeVisible();

  // Stored that way: a reload shows the edited exchange only.
  await page.reload();
  await expect(userMessages(page)).toHaveCount(1);
  await expect(userMessages(page).last()).toContainText('Tell me about narwhals');
  await expect(answers(page).last()).toContainText('Tell me about narwhals');
  await expect(messages(page)).not.toContainText('walruses');
});

test('light/dark/system theme from the account menu, remembered, with no flash on load', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });
  await startChat(page, 'Show me the dark side');
  await waitForAnswer(answers(page).last());
  const html = page.locator('html');

  const pick = async (theme: 'System' | 'Light' | 'Dark') => {
    await page.getByRole('button', { name: /^Account:/ }).click();
    await page.getByRole('menuitemradio', { name: theme }).click();
    await expect(page.getByRole('menuitemradio', { name: theme })).toHaveAttribute('aria-checked', 'true');
    await page.keyboard.press('Escape');
  };

  await pick('Dark');
  await expect(html).toHaveClass(/\bdark\b/);
  expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).not.toBe('rgb(255, 255, 255)');
  await shot(page, 'chat-dark-1440');

  // Remembered, and applied before the page's own scripts run (the first paint is already dark).
  await page.goto(page.url(), { waitUntil: 'domcontentloaded' });
  expect(await page.evaluate(() => document.documentElement.className)).toContain('dark');
  await expect(answers(page).last()).toBeVisible();

  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'chat-dark-390');
  await page.setViewportSize({ width: 1440, height: 900 });

  await pick('Light');
  await expect(html).not.toHaveClass(/\bdark\b/);
  expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(255, 255, 255)');
  await shot(page, 'chat-light-1440');

  // System follows the OS.
  await pick('System');
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(html).toHaveClass(/\bdark\b/);
  await page.emulateMedia({ colorScheme: 'light' });
  await expect(html).not.toHaveClass(/\bdark\b/);
});

test('the chat header names the model; the app has a favicon', async ({ page, request }) => {
  await startChat(page, 'Which model are you?');
  await expect(page.getByTestId('chat-model')).toHaveText('Model: Demo model');

  const provider = await request.post(`/api/workspaces/${WORKSPACE}/providers`, {
    data: { name: unique('Acme AI'), baseUrl: 'https://llm.example/v1', apiKey: null, modelIds: ['acme-large'] },
  });
  expect(provider.status()).toBe(201);
  const { id: providerId, name: providerName } = await provider.json();
  const agent = await createAgentViaApi(request, { name: unique('Acme agent'), providerId, modelId: 'acme-large' });
  const chat = await createChatViaApi(request, { title: unique('Acme chat'), agentId: agent.id });
  await page.goto(`/w/${WORKSPACE}/chat/${chat.id}`);
  await expect(page.getByTestId('chat-model')).toHaveText(`Model: ${providerName} · acme-large`);

  const icon = page.locator('link[rel="icon"]');
  await expect(icon).toHaveAttribute('type', 'image/svg+xml');
  const res = await request.get((await icon.getAttribute('href'))!);
  expect(res.status()).toBe(200);
  expect(await res.text()).toContain('<svg');
});

type ScriptedReply = { fail: true } | { text: string } | { calculator: string };

/**
 * An OpenAI-compatible provider (a stub at the one boundary a test cannot reach: a real
 * provider that fails on cue) answering its calls in turn: a 503, a text, or a calculator call.
 */
async function startScriptedProvider(replies: ScriptedReply[]): Promise<{ baseUrl: string; calls: () => number; server: Server }> {
  let calls = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const reply = replies[Math.min(calls++, replies.length - 1)]!;
      if ('fail' in reply) {
        res.writeHead(503, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'overloaded', type: 'server_error' } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = (delta: object, finish: string | null) =>
        `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 0, model: 'flaky', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      const body =
        'text' in reply
          ? `${chunk({ role: 'assistant', content: reply.text }, null)}${chunk({}, 'stop')}`
          : `${chunk({ role: 'assistant', tool_calls: [{ index: 0, id: `call_${calls}`, type: 'function', function: { name: 'calculator', arguments: JSON.stringify({ expression: reply.calculator }) } }] }, null)}${chunk({}, 'tool_calls')}`;
      res.end(`${body}data: [DONE]\n\n`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { baseUrl: `http://127.0.0.1:${port}/v1`, calls: () => calls, server };
}

async function scriptedAgent(request: APIRequestContext, baseUrl: string, body: Record<string, unknown> = {}) {
  const provider = await request.post(`/api/workspaces/${WORKSPACE}/providers`, {
    data: { name: unique('Flaky'), baseUrl, apiKey: null, modelIds: ['flaky'] },
  });
  expect(provider.status(), await provider.text()).toBe(201);
  return createAgentViaApi(request, { name: unique('Flaky agent'), providerId: (await provider.json()).id, modelId: 'flaky', ...body });
}

test('while the provider is retried the chat says so instead of showing dots', async ({ page, request }) => {
  const flaky = await startScriptedProvider([{ fail: true }, { text: 'Recovered after a retry.' }]);
  try {
    const agent = await scriptedAgent(request, flaky.baseUrl);
    await startChat(page, 'Are you there?', agent.name);
    const notice = messages(page).getByRole('status').filter({ hasText: 'retrying' });
    // It counts down to the next attempt (the AI SDK's backoff: 2 s), then says the attempt is under way.
    await expect(notice.getByTestId('retry-notice')).toHaveText(/^Provider didn’t answer, retrying (in \d s )?\(2\/3\)…$/);
    await expect(notice).toHaveAttribute('title', /HTTP 503/);
    await shot(page, 'chat-retrying-1440');
    await expect(answers(page).last()).toContainText('Recovered after a retry.');
    await expect(notice).toHaveCount(0);
    expect(flaky.calls()).toBe(2);
  } finally {
    flaky.server.close();
  }
});

test('a retry after the first step shows below what arrived, and goes once the provider answers', async ({ page, request }) => {
  const flaky = await startScriptedProvider([{ calculator: '6*7' }, { fail: true }, { text: 'Six times seven is 42.' }]);
  try {
    const agent = await scriptedAgent(request, flaky.baseUrl, { toolIds: ['calculator'] });
    await startChat(page, 'What is six times seven?', agent.name);
    const notice = messages(page).getByRole('status').filter({ hasText: 'retrying' });
    // It counts down to the next attempt (the AI SDK's backoff: 2 s), then says the attempt is under way.
    await expect(notice.getByTestId('retry-notice')).toHaveText(/^Provider didn’t answer, retrying (in \d s )?\(2\/3\)…$/);
    await expect(answers(page).last()).toContainText('calculator');
    await expect(answers(page).last()).toContainText('Six times seven is 42.');
    await expect(notice).toHaveCount(0);
    expect(flaky.calls()).toBe(3);
  } finally {
    flaky.server.close();
  }
});

test('screen readers hear each finished answer once; a skip link leads to the message box', async ({ page }) => {
  await startChat(page, 'First question');
  await waitForAnswer(answers(page).last());
  const announcer = page.getByTestId('answer-announcer');
  await expect(announcer).toHaveAttribute('aria-live', 'polite');
  await expect(announcer).toContainText('The agent answered:');
  await expect(announcer).toContainText('First question');

  // Count what the region says while the next answer streams word by word: once, at the end.
  await page.evaluate(() => {
    const region = document.querySelector('[data-testid="answer-announcer"]')!;
    const said: string[] = [];
    (window as unknown as { said: string[] }).said = said;
    new MutationObserver(() => said.push(region.textContent ?? '')).observe(region, { subtree: true, childList: true, characterData: true });
  });
  await composer(page).fill(`Second question ${Array.from({ length: 60 }, (_, i) => `w${i}`).join(' ')}`);
  await composer(page).press('Enter');
  await waitForAnswer(answers(page).nth(1));
  await expect(announcer).toContainText('Second question');
  const said = await page.evaluate(() => (window as unknown as { said: string[] }).said);
  // Emptied when the answer started (the first one is not kept around), then said once.
  expect(said[0]).toBe('');
  expect(said.filter(Boolean)).toHaveLength(1);
  expect(said.at(-1)).toContain('The agent answered:');

  // Retry (regenerate) empties it too, then says the new answer.
  await page.evaluate(() => {
    (window as unknown as { said: string[] }).said.length = 0;
  });
  await answers(page).nth(1).hover();
  await answers(page).nth(1).getByRole('button', { name: 'Regenerate answer' }).click();
  await expect.poll(() => page.evaluate(() => (window as unknown as { said: string[] }).said[0])).toBe('');
  await expect.poll(() => page.evaluate(() => (window as unknown as { said: string[] }).said.filter(Boolean).length)).toBe(1);

  // The first Tab stop, and where it leads.
  await page.reload();
  await expect(answers(page)).toHaveCount(2);
  await page.locator('body').focus();
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to message box' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(composer(page)).toBeFocused();
});

test.describe('at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('composer buttons, message actions and sidebar items are at least 44 px', async ({ page }) => {
    const title = unique('Touch targets');
    await startChat(page, title);
    await waitForAnswer(answers(page).last());
    const tooSmall: string[] = [];
    const measure = async (what: string, target: Locator, square = false) => {
      await expect(target).toBeVisible();
      const box = (await target.boundingBox())!;
      if (box.height < 44 || (square && box.width < 44)) tooSmall.push(`${what}: ${Math.round(box.width)}×${Math.round(box.height)}`);
    };
    await measure('Send', page.getByRole('button', { name: 'Send message' }), true);
    await measure('Copy answer', answers(page).last().getByRole('button', { name: 'Copy answer' }), true);
    await measure('Regenerate', answers(page).last().getByRole('button', { name: 'Regenerate answer' }), true);
    await measure('Copy message', userMessages(page).last().getByRole('button', { name: 'Copy message' }), true);
    await measure('Edit message', userMessages(page).last().getByRole('button', { name: 'Edit message' }), true);
    await measure('Open sidebar', page.getByRole('button', { name: 'Open sidebar' }), true);
    await shot(page, 'chat-light-390');

    await page.getByRole('button', { name: 'Open sidebar' }).click();
    const drawer = page.getByRole('dialog', { name: 'Navigation' });
    await measure('Close sidebar', drawer.getByRole('button', { name: 'Close sidebar' }), true);
    await measure('New chat', drawer.getByRole('link', { name: 'New chat' }));
    await measure('Agents', drawer.getByRole('link', { name: 'Agents' }));
    await measure('Search chats', drawer.getByRole('combobox', { name: 'Search chats' }));
    await measure('chat link', drawer.getByRole('link', { name: title }));
    await measure('Rename chat', drawer.getByRole('button', { name: `Rename chat ${title}` }), true);
    await measure('Delete chat', drawer.getByRole('button', { name: `Delete chat ${title}` }), true);
    await shot(page, 'drawer-390');
    expect(tooSmall).toEqual([]);
  });
});
