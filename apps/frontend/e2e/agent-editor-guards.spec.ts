import { expect, test, type Page } from '@playwright/test';
import { createAgentViaApi, getAgentViaApi, shot, shots, unique, WORKSPACE } from './helpers';

/*
 * The agent editor's rough edges: cycles between agents are shown where they are made
 * (with what the depth limit does with them), unsaved changes are not lost without a
 * question, and a success toast never covers the button that was just used.
 */

const boxesOverlap = (a: { x: number; y: number; width: number; height: number }, b: { x: number; y: number; width: number; height: number }) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

test('the sub-agents card shows a cycle a choice makes, and what the depth limit does with it', async ({ page, request }) => {
  const critic = await createAgentViaApi(request, { name: unique('Critic'), description: 'Reviews drafts.' });
  const lead = await createAgentViaApi(request, { name: unique('Lead'), description: 'Plans the work.' });
  // The critic already hands work to the lead: choosing the critic as the lead's sub-agent closes a loop.
  await request.patch(`/api/workspaces/${WORKSPACE}/agents/${critic.id}`, { data: { subAgentIds: [lead.id] } });

  await page.goto(`/w/${WORKSPACE}/agents/${lead.id}`);
  const card = page.getByRole('region', { name: 'Sub-agents' });
  await expect(card.getByRole('note', { name: 'Cycle' })).toHaveCount(0);
  await card.getByRole('switch', { name: critic.name, exact: true }).click();
  const cycle = card.getByRole('note', { name: 'Cycle' });
  await expect(cycle).toContainText(`Cycle: ${lead.name} → ${critic.name} → ${lead.name}.`);
  await expect(cycle).toContainText(`With a depth limit of 1, ${critic.name} gets no sub-agents at all when it works for ${lead.name}.`);

  // A deeper limit: the critic is still never offered the lead (it is on the chain).
  const depth = page.getByLabel('Depth', { exact: true });
  await depth.fill('2');
  await expect(cycle).toContainText(`${critic.name} has no other sub-agent to offer within the depth limit of 2.`);
  await page.setViewportSize({ width: 1440, height: 900 });
  await cycle.scrollIntoViewIfNeeded();
  await shot(page, 'editor-cycle-1440');
  await page.setViewportSize({ width: 390, height: 844 });
  await cycle.scrollIntoViewIfNeeded();
  await shot(page, 'editor-cycle-390');

  // Switched off, the note goes; a cycle is allowed, and saving it works.
  await card.getByRole('switch', { name: critic.name, exact: true }).click();
  await expect(card.getByRole('note', { name: 'Cycle' })).toHaveCount(0);
});

async function editedAgent(page: Page, request: Parameters<typeof createAgentViaApi>[0]) {
  const agent = await createAgentViaApi(request, { name: unique('Editor'), description: 'Before' });
  await page.goto(`/w/${WORKSPACE}/agents/${agent.id}`);
  await page.getByLabel('Description').fill('After, not saved yet');
  return agent;
}

test('unsaved changes: leaving asks first — Keep editing stays, Discard leaves, Save saves and leaves', async ({ page, request }) => {
  const agent = await editedAgent(page, request);
  const agentsLink = page.getByRole('link', { name: 'Agents', exact: true }).first();

  // Keep editing: nothing is lost, the page stays.
  await agentsLink.click();
  const ask = page.getByRole('dialog', { name: 'Save your changes?' });
  await expect(ask).toBeVisible();
  await shot(page, 'editor-unsaved-1280');
  // The three choices sit on one row, none of their labels broken over two lines.
  const boxes = await Promise.all(['Keep editing', 'Discard changes', 'Save and leave'].map((name) => ask.getByRole('button', { name }).boundingBox()));
  expect(new Set(boxes.map((b) => Math.round(b!.y))).size).toBe(1);
  for (const b of boxes) expect(b!.height).toBeLessThan(48);
  await ask.getByRole('button', { name: 'Keep editing' }).click();
  await expect(ask).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`/agents/${agent.id}$`));
  await expect(page.getByLabel('Description')).toHaveValue('After, not saved yet');

  // Escape is Keep editing too.
  await page.getByRole('link', { name: 'Cancel' }).click();
  await expect(ask).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(ask).toBeHidden();

  // Save and leave: saved, then on to where the person was going.
  await agentsLink.click();
  await ask.getByRole('button', { name: 'Save and leave' }).click();
  await expect(page).toHaveURL(new RegExp(`/w/${WORKSPACE}/agents$`));
  expect((await getAgentViaApi(request, agent.id)).description).toBe('After, not saved yet');

  // Discard: leaves, and the change is gone.
  await page.goto(`/w/${WORKSPACE}/agents/${agent.id}`);
  await page.getByLabel('Description').fill('Thrown away');
  await agentsLink.click();
  await ask.getByRole('button', { name: 'Discard changes' }).click();
  await expect(page).toHaveURL(new RegExp(`/w/${WORKSPACE}/agents$`));
  expect((await getAgentViaApi(request, agent.id)).description).toBe('After, not saved yet');

  // Nothing changed: no question.
  await page.goto(`/w/${WORKSPACE}/agents/${agent.id}`);
  await agentsLink.click();
  await expect(page).toHaveURL(new RegExp(`/w/${WORKSPACE}/agents$`));
});

