import { expect, test } from '@playwright/test';
import { shot, unique, WORKSPACE } from './helpers';

test('providers: add with a key, edit keeping the key, use in the agent editor, remove', async ({ page }) => {
  const name = unique('Local LLM');
  await page.goto(`/w/${WORKSPACE}/settings/providers`);
  await expect(page.getByRole('heading', { name: 'Providers', level: 1 })).toBeVisible();
  await shot(page, 'providers-initial');

  await page.getByRole('button', { name: 'Add provider' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Add provider' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByLabel('Base URL').fill('not a url');
  await dialog.getByLabel('API key').fill('sk-test-123');
  await dialog.getByLabel('Model ids').fill('model-a, model-b\nmodel-c');
  await dialog.getByRole('button', { name: 'Add provider' }).click();
  await expect(dialog.getByText('Base URL must be a valid http(s) URL')).toBeVisible();
  await shot(page, 'provider-dialog');
  // A secret belongs in the key field, not in the URL.
  await dialog.getByLabel('Base URL').fill('http://admin:hunter2@127.0.0.1:11434/v1');
  await dialog.getByRole('button', { name: 'Add provider' }).click();
  await expect(dialog.getByText('Base URL must not contain a user name or password: put the secret in the API key field')).toBeVisible();
  await dialog.getByLabel('Base URL').fill('http://127.0.0.1:11434/v1?api-key=sk-1');
  await dialog.getByRole('button', { name: 'Add provider' }).click();
  await expect(dialog.getByText('Base URL must not contain a query string (?…): put the secret in the API key field')).toBeVisible();
  await dialog.getByLabel('Base URL').fill('http://127.0.0.1:11434/v1');
  await dialog.getByRole('button', { name: 'Add provider' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(`Added provider “${name}”`)).toBeVisible();

  const item = page.getByRole('listitem', { name });
  await expect(item).toBeVisible();
  await expect(item.getByText('Key stored')).toBeVisible();
  await expect(item.getByText('model-c')).toBeVisible();
  await expect(page.getByText('sk-test-123')).toHaveCount(0);
  await shot(page, 'providers');

  // Editing: the key is write-only; leaving it empty keeps it.
  await item.getByRole('button', { name: `Edit provider ${name}` }).click();
  const edit = page.getByRole('dialog', { name: `Edit ${name}` });
  await expect(edit.getByText('Key stored')).toBeVisible();
  await expect(edit.getByLabel('API key')).toHaveValue('');
  await expect(edit.getByLabel('API key')).toHaveAttribute('type', 'password');
  await edit.getByLabel('Model ids').fill('model-a\nmodel-d');
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(edit).toBeHidden();
  await expect(item.getByText('model-d')).toBeVisible();
  await expect(item.getByText('Key stored')).toBeVisible();

  // A base URL on another host does not take the stored key along: the form asks for it again.
  await item.getByRole('button', { name: `Edit provider ${name}` }).click();
  const moved = page.getByRole('dialog', { name: `Edit ${name}` });
  await moved.getByLabel('Base URL').fill('http://127.0.0.1:11435/v1');
  await expect(moved.getByText('Key stored')).toHaveCount(0);
  await expect(moved.getByText(/points to another host: type the API key again/)).toBeVisible();
  await shot(page, 'provider-key-for-new-host');
  await moved.getByRole('button', { name: 'Save changes' }).click();
  await expect(moved).toBeVisible();
  await expect(moved.getByLabel('API key')).toHaveAttribute('aria-invalid', 'true');
  // Back on its own host (another path is fine), the stored key is kept again.
  await moved.getByLabel('Base URL').fill('http://127.0.0.1:11434/v1/');
  await expect(moved.getByText('Key stored')).toBeVisible();
  await moved.getByRole('button', { name: 'Cancel' }).click();

  // The agent editor offers the provider and its models.
  await page.goto(`/w/${WORKSPACE}/agents/new`);
  await page.getByLabel('Provider').selectOption({ label: name });
  const model = page.getByLabel('Model', { exact: true });
  await expect(model.locator('option')).toHaveText(['model-a', 'model-d']);

  await page.goto(`/w/${WORKSPACE}/settings/providers`);
  await page
    .getByRole('listitem', { name })
    .getByRole('button', { name: `Remove provider ${name}` })
    .click();
  const confirm = page.getByRole('dialog', { name: 'Remove provider?' });
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: 'Remove provider' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByRole('listitem', { name })).toHaveCount(0);
  await expect(page.getByText(`Removed provider “${name}”`)).toBeVisible();
});
