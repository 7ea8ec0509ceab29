import { INTERRUPTED_SUB_AGENT_RESULT } from '@baton/delegation';
import { expect, test } from '@playwright/test';
import { block, getChat, lastAnswer, startChat, startSlowDemoModel, subAgentDialog, subChats, type SlowDemoModel } from './delegation-helpers';
import { restartBackend, shot, WORKSPACE } from './helpers';

/*
 * The server stops while answering (a deploy, a crash): what was written is kept, the
 * answer says why it ends there, and nothing waits forever. The backend is restarted for
 * real (e2e/support/restartable-backend.mjs); a slow demo model keeps the answers running
 * long enough to be cut off.
 */

let slow: SlowDemoModel;
test.beforeAll(async ({ request }, workerInfo) => {
  slow = await startSlowDemoModel(request, workerInfo.project.testDir);
});
test.afterAll(() => slow?.stop());

test('an answer cut off by a server restart says so in place, with Retry, also after a reload', async ({ page, request }) => {
  test.setTimeout(120_000);
  const chatId = await startChat(page, slow.worker, 'Tell me a long story about otters');
  await expect(lastAnswer(page)).toContainText('offline demo model', { timeout: 30_000 });

  await restartBackend(request);
  const interrupted = lastAnswer(page).getByRole('alert');
  await expect(interrupted).toContainText('Interrupted: the server stopped');

  await page.reload();
  await expect(interrupted).toContainText('Interrupted: the server stopped');
  // What was written before the restart is kept.
  await expect(lastAnswer(page)).toContainText('offline demo model');
  await shot(page, 'chat-interrupted');
  const stored = await getChat(request, chatId);
  expect(stored.activeRun).toBeNull();

  // Retry answers the message again.
  await interrupted.getByRole('button', { name: 'Retry' }).click();
  await expect(interrupted).toHaveCount(0);
  await expect(lastAnswer(page)).toContainText('offline demo model', { timeout: 30_000 });
  await page.getByRole('button', { name: 'Stop answering' }).click();
  await expect(lastAnswer(page)).toContainText('Stopped by you');
});

test('a delegation cut off by a restart gets the error result on the next visit, and the parent carries on', async ({ page, request }) => {
  test.setTimeout(120_000);
  const task = 'list the otter holts between the mill and the bridge';
  const chatId = await startChat(page, slow.lead, `/delegate ${slow.worker}: ${task}`);
  await expect(subAgentDialog(page).getByText('Working on it')).toBeVisible({ timeout: 30_000 });

  // The tab goes away, then the server restarts while the sub-agent works.
  await page.goto('about:blank');
  await restartBackend(request);
  const [sub] = await subChats(request, chatId);
  expect(sub).toMatchObject({ status: 'error', delegateResult: INTERRUPTED_SUB_AGENT_RESULT });

  // On the next visit the pending call receives that outcome; the parent answers with it.
  await page.goto(`/w/${WORKSPACE}/chat/${encodeURIComponent(chatId)}`);
  await expect(lastAnswer(page)).toContainText(`${slow.worker} (interrupted): ${INTERRUPTED_SUB_AGENT_RESULT}`, { timeout: 30_000 });
  // The outcome the server decided, not the result text, names it.
  await expect(block(page, slow.worker)).toContainText('Interrupted');
  await expect(block(page, slow.worker)).toHaveAttribute('data-status', 'interrupted');
  await expect(block(page, slow.worker)).toContainText('The sub-agent was interrupted');
  await shot(page, 'delegation-interrupted');
  expect(await subChats(request, chatId)).toHaveLength(1);
});
