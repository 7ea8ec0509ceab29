import { expect, test } from '@playwright/test';
import OpenAI from 'openai';
import { block, lastAnswer } from './delegation-helpers';
import { shots, sidebar, unique, WORKSPACE } from './helpers';

/*
 * The OpenAI-compatible API from Node, through the web app's address (Next proxies /v1 like
 * /api): the official client lists the agents and streams an answer that delegated; the
 * chat then appears in the sidebar with its delegation, as if it had been typed in Baton.
 */
test('an OpenAI client lists the agents and streams a delegated answer, which then shows in the sidebar', async ({ page, request, baseURL }) => {
  const keyName = unique('OpenAI client');
  const res = await request.post(`/api/workspaces/${WORKSPACE}/api-keys`, { data: { name: keyName } });
  expect(res.status()).toBe(201);
  const { key } = (await res.json()) as { key: string };
  const client = new OpenAI({ baseURL: `${baseURL}/v1`, apiKey: key, maxRetries: 0 });

  const { data: models } = await client.models.list();
  const assistant = models.find((m) => m.owned_by === 'Assistant');
  expect(assistant).toBeTruthy();

  const task = unique('facts about otters');
  const { data: stream, response } = await client.chat.completions
    .create({ model: assistant!.id, stream: true, messages: [{ role: 'user', content: `/delegate Researcher: ${task}` }] })
    .withResponse();
  const deltas: string[] = [];
  for await (const chunk of stream) {
    const content = chunk.choices[0]?.delta.content;
    if (content) deltas.push(content);
  }
  // Token by token through the proxy, the answer's text after the sub-agent's result included.
  expect(deltas.length).toBeGreaterThan(5);
  expect(deltas.join('')).toContain(`Done: ${task}`);
  const chatId = response.headers.get('x-baton-chat-id')!;

  await page.goto(`/w/${WORKSPACE}`);
  const link = sidebar(page).getByRole('link', { name: `Researcher: ${task}` });
  await expect(link).toBeVisible();
  // Marked as a program's chat, with the key it was started with; the list can hide such chats.
  const item = sidebar(page)
    .getByRole('listitem')
    .filter({ has: page.getByRole('link', { name: `Researcher: ${task}` }) });
  await expect(item.getByRole('img', { name: `Started through the API with the key “${keyName}”` })).toBeVisible();
  await shots(page, 'openai-api-sidebar-mark');
  const hide = sidebar(page).getByRole('button', { name: 'Hide API chats' });
  await hide.click();
  await expect(hide).toHaveAttribute('aria-pressed', 'true');
  await expect(link).toHaveCount(0);
  // Remembered by this browser across a reload.
  await page.reload();
  await expect(sidebar(page).getByRole('button', { name: 'Hide API chats' })).toHaveAttribute('aria-pressed', 'true');
  await expect(link).toHaveCount(0);
  await sidebar(page).getByRole('button', { name: 'Hide API chats' }).click();
  await expect(link).toBeVisible();
  await link.click();
  await expect(page).toHaveURL(new RegExp(`/chat/${chatId}$`));
  await expect(block(page, 'Researcher')).toBeVisible();
  await expect(lastAnswer(page)).toContainText(`Done: ${task}`);
  await shots(page, 'openai-api-chat');
});
