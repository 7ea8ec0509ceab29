import { expect, test, type Page } from '@playwright/test';
import { createAgentViaApi, shots, unique } from './helpers';
import { block, lastAnswer, startChat, subAgentDialog, subChats, api } from './delegation-helpers';

/*
 * Steering a running sub-agent through the real UI, backend and demo model. A sub-agent whose
 * task contains `[demo:steer]` waits (a half-second note step at a time) for a message from the
 * person and reports the latest one in its result.
 */

async function team(request: Parameters<typeof createAgentViaApi>[0]) {
  const planner = await createAgentViaApi(request, { name: unique('Planner'), description: 'Plans trips, and listens while it works.' });
  const lead = await createAgentViaApi(request, { name: unique('Lead'), description: 'Delegates trip planning.', subAgentIds: [planner.id] });
  return { lead, planner };
}

/** Every status a steering bubble showed, in order (a MutationObserver, so a short "queued" is not missed). */
async function recordSteeringStatuses(page: Page) {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { steeringSeen: string[] }).steeringSeen = seen;
    const note = () => {
      for (const el of document.querySelectorAll('[data-testid="steering-message"]')) {
        const status = el.getAttribute('data-status') ?? '';
        if (seen.at(-1) !== status) seen.push(status);
      }
    };
    new MutationObserver(note).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-status'] });
  });
}

test('a message typed into a running sub-agent is queued, delivered at its next step, and changes the result the parent gets', async ({ page, request }) => {
  test.setTimeout(90_000);
  const { lead, planner } = await team(request);
  const chatId = await startChat(page, lead.name, `/delegate ${planner.name}: plan a weekend trip [demo:steer]`);

  const dialog = subAgentDialog(page);
  const box = dialog.getByLabel(`Message to ${planner.name} while it works`);
  await expect(box).toBeVisible({ timeout: 20_000 });
  // It is waiting: its notes say so.
  await expect(dialog.getByText(/Waiting for instructions \(\d+ of 60\)/).first()).toBeVisible();
  await box.fill('Go to Porto, and book a river cruise 🚢');
  await shots(page, 'steer-typing');

  await recordSteeringStatuses(page);
  await box.press('Enter');
  await expect(box).toHaveValue('');

  // The parent continues with a result that carries the instruction.
  await expect(lastAnswer(page)).toContainText('Latest instruction: Go to Porto, and book a river cruise 🚢', { timeout: 30_000 });
  // Steering is not reading: the run ended, so the modal stepped aside for the parent's answer
  // (issue 17), and focus went back to the page. The sub-chat, opened from its block below,
  // shows the message where the sub-agent read it.
  await expect(dialog).toBeHidden();
  await expect.poll(() => page.evaluate(() => document.activeElement !== document.body)).toBe(true);
  await shots(page, 'steer-delivered');
  const seen = await page.evaluate(() => (window as unknown as { steeringSeen: string[] }).steeringSeen);
  // Sent, then delivered. "Queued" shows in between whenever the server's 202 reaches the page
  // before the sub-agent's next step does; on a busy machine the step can win, and the bubble
  // goes from sending straight to delivered (the REST tests cover the queued state itself).
  expect(seen[0]).toBe('sending');
  expect(seen.at(-1)).toBe('delivered');
  if (seen.includes('queued')) expect(seen.indexOf('queued')).toBeLessThan(seen.lastIndexOf('delivered'));
  expect(seen).not.toContain('not_delivered');

  // Stored: delivered at a step of the sub-agent, and in its transcript where it was read.
  const [sub] = await subChats(request, chatId);
  expect(sub).toMatchObject({ outcome: 'success' });
  const steering = await (await request.get(`${api}/chats/${sub!.id}/steering`)).json();
  expect(steering.data).toEqual([expect.objectContaining({ text: 'Go to Porto, and book a river cruise 🚢', status: 'delivered' })]);

  // The sub-chat, opened again from the block, shows the message as delivered in its transcript.
  const planned = block(page, planner.name);
  await expect(planned).toContainText('Done');
  await planned.getByRole('button', { name: `View the sub-chat of ${planner.name}` }).click();
  const viewer = page.getByRole('dialog', { name: 'Sub-chat' });
  const bubble = viewer.getByTestId('steering-message');
  await expect(bubble).toContainText('Go to Porto, and book a river cruise 🚢');
  await expect(bubble).toHaveAttribute('data-status', 'delivered');
  await expect(bubble).toContainText('Delivered to the sub-agent');
  await shots(page, 'steer-viewer');
});

