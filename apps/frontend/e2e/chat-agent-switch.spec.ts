import { expect, test, type Page } from '@playwright/test';
import { createAgentViaApi, createChatViaApi, shot, shots, unique, WORKSPACE } from './helpers';

/*
 * Switching a chat's agent (and, for agents that allow it, its model) from the header: the
 * next answer is the new agent's, each answer says who wrote it, a line marks the switch,
 * and a reload keeps all of it. Against the real backend and the offline demo model.
 */

const messages = (page: Page) => page.getByRole('list', { name: 'Messages' });
const answers = (page: Page) => messages(page).getByRole('listitem', { name: 'Agent' });
const composer = (page: Page) => page.getByLabel('Message', { exact: true });
const picker = (page: Page) => page.getByTestId('chat-agent-picker');

async function waitForAnswer(page: Page, count: number) {
  await expect(answers(page)).toHaveCount(count, { timeout: 20_000 });
  await expect(answers(page).last().getByRole('button', { name: 'Copy answer' })).toBeVisible({ timeout: 20_000 });
}

test('switch the agent in the header, send, see the new agent named on the answer; a reload keeps it', async ({ page, request }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const alpha = await createAgentViaApi(request, { name: unique('Alpha'), description: 'Answers first' });
  const beta = await createAgentViaApi(request, { name: unique('Beta'), description: 'Answers second' });
  // Past eight agents the menu has a search box.
  for (let i = 0; i < 7; i++) await createAgentViaApi(request, { name: unique(`Filler ${i}`) });

  await page.goto(`/w/${WORKSPACE}`);
  await page.getByLabel('Agent', { exact: true }).selectOption({ label: alpha.name });
  await composer(page).fill('First question');
  await composer(page).press('Enter');
  await expect(page).toHaveURL(/\/chat\/chat_[\w-]+$/);
  await waitForAnswer(page, 1);
  await expect(answers(page).first().getByTestId('answer-author')).toHaveText(`${alpha.name} · baton-demo`);
  await expect(picker(page)).toHaveText(`with ${alpha.name}`);

  // By keyboard: open the menu, search, arrow down into the list, choose.
  await picker(page).focus();
  await page.keyboard.press('Enter');
  const search = page.getByRole('searchbox', { name: 'Search agents' });
  await expect(search).toBeVisible();
  const radios = page.getByRole('menuitemradio');
  // Alphabetical, the current agent checked.
  const names = await radios.allTextContents();
  expect(names.length).toBeGreaterThan(8);
  await expect(page.getByRole('menuitemradio', { name: alpha.name })).toHaveAttribute('aria-checked', 'true');
  const firstLines = await radios.evaluateAll((items) => items.map((i) => i.querySelector('.font-medium')?.textContent ?? ''));
  const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });
  expect(firstLines).toEqual([...firstLines].sort(collator.compare));
  await expect(search).toBeFocused();
  await page.keyboard.type(beta.name.slice(0, 6));
  await expect(radios).toHaveCount(1);
  await shot(page, 'agent-switch-menu-1440');
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('menuitemradio', { name: beta.name })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('menu')).toHaveCount(0);
  await expect(picker(page)).toHaveText(`with ${beta.name}`);
  await expect(page.getByTestId('agent-switch-pending')).toHaveText(`Switched to ${beta.name}: it answers your next message`);

  await composer(page).fill('Second question');
  await composer(page).press('Enter');
  await waitForAnswer(page, 2);
  await expect(answers(page).last().getByTestId('answer-author')).toHaveText(`${beta.name} · baton-demo`);
  await expect(page.getByTestId('agent-switch-notice')).toHaveText(`Switched to ${beta.name}`);
  await expect(page.getByTestId('agent-switch-pending')).toHaveCount(0);

  await page.reload();
  await waitForAnswer(page, 2);
  await expect(picker(page)).toHaveText(`with ${beta.name}`);
  await expect(answers(page).first().getByTestId('answer-author')).toHaveText(`${alpha.name} · baton-demo`);
  await expect(answers(page).last().getByTestId('answer-author')).toHaveText(`${beta.name} · baton-demo`);
  await expect(page.getByTestId('agent-switch-notice')).toHaveCount(1);
  await shots(page, 'agent-switch');

  // On a phone the header's picker works the same.
  await page.setViewportSize({ width: 390, height: 844 });
  await picker(page).click();
  await expect(page.getByRole('menuitemradio', { name: beta.name })).toHaveAttribute('aria-checked', 'true');
  await shot(page, 'agent-switch-menu-390');
  await page.keyboard.press('Escape');
  await expect(picker(page)).toBeFocused();
});

test('an agent that allows it: choose the chat’s model in the header menu; a reload keeps it', async ({ page, request }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const provider = await request.post(`/api/workspaces/${WORKSPACE}/providers`, {
    data: { name: unique('Acme AI'), baseUrl: 'https://llm.example/v1', apiKey: null, modelIds: ['acme-large', 'acme-small'] },
  });
  expect(provider.status()).toBe(201);
  const { id: providerId, name: providerName } = await provider.json();
  const agent = await createAgentViaApi(request, { name: unique('Flexible'), providerId, modelId: 'acme-large', allowModelOverride: true });
  const chat = await createChatViaApi(request, { title: unique('Model chat'), agentId: agent.id });
  await page.goto(`/w/${WORKSPACE}/chat/${chat.id}`);
  await expect(page.getByTestId('chat-model')).toHaveText(`Model: ${providerName} · acme-large`);

  await picker(page).click();
  await expect(page.getByRole('group', { name: 'Model for this chat' }).getByRole('menuitemradio')).toHaveText(['acme-large (the agent’s)', 'acme-small']);
  await shot(page, 'agent-switch-model-menu-1440');
  await page.getByRole('menuitemradio', { name: 'acme-small' }).click();
  await expect(page.getByTestId('chat-model')).toHaveText(`Model: ${providerName} · acme-small`);
  await page.reload();
  await expect(page.getByTestId('chat-model')).toHaveText(`Model: ${providerName} · acme-small`);
  await shots(page, 'agent-switch-model');
});
