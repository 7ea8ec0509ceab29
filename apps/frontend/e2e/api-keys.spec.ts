import { expect, test } from '@playwright/test';
import { shot, unique, WORKSPACE } from './helpers';

/*
 * An API key made in the web app works for a plain program (Node's fetch, no browser, no
 * cookie), is shown once, and stops working the moment it is revoked in the web app.
 */

test('an API key created in the web app works with fetch and Bearer, and stops working once revoked', async ({ page, baseURL }) => {
  const name = unique('Nightly report');
  const agentsUrl = `${baseURL}/api/workspaces/${WORKSPACE}/agents`;
  const callWith = (key: string) => fetch(agentsUrl, { headers: { authorization: `Bearer ${key}` } });

  await page.goto(`/w/${WORKSPACE}/settings/api-keys`);
  await expect(page.getByRole('heading', { name: 'API keys', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Create API key' }).first().click();
  const create = page.getByRole('dialog', { name: 'Create API key' });
  await create.getByRole('button', { name: 'Create key' }).click();
  await expect(create.getByText('Name must not be empty')).toBeVisible();
  await create.getByLabel('Name').fill(name);
  await create.getByRole('button', { name: 'Create key' }).click();

  const shown = page.getByRole('dialog', { name: `API key “${name}”` });
  await expect(shown.getByText('you won’t see it again')).toBeVisible();
  const key = await shown.getByRole('textbox', { name: 'API key' }).inputValue();
  expect(key).toMatch(/^baton_\S{20,}$/);
  await shot(page, 'api-key-created');

  const res = await callWith(key);
  expect(res.status).toBe(200);
  expect(((await res.json()) as { data: { name: string }[] }).data.map((a) => a.name)).toContain('Assistant');

  await shown.getByRole('button', { name: 'Done' }).click();
  await expect(shown).toBeHidden();
  // Listed by name and prefix; the key itself is nowhere on the page any more.
  const row = page.getByRole('row', { name });
  await expect(row).toContainText(`${key.slice(0, 12)}…`);
  await expect(row).toContainText('You');
  await expect(page.getByText(key)).toHaveCount(0);
  await page.reload();
  // Last used: just now, no longer "Never".
  await expect(row.getByRole('cell').nth(4)).not.toHaveText('Never');
  await expect(row.getByRole('button', { name: `Revoke ${name}` })).toBeInViewport();
  await shot(page, 'api-keys');
  // On a phone the row keeps Revoke on screen: the key, owner and dates go under the name, nothing scrolls sideways.
  await page.setViewportSize({ width: 390, height: 800 });
  await expect(row.getByRole('button', { name: `Revoke ${name}` })).toBeInViewport();
  await expect(row).toContainText('Last used');
  const table = page.getByRole('table', { name: 'API keys' });
  expect(await table.evaluate((t) => t.parentElement!.scrollWidth - t.parentElement!.clientWidth)).toBe(0);
  await shot(page, 'api-keys-phone');
  await page.setViewportSize({ width: 1280, height: 800 });

  await row.getByRole('button', { name: `Revoke ${name}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Revoke API key?' });
  await confirm.getByRole('button', { name: 'Revoke key' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByRole('row', { name })).toHaveCount(0);
  await expect(page.getByText(`Revoked “${name}”: it no longer works`)).toBeVisible();

  const after = await callWith(key);
  expect(after.status).toBe(401);
  expect(((await after.json()) as { error: { code: string } }).error.code).toBe('unauthorized');
});
