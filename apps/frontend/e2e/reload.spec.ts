import { expect, test } from '@playwright/test';
import { composer, getChat, lastAnswer, startChat, startSlowDemoModel, type SlowDemoModel } from './delegation-helpers';
import { shot } from './helpers';

/*
 * A reload while the agent is still answering: the server keeps the turn going and stores
 * its progress every second; the reloaded page has no stream to read, so it follows the
 * stored answer until the turn ends. The agent answers through a slow demo model
 * (250 ms a word) so the answer is still running when the page comes back.
 */

let slow: SlowDemoModel;
test.beforeAll(async ({ request }, workerInfo) => {
  slow = await startSlowDemoModel(request, workerInfo.project.testDir);
});
test.afterAll(() => slow?.stop());

test('a page reloaded mid-answer follows the answer as it grows, and Stop still works', async ({ page, request }) => {
  test.setTimeout(90_000);
  const chatId = await startChat(page, slow.worker, 'Tell me a long story about otters');
  const answer = lastAnswer(page);
  await expect(answer).toContainText('offline demo model', { timeout: 20_000 });

  await page.reload();
  // No stream in this tab now: the stored answer is shown, and it keeps growing.
  await expect(lastAnswer(page)).toContainText('offline demo model', { timeout: 15_000 });
  const first = (await lastAnswer(page).innerText()).length;
  await expect.poll(async () => (await lastAnswer(page).innerText()).length, { timeout: 15_000 }).toBeGreaterThan(first);
  await expect(composer(page)).toBeVisible();
  await shot(page, 'chat-reload-following');

  // The server is still answering, so Stop is offered and stops it there.
  await page.getByRole('button', { name: 'Stop answering' }).click();
  await expect(page.getByRole('button', { name: 'Stop answering' })).toBeHidden({ timeout: 15_000 });
  await expect.poll(async () => (await getChat(request, chatId)).answering, { timeout: 15_000 }).toBe(false);
  const stored = await getChat(request, chatId);
  expect((stored.messages.at(-1)!.metadata as { stopped?: boolean }).stopped).toBe(true);
});
