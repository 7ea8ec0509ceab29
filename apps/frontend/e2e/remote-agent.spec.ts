import { type A2AAgentSim, startA2AAgentSim } from '@baton/a2a-agent-sim';
import { expect, test } from '@playwright/test';
import { createAgentViaApi, findAgentByName, shots, unique, WORKSPACE } from './helpers';
import { block, lastAnswer, startChat, subAgentDialog, subChats } from './delegation-helpers';

/*
 * A remote A2A agent as a sub-agent, through the real UI: a scripted agent built with
 * @a2a-js/sdk's server (started here, on a loopback port the e2e backend may reach) is added
 * in the editor (Fetch card shows its card), made a sub-agent, delegated to from a chat; its
 * status shows in the modal, it asks for input, the person answers there, and the parent gets
 * its artifact as the result.
 */
let sim: A2AAgentSim;
test.beforeAll(async () => {
  sim = await startA2AAgentSim({ stepMs: 700, name: 'Scripted Remote Agent' });
});
test.afterAll(() => sim?.close());

test('add a remote agent, delegate to it, answer its question from the modal, get its result', async ({ page, request }) => {
  test.setTimeout(120_000);
  const name = unique('Remote');
  await page.goto(`/w/${WORKSPACE}/agents/new`);
  await page.getByLabel('Remote A2A agent').check();
  await page.getByLabel('Name', { exact: true }).fill(name);
  // A card that cannot be read says why.
  await page.getByLabel('Card URL').fill('http://127.0.0.1:2/.well-known/agent-card.json');
  await page.getByRole('button', { name: 'Fetch card' }).click();
  await expect(page.getByTestId('remote-card-error')).toContainText('The agent card could not be read');
  await page.getByLabel('Card URL').fill(sim.cardUrl);
  await page.getByRole('button', { name: 'Fetch card' }).click();
  const card = page.getByTestId('remote-card');
  await expect(card).toContainText('Scripted Remote Agent');
  await expect(card.getByRole('list', { name: 'Skills' })).toContainText('Answer questions');
  await expect(card.getByRole('list', { name: 'Skills' })).toContainText('Ask back');
  // The card's description became the agent's (delegating agents read it).
  await expect(page.getByLabel('Description')).toHaveValue(/scripted A2A agent/);
  await shots(page, 'remote-agent-card');
  await page.getByRole('button', { name: 'Create agent' }).click();
  await expect(page).toHaveURL(new RegExp(`/w/${WORKSPACE}/agents$`));

  const remote = await findAgentByName(request, name);
  expect(remote.remote).toEqual({ cardUrl: sim.cardUrl, headerNames: [] });
  const lead = await createAgentViaApi(request, { name: unique('Lead'), description: 'Delegates to a remote agent.', subAgentIds: [remote.id] });

  const chatId = await startChat(page, lead.name, `/delegate ${name}: ask me a report`);
  const dialog = subAgentDialog(page);
  await expect(dialog.getByText('Working on: ask me a report')).toBeVisible({ timeout: 30_000 });
  await expect(dialog.getByText('Which format should the answer have?')).toBeVisible({ timeout: 20_000 });
  await shots(page, 'remote-agent-asks');
  const box = dialog.getByLabel(`Message to ${name} while it works`);
  await box.fill('a table');
  await box.press('Enter');

  await expect(lastAnswer(page)).toContainText('Remote answer: ask me a report (format: a table)', { timeout: 30_000 });
  const delegated = block(page, name);
  await expect(delegated).toContainText('Done');
  await expect(delegated.getByTestId('usage-unknown')).toContainText('usage unknown');
  await shots(page, 'remote-agent-result');

  const [sub] = await subChats(request, chatId);
  expect(sub).toMatchObject({ outcome: 'success', delegateResult: 'Remote answer: ask me a report (format: a table)' });
  expect(sim.log.received).toEqual(['ask me a report', 'a table']);
});
