import { type OAuthMcpServer, startOAuthMcpServer } from '@baton/mcp-test-server';
import { expect, test } from '@playwright/test';
import { shots, unique, WORKSPACE } from './helpers';

/*
 * An OAuth-protected MCP server (the SDK's server auth pieces; its authorization server
 * approves at once, no login page) connected from Settings → Tool servers: Connect sends the
 * browser to the authorization server, which sends it to Baton's callback, which brings it
 * back to the page, connected. Then Disconnect.
 */

let oauth: OAuthMcpServer;

test.beforeAll(async () => {
  oauth = await startOAuthMcpServer();
});

test.afterAll(async () => {
  await oauth?.close();
});

test('connect an OAuth tool server in the browser, use its listing, then disconnect', async ({ page }) => {
  test.setTimeout(120_000);
  const name = unique('Protected');
  await page.goto(`/w/${WORKSPACE}/settings/tool-servers`);
  await page.getByRole('button', { name: 'Add tool server' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Add tool server' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByLabel('URL').fill(oauth.url);
  await dialog.getByRole('button', { name: 'Add tool server' }).click();
  await expect(dialog).toBeHidden({ timeout: 20_000 });

  // Not "not authorised": the card says the server needs connecting, and offers Connect.
  const card = page.getByRole('listitem', { name });
  await expect(card.getByText('OAuth · Not connected')).toBeVisible();
  await expect(card.getByRole('alert', { name: 'Listing error: Needs connecting' })).toBeVisible();
  await shots(page, 'mcp-oauth-needs-connecting');

  await card.getByRole('button', { name: `Connect ${name}` }).click();
  // Out to the authorization server, to Baton's callback, and back here (a full page load: generous on a loaded machine).
  await page.waitForURL(/\/settings\/tool-servers\?oauth=connected&server=/, { timeout: 30_000 });
  await expect(page.getByText(`${name}: Connected: Baton can now use the server’s tools.`)).toBeVisible({ timeout: 30_000 });
  // The outcome is said once: the query is gone from the address.
  await expect(page).toHaveURL(/\/settings\/tool-servers$/);
  await expect(card.getByText('OAuth · Connected')).toBeVisible();
  await expect(card.getByRole('alert')).toHaveCount(0);
  await card.getByRole('button', { name: /^2 tools/ }).click();
  await expect(card.getByRole('list', { name: `Tools of ${name}` }).getByText('lookup_fact')).toBeVisible();
  expect(oauth.counts()).toMatchObject({ registrations: 1, codeExchanges: 1 });
  // No token anywhere on the page.
  for (const token of oauth.issuedAccessTokens()) expect(await page.content()).not.toContain(token);
  await shots(page, 'mcp-oauth-connected');

  await card.getByRole('button', { name: `Disconnect ${name}` }).click();
  await expect(page.getByText(`Disconnected ${name}: Baton forgot its tokens`)).toBeVisible();
  await expect(card.getByText('OAuth · Not connected')).toBeVisible();
  await expect(card.getByRole('alert', { name: 'Listing error: Needs connecting' })).toBeVisible();
  await expect(card.getByRole('button', { name: `Connect ${name}` })).toBeVisible();
  await shots(page, 'mcp-oauth-disconnected');
});
