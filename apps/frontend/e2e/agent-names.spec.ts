import { expect, test } from '@playwright/test';
import { createAgentViaApi, getAgentViaApi, shot, unique, WORKSPACE } from './helpers';

test('agent editor: a name already taken in the workspace is refused at the Name field, on create and on rename', async ({ page, request }) => {
  const critic = await createAgentViaApi(request, { name: unique('Critic') });
  const editor = await createAgentViaApi(request, { name: unique('Editor') });
  const taken = critic.name.toUpperCase();
  const message = `An agent named "${taken}" already exists in this workspace`;

  // Creating: the server's 409 shows next to the Name field, which gets the focus; nothing is created.
  await page.goto(`/w/${WORKSPACE}/agents/new`);
  const name = page.getByLabel('Name', { exact: true });
  await name.fill(taken);
  await page.getByRole('button', { name: 'Create agent' }).click();
  await expect(page.getByText(message)).toBeVisible();
  await expect(name).toHaveAttribute('aria-invalid', 'true');
  await expect(name).toBeFocused();
  await expect(page).toHaveURL(/\/agents\/new$/);
  await shot(page, 'agent-name-taken');

  // Renaming into the taken name: the same, and the agent keeps its name.
  await page.goto(`/w/${WORKSPACE}/agents/${editor.id}`);
  await name.fill(` ${taken} `);
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText(message)).toBeVisible();
  await expect(name).toHaveAttribute('aria-invalid', 'true');
  expect((await getAgentViaApi(request, editor.id)).name).toBe(editor.name);

  // A free name saves.
  const free = unique('Copy editor');
  await name.fill(free);
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText(`Saved “${free}”`)).toBeVisible();
  await expect(page.getByText(message)).toHaveCount(0);
});
