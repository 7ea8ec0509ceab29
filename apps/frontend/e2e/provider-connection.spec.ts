import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { shot, unique, WORKSPACE } from './helpers';

// The demo model in its own process on a free port: a real OpenAI-compatible server to test against.
let demo: ChildProcess | undefined;
let demoUrl: string;
test.beforeAll(async () => {
  demo = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: resolve(test.info().project.testDir, '../../../packages/demo-llm'),
    env: { ...process.env, DEMO_LLM_PORT: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  demoUrl = await new Promise<string>((done, fail) => {
    let out = '';
    demo!.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /at (http:\/\/\S+\/v1)/.exec(out);
      if (match) done(match[1]!.replace('localhost', '127.0.0.1'));
    });
    demo!.once('exit', (code) => fail(new Error(`the demo model exited (${code})`)));
  });
});
test.afterAll(() => void demo?.kill('SIGTERM'));

test('provider form: test the connection, pick a listed model, save; an unreachable one says so', async ({ page }) => {
  const name = unique('Tested LLM');
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/w/${WORKSPACE}/settings/providers`);
  await page.getByRole('button', { name: 'Add provider' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Add provider' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByLabel('Base URL').fill(demoUrl);
  await dialog.getByRole('button', { name: 'Test connection' }).click();
  await expect(dialog.getByRole('status')).toHaveText('Connected: 1 model');
  const pick = dialog.getByRole('checkbox', { name: 'baton-demo' });
  await expect(pick).not.toBeChecked();
  await shot(page, 'provider-test-connected-1440');
  await pick.check();
  await expect(dialog.getByLabel('Model ids')).toHaveValue('baton-demo');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'provider-test-connected-390');
  await page.setViewportSize({ width: 1440, height: 900 });
  await dialog.getByRole('button', { name: 'Add provider' }).click();
  await expect(dialog).toBeHidden();
  const item = page.getByRole('listitem', { name });
  await expect(item.getByText('baton-demo')).toBeVisible();

  // Editing: a base URL nobody answers at gives a reason a person can act on, not a model list.
  await item.getByRole('button', { name: `Edit provider ${name}` }).click();
  const edit = page.getByRole('dialog', { name: `Edit ${name}` });
  // Nothing listens on port 2 (1, 7 or 9 would be one of the Fetch standard's blocked ports, which Baton reports as such).
  await edit.getByLabel('Base URL').fill('http://127.0.0.1:2/v1');
  await edit.getByRole('button', { name: 'Test connection' }).click();
  await expect(edit.getByTestId('provider-test-error')).toHaveText(/could not reach the provider\. Check its base URL/);
  await expect(edit.getByRole('checkbox')).toHaveCount(0);
  await shot(page, 'provider-test-unreachable-1440');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'provider-test-unreachable-390');
  await edit.getByRole('button', { name: 'Cancel' }).click();
});

test('provider form: PDF input says what Automatic picks for the base URL, and a choice is saved', async ({ page }) => {
  const name = unique('PDF LLM');
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/w/${WORKSPACE}/settings/providers`);
  await page.getByRole('button', { name: 'Add provider' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Add provider' });
  await dialog.getByLabel('Name').fill(name);
  const pdfInput = dialog.getByLabel('PDF input');
  await expect(pdfInput).toHaveValue('auto');
  await dialog.getByLabel('Base URL').fill('https://api.openai.com/v1');
  await expect(dialog.getByText('Automatic: OpenAI’s API reads PDFs, so they are sent as files.')).toBeVisible();
  await dialog.getByLabel('Base URL').fill(demoUrl);
  await expect(dialog.getByText(/Automatic: this server gets the text Baton extracts from each PDF/)).toBeVisible();
  await pdfInput.selectOption('text');
  await dialog.getByLabel('Model ids').fill('baton-demo');
  await dialog.getByRole('button', { name: 'Add provider' }).click();
  await expect(dialog).toBeHidden();

  // Saved: the edit form shows it, and so does the API.
  const item = page.getByRole('listitem', { name });
  await item.getByRole('button', { name: `Edit provider ${name}` }).click();
  const edit = page.getByRole('dialog', { name: `Edit ${name}` });
  await expect(edit.getByLabel('PDF input')).toHaveValue('text');
  await expect(edit.getByText(/Baton sends the text it extracts from each PDF/)).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  await edit.getByLabel('PDF input').scrollIntoViewIfNeeded();
  await shot(page, 'provider-pdf-input-390');
  await edit.getByRole('button', { name: 'Cancel' }).click();
  // Newest last: the last page of the list holds it (the spec's runs share one database).
  let cursor: string | null = null;
  let saved: { name: string; pdfInput: string } | undefined;
  do {
    const page_: { data: { name: string; pdfInput: string }[]; nextCursor: string | null } = await (
      await page.request.get(`/api/workspaces/${WORKSPACE}/providers${cursor ? `?cursor=${cursor}` : ''}`)
    ).json();
    saved ??= page_.data.find((p) => p.name === name);
    cursor = page_.nextCursor;
  } while (cursor && !saved);
  expect(saved).toMatchObject({ pdfInput: 'text' });
});
