import { expect, test } from '@playwright/test';
import { createAgentViaApi, shots, unique } from './helpers';
import { block, composer, getChat, startChat, subAgentDialog, subChats } from './delegation-helpers';

/*
 * One Stop for everything an answer set going: while its sub-agents work, the composer keeps
 * its Stop button, and it ends every one of them. The answer is not continued with
 * "cancelled" results — it stops, as it would while writing.
 */
test('the composer’s Stop ends every running sub-agent and the answer with them', async ({ page, request }) => {
  test.setTimeout(90_000);
  const waiter = await createAgentViaApi(request, { name: unique('Waiter'), description: 'Waits until told.' });
  const helper = await createAgentViaApi(request, { name: unique('Helper'), description: 'Also waits.' });
  const lead = await createAgentViaApi(request, { name: unique('Lead'), description: 'Delegates.', subAgentIds: [waiter.id, helper.id] });
  // [demo:steer] sub-agents wait for a message (up to 30 s): both are still at work when Stop comes.
  const chatId = await startChat(page, lead.name, `/delegate ${waiter.name}: wait here [demo:steer]\n/delegate ${helper.name}: wait too [demo:steer]`);

  const dialog = subAgentDialog(page);
  await expect(dialog.getByText(/Waiting for instructions/).first()).toBeVisible({ timeout: 20_000 });
  await dialog.getByRole('button', { name: 'Minimise', exact: true }).click();
  const stop = page.getByRole('button', { name: 'Stop answering' });
  await expect(stop).toBeVisible();
  await expect(page.getByText('Waiting for 2 sub-agents to finish. Stop ends them all')).toBeVisible();
  await shots(page, 'stop-delegations-before');

  await stop.click();
  await expect(block(page, waiter.name)).toContainText('Cancelled', { timeout: 20_000 });
  await expect(block(page, helper.name)).toContainText('Cancelled');
  // Stopped, not continued: the composer is free again and no answer quotes the results.
  await expect(composer(page)).toBeEnabled();
  await expect(stop).toBeHidden();
  await expect(page.getByText('Here is what came back')).toHaveCount(0);
  await shots(page, 'stop-delegations-after');

  const stored = await getChat(request, chatId);
  expect(stored.activeRun).toBeNull();
  expect(stored.messages.at(-1)!.metadata).toMatchObject({ stopped: true });
  expect((await subChats(request, chatId)).map((c) => c.status)).toEqual(['cancelled', 'cancelled']);

  // The chat goes on from there.
  await composer(page).fill('Carry on without them');
  await composer(page).press('Enter');
  await expect(page.getByText('Carry on without them').first()).toBeVisible();
  await expect(composer(page)).toBeEnabled({ timeout: 20_000 });
});
