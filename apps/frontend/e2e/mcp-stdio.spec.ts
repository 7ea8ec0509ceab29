import { expect, test } from '@playwright/test';
import { lastAnswer, startChat } from './delegation-helpers';
import { shots, unique, WORKSPACE } from './helpers';

/*
 * The operator's stdio MCP server (BATON_MCP_CONFIG, set by playwright.config.ts: the npm
 * package @modelcontextprotocol/server-everything run over stdio by the backend): listed in
 * Tool servers as the instance's, switched on by the admin, its tool given to an agent in
 * the editor and called from a chat.
 */

const ID = 'inst_everything';

test.afterAll(async ({ request }) => {
  // Off again, as an instance starts: other specs see the workspace's own servers only in use.
  await request.patch(`/api/workspaces/${WORKSPACE}/mcp-servers/${ID}`, { data: { enabled: false } });
});

test('an instance stdio server: switched on in Tool servers, its tool picked in the agent editor and used in a chat', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto(`/w/${WORKSPACE}/settings/tool-servers`);
  const section = page.getByRole('list', { name: 'Instance tool servers' });
  const card = section.getByRole('listitem', { name: 'everything' });
  await expect(card.getByText('Instance', { exact: true })).toBeVisible();
  await expect(card.getByText('stdio', { exact: true })).toBeVisible();
  await expect(card.getByText('A command run by Baton’s server')).toBeVisible();
  // Read-only here: no edit or remove, only the switch.
  await expect(card.getByRole('button', { name: /Edit tool server|Remove tool server/ })).toHaveCount(0);
  // The process starts with the backend: its tools are listed once it is up.
  await expect(card.getByRole('button', { name: /^\d+ tools/ })).toBeVisible({ timeout: 30_000 });
  const enable = card.getByRole('switch', { name: 'Enable everything' });
  await expect(enable).toHaveAttribute('aria-checked', 'false');
  await enable.click();
  await expect(page.getByText('Enabled everything')).toBeVisible();
  await expect(enable).toHaveAttribute('aria-checked', 'true');
  await card.getByRole('button', { name: /^\d+ tools/ }).click();
  await expect(card.getByRole('list', { name: 'Tools of everything' })).toContainText('echo');
  await shots(page, 'mcp-stdio-settings');

  // The agent editor offers its tools like any server's.
  const name = unique('Echoer');
  await page.goto(`/w/${WORKSPACE}/agents/new`);
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByLabel('Description').fill('Echoes through the instance’s stdio server');
  const group = page.getByRole('group', { name: 'Tools of everything' });
  await group.getByRole('switch', { name: 'echo', exact: true }).click();
  await expect(group.getByRole('switch', { name: 'echo', exact: true })).toHaveAttribute('aria-checked', 'true');
  await page.getByRole('button', { name: 'Create agent' }).click();
  await expect(page.getByText(`Created agent “${name}”`)).toBeVisible();

  // The demo model calls the tool on a "/tool" line; the call shows with the server's name.
  await startChat(page, name, '/tool echo {"message":"hello from stdio"}');
  const call = page.getByLabel('Tool call echo from everything, done');
  await expect(call).toBeVisible({ timeout: 20_000 });
  await call.click();
  await expect(page.locator('details', { has: call })).toContainText('Echo: hello from stdio');
  await expect(lastAnswer(page)).toContainText('Echo: hello from stdio');
  await shots(page, 'mcp-stdio-chat');
});
