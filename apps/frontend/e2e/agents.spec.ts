import { expect, test, type Page } from '@playwright/test';
import { createAgentViaApi, getAgentViaApi, shot, unique, WORKSPACE } from './helpers';

/** Fills the new-agent form and saves; returns the new agent's id (read from its editor link). */
async function createAgentInEditor(page: Page, name: string, description: string) {
  await page.goto(`/w/${WORKSPACE}/agents/new`);
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByLabel('Description').fill(description);
  await page.getByRole('button', { name: 'Create agent' }).click();
  await expect(page.getByText(`Created agent “${name}”`)).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/w/${WORKSPACE}/agents$`));
  const link = page.getByRole('list', { name: 'Agents' }).getByRole('link', { name: new RegExp(name) });
  await expect(link).toBeVisible();
  const href = await link.getAttribute('href');
  return href!.split('/').pop()!;
}

test('agent editor: validation, creating agents and assigning sub-agents with the switches', async ({ page, request }) => {
  const scout = unique('Scout');
  const scribe = unique('Scribe');
  const lead = unique('Lead');

  // A validation error from the shared schema, next to the field.
  await page.goto(`/w/${WORKSPACE}/agents/new`);
  await expect(page.getByRole('heading', { name: 'New agent', level: 1 })).toBeVisible();
  // Tools come from GET /api/tools: switches, or a note while the backend offers none.
  const tools = page.getByRole('region', { name: 'Tools' });
  await expect(tools.getByRole('switch').first().or(tools.getByText('No tools available'))).toBeVisible();
  await page.getByRole('button', { name: 'Create agent' }).click();
  const name = page.getByLabel('Name', { exact: true });
  await expect(page.getByText('Name must not be empty')).toBeVisible();
  await expect(name).toHaveAttribute('aria-invalid', 'true');
  await expect(name).toBeFocused();
  await shot(page, 'agent-validation');

  const scoutId = await createAgentInEditor(page, scout, 'Finds sources and facts');
  const scribeId = await createAgentInEditor(page, scribe, 'Writes clear prose');
  const leadId = await createAgentInEditor(page, lead, 'Plans the work and delegates');
  await shot(page, 'agents-list');

  // The lead's editor offers every other agent as a switch, never the lead itself.
  await page.getByRole('link', { name: new RegExp(lead) }).click();
  await expect(page).toHaveURL(new RegExp(`/agents/${leadId}$`));
  const card = page.getByRole('region', { name: 'Sub-agents' });
  await expect(card.getByRole('switch', { name: scout, exact: true })).toBeVisible();
  await expect(card.getByRole('switch', { name: scribe, exact: true })).toBeVisible();
  await expect(page.getByRole('switch', { name: lead, exact: true })).toHaveCount(0);

  await card.getByRole('switch', { name: scout, exact: true }).click();
  await card.getByRole('switch', { name: scribe, exact: true }).click();
  await expect(card.getByRole('switch', { name: scout, exact: true })).toHaveAttribute('aria-checked', 'true');
  await expect(card.getByRole('switch', { name: scribe, exact: true })).toHaveAttribute('aria-checked', 'true');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText(`Saved “${lead}”`)).toBeVisible();
  await shot(page, 'agent-editor');

  expect((await getAgentViaApi(request, leadId)).subAgentIds.sort()).toEqual([scoutId, scribeId].sort());

  // Persisted: a reload shows both switches on.
  await page.reload();
  await expect(card.getByRole('switch', { name: scout, exact: true })).toHaveAttribute('aria-checked', 'true');
  await expect(card.getByRole('switch', { name: scribe, exact: true })).toHaveAttribute('aria-checked', 'true');
  await page.getByRole('link', { name: 'Agents', exact: true }).first().click();
  await expect(page.getByRole('link', { name: new RegExp(lead) })).toContainText('2 sub-agents');
});

test('agent editor: a server error about a sub-agent deleted meanwhile is shown next to the card', async ({ page, request }) => {
  const helper = await createAgentViaApi(request, { name: unique('Helper'), description: 'Will be deleted' });
  const parent = await createAgentViaApi(request, { name: unique('Parent'), subAgentIds: [helper.id] });

  await page.goto(`/w/${WORKSPACE}/agents/${parent.id}`);
  const card = page.getByRole('region', { name: 'Sub-agents' });
  await expect(card.getByRole('switch', { name: helper.name, exact: true })).toHaveAttribute('aria-checked', 'true');

  // Someone else deletes the sub-agent while the form is open.
  expect((await request.delete(`/api/workspaces/${WORKSPACE}/agents/${helper.id}`)).status()).toBe(204);
  await page.getByLabel('Description').fill('Delegates to a helper');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(card.getByText(`Agent "${helper.id}" does not exist in this workspace`)).toBeVisible();
  await shot(page, 'agent-server-error');

  // Switching the missing agent off makes the form savable again.
  await card.getByRole('switch', { name: `Unknown agent (${helper.id})` }).click();
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText(`Saved “${parent.name}”`)).toBeVisible();
  expect((await getAgentViaApi(request, parent.id)).subAgentIds).toEqual([]);
});

test('agent editor: a filter box appears when there are many agents, and delete asks first', async ({ page, request }) => {
  const tag = unique('Crew');
  const crew = [];
  for (let i = 1; i <= 7; i++) crew.push(await createAgentViaApi(request, { name: `${tag} member ${i}` }));
  const target = crew[0]!;

  await page.goto(`/w/${WORKSPACE}/agents/${target.id}`);
  const card = page.getByRole('region', { name: 'Sub-agents' });
  const filter = card.getByRole('searchbox', { name: 'Filter sub-agents' });
  await expect(filter).toBeVisible();
  await filter.fill(`${tag} member 7`);
  await expect(card.getByRole('switch')).toHaveCount(1);
  await expect(card.getByRole('switch', { name: `${tag} member 7` })).toBeVisible();
  await filter.fill(`${tag} member 1`);
  await expect(card.getByText(`No agent matches “${tag} member 1”.`)).toBeVisible();

  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete agent?' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText('removed from every agent that uses it')).toBeVisible();
  await shot(page, 'agent-delete-dialog');
  await dialog.getByRole('button', { name: 'Delete agent' }).click();
  await expect(page).toHaveURL(new RegExp(`/w/${WORKSPACE}/agents$`));
  await expect(page.getByText(`Deleted agent “${target.name}”`)).toBeVisible();
  expect((await request.get(`/api/workspaces/${WORKSPACE}/agents/${target.id}`)).status()).toBe(404);
});
