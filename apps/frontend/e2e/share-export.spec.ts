import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import type { ChatExport } from '@baton/schemas';
import { shots, unique } from './helpers';
import { block, composer, getChat, lastAnswer, startChat, subAgentDialog } from './delegation-helpers';
import { signedOutPage } from './support/accounts';

/*
 * Share and export (issue 24, item 1). A chat of the starter Assistant delegates to the
 * Researcher with the demo model's `/delegate` line; its share link is opened in a browser
 * with nobody signed in, where the delegation's sub-chat expands in place; its JSON export is
 * imported into another workspace, where the delegation and its sub-chat are there again.
 */

const task = 'find three facts about otters 🦦';

/** A finished delegating chat of the Assistant; returns its id. */
async function delegatingChat(page: Page): Promise<string> {
  const chatId = await startChat(page, 'Assistant', `/delegate Researcher: ${task}`);
  await expect(lastAnswer(page)).toContainText('Here is what came back', { timeout: 30_000 });
  if (await subAgentDialog(page).isVisible()) await page.keyboard.press('Escape');
  await expect(block(page, 'Researcher')).toHaveAttribute('data-status', 'success');
  // The page shows the answer's last words as they stream; what an export or a share reads is
  // what the run stored when it ended (on a loaded machine the export came first).
  await expect.poll(async () => (await getChat(page.request, chatId)).activeRun, { timeout: 30_000 }).toBeNull();
  return chatId;
}

async function chatMenu(page: Page, item: string) {
  await page.getByRole('button', { name: 'Chat actions' }).click();
  await page.getByRole('menuitem', { name: item }).click();
}

test('a shared chat opens in a signed-out browser, read-only, with the sub-chat expandable; revoking ends it', async ({ page, browser }) => {
  await delegatingChat(page);

  await chatMenu(page, 'Share…');
  const dialog = page.getByRole('dialog', { name: 'Share this chat' });
  await dialog.getByLabel('Link expires').selectOption({ label: 'In 7 days' });
  await dialog.getByRole('button', { name: 'Create and copy link' }).click();
  const link = await dialog.getByRole('textbox', { name: 'Share link' }).inputValue();
  expect(link).toMatch(/\/shared\/[\w-]{43}$/);
  await dialog.getByRole('button', { name: 'Done' }).click();

  const visitor = await signedOutPage(browser);
  await visitor.goto(link);
  await expect(visitor).toHaveURL(link);
  await expect(visitor.getByRole('heading', { level: 1 })).toHaveText(`Researcher: ${task}`);
  await expect(visitor.getByText('Shared conversation · read-only')).toBeVisible();
  const delegation = block(visitor, 'Researcher');
  await expect(delegation).toHaveAttribute('data-status', 'success');
  await expect(delegation).toContainText(`Done: ${task}`);
  // Nothing to write with, nothing that would need an account.
  await expect(composer(visitor)).toHaveCount(0);
  await expect(visitor.getByRole('button', { name: /View the sub-chat|Delegation tree|Retry|Edit|Regenerate/ })).toHaveCount(0);
  await expect(visitor.getByRole('link', { name: 'Open sub-chat' })).toHaveCount(0);

  await delegation.getByRole('button', { name: 'Show the conversation' }).click();
  await expect(delegation.getByText(`Working on it: ${task}`)).toBeVisible();
  await expect(delegation.getByRole('group', { name: 'Task result' })).toContainText(`Done: ${task}`);
  await shots(visitor, 'share-signed-out');
  await expect(visitor).toHaveURL(link);

  // The account's Shared links page lists it; Revoke makes the link dead for the visitor.
  await page.getByRole('button', { name: /^Account: / }).click();
  await page.getByRole('menuitem', { name: 'Shared links' }).click();
  const row = page.getByRole('listitem', { name: `Researcher: ${task}` }).first();
  await expect(row).toContainText('Expires');
  await shots(page, 'share-links-page');
  await row.getByRole('button', { name: /^Revoke the link/ }).click();
  await page.getByRole('button', { name: 'Revoke link' }).click();
  await expect(page.getByText('no longer works')).toBeVisible();
  await visitor.reload();
  await expect(visitor.getByRole('heading', { name: 'This link doesn’t work' })).toBeVisible();
  await visitor.context().close();
});

test('a chat exported as JSON is imported into another workspace, delegation and sub-chat included; Markdown downloads too', async ({
  page,
  request,
}, info) => {
  await delegatingChat(page);

  const md = page.waitForEvent('download');
  await chatMenu(page, 'Export as Markdown');
  expect((await md).suggestedFilename()).toBe('Researcher find three facts about otters.md');

  const json = page.waitForEvent('download');
  await chatMenu(page, 'Export as JSON');
  const download = await json;
  expect(download.suggestedFilename()).toBe('Researcher find three facts about otters.json');
  const path = info.outputPath('export.json');
  await download.saveAs(path);
  const exported = JSON.parse(await readFile(path, 'utf8')) as ChatExport;
  expect(exported.version).toBe(1);
  expect(exported.chat.subChats).toHaveLength(1);

  const res = await request.post('/api/workspaces', { data: { name: unique('Imports') } });
  expect(res.status()).toBe(201);
  const other = (await res.json()) as { id: string };
  await page.goto(`/w/${other.id}`);
  await page.getByLabel('Chat export to import').setInputFiles(path);
  await expect(page).toHaveURL(new RegExp(`/w/${other.id}/chat/[\\w-]+$`));
  const importedId = decodeURIComponent(page.url().split('/chat/')[1]!);
  expect(importedId).not.toBe(exported.chat.id);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Researcher: ${task}`);
  await expect(lastAnswer(page)).toContainText('Here is what came back');
  const delegation = block(page, 'Researcher');
  await expect(delegation).toHaveAttribute('data-status', 'success');
  await delegation.getByRole('button', { name: 'Show the conversation' }).click();
  await expect(delegation.getByText(`Working on it: ${task}`)).toBeVisible();
  await shots(page, 'import-other-workspace');
  // Folded again: the answers counted below are the chat's own, not the sub-agent's.
  await delegation.getByRole('button', { name: 'Hide the conversation' }).click();

  // The imported chat lives in the other workspace only, and goes on there.
  await expect(page.getByRole('navigation', { name: 'Sidebar' }).getByText(`Researcher: ${task}`).first()).toBeVisible();
  const answers = page.getByRole('list', { name: 'Messages' }).first().getByRole('listitem', { name: 'Agent' });
  await expect(answers).toHaveCount(1);
  await composer(page).fill('thanks');
  await composer(page).press('Enter');
  await expect(answers).toHaveCount(2, { timeout: 20_000 });
});