test('a nested sub-agent, run by the server, is steered from the sub-chat viewer', async ({ page, request }) => {
  test.setTimeout(90_000);
  const writer = await createAgentViaApi(request, { name: unique('Writer'), description: 'Writes postcards, and listens while it works.' });
  const researcher = await createAgentViaApi(request, { name: unique('Researcher'), description: 'Hands writing on.', subAgentIds: [writer.id] });
  const lead = await createAgentViaApi(request, {
    name: unique('Lead'),
    description: 'Delegates two levels deep.',
    subAgentIds: [researcher.id],
    delegation: { maxDepth: 2 },
  });
  await startChat(page, lead.name, `/delegate ${researcher.name}: /delegate ${writer.name}: draft a postcard [demo:steer]`);

  // The researcher's own delegation runs on the server; its block opens the writer's sub-chat.
  const modal = page.getByRole('dialog', { name: researcher.name });
  const nested = modal.getByRole('group', { name: `Delegation to ${writer.name}` });
  await nested.getByRole('button', { name: `View the sub-chat of ${writer.name}` }).click({ timeout: 20_000 });
  const viewer = page.getByRole('dialog', { name: 'Sub-chat' });
  const box = viewer.getByLabel(`Message to ${writer.name} while it works`);
  await box.fill('Make it about Porto');
  await box.press('Enter');
  const bubble = viewer.getByTestId('steering-message');
  await expect(bubble).toHaveAttribute('data-status', 'delivered', { timeout: 20_000 });
  await expect(viewer.getByRole('group', { name: 'Task result' })).toContainText('Latest instruction: Make it about Porto', { timeout: 20_000 });
  await shots(page, 'steer-nested-viewer');
  await viewer.getByRole('button', { name: 'Close' }).click();

  // The writer's result reached the researcher, and the researcher's the lead.
  await expect(lastAnswer(page)).toContainText('Latest instruction: Make it about Porto', { timeout: 30_000 });
});

test('a text file attached in the steering box reaches the running sub-agent, which says what it read', async ({ page, request }) => {
  test.setTimeout(90_000);
  const { lead, planner } = await team(request);
  const chatId = await startChat(page, lead.name, `/delegate ${planner.name}: plan a city walk [demo:steer]`);

  const dialog = subAgentDialog(page);
  const form = dialog.getByRole('form', { name: `Message to ${planner.name}` });
  const box = form.getByLabel(`Message to ${planner.name} while it works`);
  await expect(box).toBeVisible({ timeout: 20_000 });
  await form.getByTestId('attach-input').setInputFiles({
    name: 'route.md',
    mimeType: 'text/markdown',
    buffer: Buffer.from('Start at the tile museum, then follow the river to the old bridge.'),
  });
  const chip = form.getByRole('listitem', { name: 'route.md' });
  await expect(chip).toHaveAttribute('data-status', 'ready');
  await box.fill('Use this route');
  await shots(page, 'steer-file-attached');

  await box.press('Enter');
  await expect(box).toHaveValue('');
  await expect(form.getByRole('list', { name: 'Attached files' })).toHaveCount(0);

  // The parent's answer quotes the sub-agent's result: the file's first words reached its model.
  const answer = lastAnswer(page);
  await expect(answer).toContainText('Latest instruction: Use this route', { timeout: 30_000 });
  await expect(answer).toContainText('I received 1 file:');
  await expect(answer).toContainText('route.md: text, 66 bytes — "Start at the tile museum, then follow the …"');

  // Stored with the message, as a file of the sub-chat; the viewer shows its card with the bubble.
  const [sub] = await subChats(request, chatId);
  const steering = await (await request.get(`${api}/chats/${sub!.id}/steering`)).json();
  expect(steering.data).toEqual([
    expect.objectContaining({
      text: 'Use this route',
      status: 'delivered',
      files: [expect.objectContaining({ filename: 'route.md', mediaType: 'text/markdown' })],
    }),
  ]);
  const planned = block(page, planner.name);
  await planned.getByRole('button', { name: `View the sub-chat of ${planner.name}` }).click();
  const viewer = page.getByRole('dialog', { name: 'Sub-chat' });
  const bubble = viewer.getByTestId('steering-message');
  await expect(bubble).toContainText('Use this route');
  await expect(bubble.getByRole('link', { name: /route\.md/ })).toHaveAttribute('href', steering.data[0].files[0].url);
  await shots(page, 'steer-file-viewer');
});