test('unsaved changes: closing the tab asks the browser’s question; after saving it does not', async ({ page, request }) => {
  await editedAgent(page, request);
  const asked: string[] = [];
  page.on('dialog', (dialog) => {
    asked.push(dialog.type());
    void dialog.dismiss();
  });
  // Dismissed ("Stay on page"): the tab stays, with the edit.
  await page.close({ runBeforeUnload: true });
  await expect.poll(() => asked).toEqual(['beforeunload']);
  expect(page.isClosed()).toBe(false);
  await expect(page.getByLabel('Description')).toHaveValue('After, not saved yet');

  // Saved: nothing to lose, the tab closes without a question.
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText(/^Saved “/)).toBeVisible();
  await page.close({ runBeforeUnload: true });
  await expect.poll(() => page.isClosed()).toBe(true);
  expect(asked).toEqual(['beforeunload']);
});

test('unsaved changes: the browser’s Back asks the same question, once, and leaving really goes back', async ({ page, request }) => {
  const agent = await createAgentViaApi(request, { name: unique('Backer'), description: 'Before' });
  const questions: string[] = [];
  page.on('dialog', (dialog) => {
    questions.push(dialog.type());
    void dialog.accept();
  });
  const editorUrl = new RegExp(`/agents/${agent.id}$`);
  const listUrl = new RegExp(`/w/${WORKSPACE}/agents$`);
  const ask = page.getByRole('dialog', { name: 'Save your changes?' });
  const description = page.getByLabel('Description');
  // Opened from the list inside the app (client-side navigation), as a person would.
  const openFromList = async () => {
    await page.goto(`/w/${WORKSPACE}/agents`);
    await page.getByRole('link', { name: new RegExp(agent.name) }).click();
    await expect(page).toHaveURL(editorUrl);
  };

  await openFromList();
  await description.fill('After, not saved yet');
  await page.goBack({ waitUntil: 'commit' });
  await expect(ask).toBeVisible();
  await shots(page, 'editor-unsaved-back');
  // Keep editing: the page and the edit stay.
  await ask.getByRole('button', { name: 'Keep editing' }).click();
  await expect(ask).toBeHidden();
  await expect(page).toHaveURL(editorUrl);
  await expect(description).toHaveValue('After, not saved yet');

  // Asked again on the next Back; a second Back while asked keeps one question open.
  await page.goBack({ waitUntil: 'commit' });
  await expect(ask).toBeVisible();
  await page.goBack({ waitUntil: 'commit' });
  await expect(ask).toHaveCount(1);
  await expect(page).toHaveURL(editorUrl);
  // Discard: really back on the list, in one step, and nothing saved.
  await ask.getByRole('button', { name: 'Discard changes' }).click();
  await expect(page).toHaveURL(listUrl);
  await expect(page.getByRole('link', { name: new RegExp(agent.name) })).toBeVisible();
  expect((await getAgentViaApi(request, agent.id)).description).toBe('Before');

  // Save and leave from Back: saved, then back on the list.
  await openFromList();
  await description.fill('Saved on the way back');
  await page.goBack({ waitUntil: 'commit' });
  await ask.getByRole('button', { name: 'Save and leave' }).click();
  await expect(page).toHaveURL(listUrl);
  expect((await getAgentViaApi(request, agent.id)).description).toBe('Saved on the way back');

  // Saved with the button first: Back leaves at once, with no question and no dead press.
  await openFromList();
  await description.fill('Saved with the button');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText(/^Saved “/)).toBeVisible();
  await page.goBack({ waitUntil: 'commit' });
  await expect(page).toHaveURL(listUrl);
  await expect(ask).toBeHidden();

  // The page before is another document (a full load): Discard leaves without the browser's
  // own beforeunload question on top of ours.
  await page.goto(`/w/${WORKSPACE}/agents`);
  await page.goto(`/w/${WORKSPACE}/agents/${agent.id}`);
  await description.fill('Thrown away');
  await page.goBack({ waitUntil: 'commit' });
  await ask.getByRole('button', { name: 'Discard changes' }).click();
  await expect(page).toHaveURL(listUrl);
  await expect(page.getByRole('link', { name: new RegExp(agent.name) })).toBeVisible();
  expect((await getAgentViaApi(request, agent.id)).description).toBe('Saved with the button');
  expect(questions).toEqual([]);
});

for (const width of [1440, 390]) {
  test(`a success toast does not cover the Save button (${width} px)`, async ({ page, request }) => {
    await page.setViewportSize({ width, height: width > 600 ? 900 : 844 });
    await editedAgent(page, request);
    const save = page.getByRole('button', { name: 'Save changes' });
    await save.click();
    const toast = page.locator('[data-sonner-toast]').filter({ hasText: 'Saved' });
    await expect(toast).toBeVisible();
    const toastBox = (await toast.boundingBox())!;
    const saveBox = (await save.boundingBox())!;
    expect(boxesOverlap(toastBox, saveBox), `toast ${JSON.stringify(toastBox)} vs Save ${JSON.stringify(saveBox)}`).toBe(false);
    // Nor the page header's actions, nor the other buttons of the bar.
    for (const other of [page.getByRole('link', { name: 'Cancel' }), page.getByRole('button', { name: 'Delete', exact: true })]) {
      expect(boxesOverlap(toastBox, (await other.boundingBox())!)).toBe(false);
    }
    await shot(page, `editor-toast-${width}`);
  });
}
