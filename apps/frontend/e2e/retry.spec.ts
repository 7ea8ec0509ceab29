import { expect, test } from '@playwright/test';
import { createAgentViaApi, shots, unique } from './helpers';
import { block, getChat, lastAnswer, startChat, subAgentDialog, subChats } from './delegation-helpers';

/*
 * Retrying one delegation through the real UI, backend and demo model: the Retry action on a
 * finished delegation block, a dialog to pick another sub-agent and edit the task, the new
 * attempt in the modal, the parent's answer written again, and the earlier attempt reachable.
 */

test('retry a delegation with another sub-agent and an edited task: the parent answers again with the new result', async ({ page, request }) => {
  test.setTimeout(90_000);
  const researcher = await createAgentViaApi(request, { name: unique('Researcher'), description: 'Finds facts.' });
  const poet = await createAgentViaApi(request, { name: unique('Poet'), description: 'Writes short poems.' });
  const lead = await createAgentViaApi(request, { name: unique('Lead'), description: 'Delegates.', subAgentIds: [researcher.id, poet.id] });
  const chatId = await startChat(page, lead.name, `/delegate ${researcher.name}: facts about otters`);

  await expect(lastAnswer(page)).toContainText(`${researcher.name} (success): Done: facts about otters`, { timeout: 30_000 });
  await expect(subAgentDialog(page)).toBeHidden({ timeout: 15_000 });

  // Retry → a dialog with the sub-agent (same or another) and the task, prefilled.
  await block(page, researcher.name)
    .getByRole('button', { name: `Retry the delegation to ${researcher.name}` })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Retry this delegation' });
  const agentSelect = dialog.getByLabel('Sub-agent');
  await expect(agentSelect).toHaveValue(researcher.id);
  await expect(dialog.getByLabel('Task')).toHaveValue('facts about otters');
  await agentSelect.selectOption({ label: poet.name });
  await dialog.getByLabel('Task').fill('a haiku about otters');
  await shots(page, 'retry-dialog');
  await dialog.getByRole('button', { name: 'Run again' }).click();
  await expect(dialog).toBeHidden();

  // The parent's answer is written again from the new attempt's result.
  await expect(lastAnswer(page)).toContainText(`${poet.name} (success): Done: a haiku about otters`, { timeout: 30_000 });
  await expect(lastAnswer(page)).not.toContainText('Done: facts about otters');
  await expect(subAgentDialog(page)).toBeHidden({ timeout: 15_000 });

  // The block names the new sub-agent and its attempt; the first attempt stays one click away.
  const retried = block(page, poet.name);
  const attempts = retried.getByRole('navigation', { name: `Attempts of the delegation to ${poet.name}` });
  await expect(attempts).toContainText('Attempt 2 of 2');
  // The answer has finished streaming once Retry is offered again.
  await expect(retried.getByRole('button', { name: `Retry the delegation to ${poet.name}` })).toBeEnabled({ timeout: 15_000 });
  await shots(page, 'retry-answered');
  // The header's usage is read again after the retried answer: it counts both attempts, as the API does.
  const usage = (await getChat(request, chatId)).usage!;
  const delegated = usage.delegated.inputTokens + usage.delegated.outputTokens;
  await expect(page.getByTestId('chat-usage')).toContainText(`+ ${delegated.toLocaleString('en-US')} delegated`);
  await attempts.getByRole('button', { name: 'Attempt 1' }).click();
  const viewer = page.getByRole('dialog', { name: 'Sub-chat' });
  await expect(viewer.getByRole('group', { name: 'Task result' })).toContainText('Done: facts about otters');
  await viewer.getByRole('button', { name: 'Close' }).click();

  const stored = await subChats(request, chatId);
  expect(stored.map((s) => [s.attempt, s.agentId, s.delegateTask])).toEqual([
    [1, researcher.id, 'facts about otters'],
    [2, poet.id, 'a haiku about otters'],
  ]);

  // After a reload the same: the answer, the new sub-agent, both attempts.
  await page.reload();
  await expect(lastAnswer(page)).toContainText(`${poet.name} (success): Done: a haiku about otters`);
  await expect(block(page, poet.name).getByRole('navigation', { name: `Attempts of the delegation to ${poet.name}` })).toContainText('Attempt 2 of 2');
});

test('the new attempt runs in the modal, numbered, and can be steered like any running sub-agent', async ({ page, request }) => {
  test.setTimeout(90_000);
  const planner = await createAgentViaApi(request, { name: unique('Planner'), description: 'Plans trips.' });
  const lead = await createAgentViaApi(request, { name: unique('Lead'), description: 'Delegates.', subAgentIds: [planner.id] });
  await startChat(page, lead.name, `/delegate ${planner.name}: plan a trip`);
  await expect(lastAnswer(page)).toContainText(`${planner.name} (success): Done: plan a trip`, { timeout: 30_000 });
  await expect(subAgentDialog(page)).toBeHidden({ timeout: 15_000 });

  await block(page, planner.name)
    .getByRole('button', { name: `Retry the delegation to ${planner.name}` })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Retry this delegation' });
  // The same sub-agent, an edited task: this time it waits for a word from the person.
  await dialog.getByLabel('Task').fill('plan a trip [demo:steer]');
  await dialog.getByRole('button', { name: 'Run again' }).click();

  const modal = page.getByRole('dialog', { name: planner.name });
  await expect(modal.getByRole('group', { name: 'Sub-agent progress' })).toContainText('Attempt 2', { timeout: 20_000 });
  const box = modal.getByLabel(`Message to ${planner.name} while it works`);
  await box.fill('Somewhere warm');
  await box.press('Enter');
  await expect(lastAnswer(page)).toContainText('Latest instruction: Somewhere warm', { timeout: 30_000 });
  await shots(page, 'retry-steered');
});
