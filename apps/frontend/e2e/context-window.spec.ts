import { type ProviderSimulator, startProviderSimulator } from '@baton/provider-sim';
import { expect, test, type Page } from '@playwright/test';
import { createAgentViaApi, shot, unique, WORKSPACE } from './helpers';

// The provider simulator: a provider whose models have a 1,500-token
// context window, reported in its model list and enforced (OpenAI's context_length_exceeded).
const WINDOW = 1_500;
let sim: ProviderSimulator | undefined;
let simUrl: string;
test.beforeAll(async () => {
  sim = await startProviderSimulator({ delayMs: 1, behaviour: { contextWindow: WINDOW } });
  simUrl = sim.baseURL;
});
test.afterAll(() => sim?.close());

const composer = (page: Page) => page.getByLabel('Message', { exact: true });
const answers = (page: Page) => page.getByRole('list', { name: 'Messages' }).getByRole('listitem', { name: 'Agent' });
const longText = (turn: number) => `Turn ${turn}: ${'The otters keep a careful ledger of every pebble they find along the river. '.repeat(16)}`;

test('provider form: the context window comes from the model list, and can be changed', async ({ page }) => {
  const name = unique('Windowed LLM');
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/w/${WORKSPACE}/settings/providers`);
  await page.getByRole('button', { name: 'Add provider' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Add provider' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByLabel('Base URL').fill(simUrl);
  await dialog.getByRole('button', { name: 'Test connection' }).click();
  await expect(dialog.getByRole('status')).toHaveText('Connected: 1 model');
  await expect(dialog.getByText('1,500 tokens')).toBeVisible();
  await dialog.getByRole('checkbox', { name: /sim-model/ }).check();
  const window = dialog.getByLabel('Context window of sim-model, in tokens');
  await expect(window).toHaveValue('1500');
  await shot(page, 'provider-context-window-1440');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'provider-context-window-390');
  await page.setViewportSize({ width: 1440, height: 900 });
  await dialog.getByRole('button', { name: 'Add provider' }).click();
  await expect(dialog).toBeHidden();

  // Editing: a person's value is kept, and a bad one is refused with a reason.
  const item = page.getByRole('listitem', { name });
  await item.getByRole('button', { name: `Edit provider ${name}` }).click();
  const edit = page.getByRole('dialog', { name: `Edit ${name}` });
  const editWindow = edit.getByLabel('Context window of sim-model, in tokens');
  await expect(editWindow).toHaveValue('1500');
  await editWindow.fill('4k');
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(edit.getByText('The context window of sim-model must be a whole number of tokens from 256 to 10,000,000.')).toBeVisible();
  await editWindow.fill('1,200');
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(edit).toBeHidden();
  await item.getByRole('button', { name: `Edit provider ${name}` }).click();
  await expect(page.getByRole('dialog', { name: `Edit ${name}` }).getByLabel('Context window of sim-model, in tokens')).toHaveValue('1200');
});

test('a chat longer than the model’s window says that earlier messages were left out, and the answers go on', async ({ page }) => {
  const res = await page.request.post(`/api/workspaces/${WORKSPACE}/providers`, {
    data: { name: unique('Small window'), baseUrl: simUrl, apiKey: null, modelIds: ['sim-model'], contextWindows: { 'sim-model': WINDOW } },
  });
  expect(res.status(), await res.text()).toBe(201);
  const agent = await createAgentViaApi(page.request, { name: unique('Short memory'), providerId: (await res.json()).id, modelId: 'sim-model' });
  await page.goto(`/w/${WORKSPACE}`);
  await page.getByLabel('Agent', { exact: true }).selectOption({ label: agent.name });
  for (let turn = 1; turn <= 4; turn++) {
    await composer(page).fill(longText(turn));
    await composer(page).press('Enter');
    await expect(
      answers(page)
        .nth(turn - 1)
        .getByRole('button', { name: 'Copy answer' }),
    ).toBeVisible({ timeout: 20_000 });
  }
  // The first answers fit; a later one was given only the most recent messages.
  await expect(answers(page).first().getByTestId('context-trimmed')).toHaveCount(0);
  const notice = answers(page).last().getByTestId('context-trimmed');
  await expect(notice).toHaveText(/^Earlier messages were left out to fit the model’s context window \(\d+ of \d+ messages sent\)\.$/);
  await expect(answers(page).last().getByRole('alert')).toHaveCount(0);
  await shot(page, 'chat-context-trimmed-1280');
  // Stored with the answer: still there after a reload.
  await page.reload();
  await expect(answers(page).last().getByTestId('context-trimmed')).toBeVisible();
});
