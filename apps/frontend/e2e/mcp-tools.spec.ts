import { startTestMcpServer, type TestMcpServer } from '@baton/mcp-test-server';
import type { Agent } from '@baton/schemas';
import { expect, test } from '@playwright/test';
import { block, lastAnswer, startChat, subAgentDialog, subChats } from './delegation-helpers';
import { createAgentViaApi, findAgentByName, shots, unique, WORKSPACE } from './helpers';
import { fillAccountForm, signedOutPage } from './support/accounts';

/*
 * MCP tool servers in the browser: a real MCP server (the test server, on loopback; the
 * e2e backend allows private addresses) is added in Settings → Tool servers, one of its
 * tools is given to the Researcher, and a delegated task uses it.
 */

const TOKEN = 'e2e-mcp-token';
let mcp: TestMcpServer;
let researcherTools: string[] | undefined;
let assistantDelegation: Agent['delegation'] | undefined;

test.beforeAll(async () => {
  mcp = await startTestMcpServer({ token: TOKEN });
});

test.afterAll(async ({ request }) => {
  // The seeded agents are shared with other specs: give them back their settings.
  if (researcherTools) {
    const researcher = await findAgentByName(request, 'Researcher');
    const res = await request.patch(`/api/workspaces/${WORKSPACE}/agents/${researcher.id}`, { data: { toolIds: researcherTools } });
    expect(res.ok(), await res.text()).toBe(true);
  }
  if (assistantDelegation) {
    const assistant = await findAgentByName(request, 'Assistant');
    const res = await request.patch(`/api/workspaces/${WORKSPACE}/agents/${assistant.id}`, { data: { delegation: assistantDelegation } });
    expect(res.ok(), await res.text()).toBe(true);
  }
  await mcp?.close();
});

test('empty tool server list explains what MCP servers are for', async ({ page, request }) => {
  const res = await request.post('/api/workspaces', { data: { name: unique('MCP empty') } });
  expect(res.status(), await res.text()).toBe(201);
  const { id } = (await res.json()) as { id: string };
  await page.goto(`/w/${encodeURIComponent(id)}/settings/tool-servers`);
  await expect(page.getByRole('heading', { name: 'No tool servers yet' })).toBeVisible();
  await expect(page.getByText(/speaks the Model Context Protocol/)).toBeVisible();
  await shots(page, 'mcp-settings-empty');
});

test('add an MCP server, give the Researcher its tool, and see the tool call in the delegated sub-chat', async ({ page, request }) => {
  test.setTimeout(120_000);
  const name = unique('Facts');

  // Settings → Tool servers: add the server with its bearer token as a write-only header.
  await page.goto(`/w/${WORKSPACE}`);
  await page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name: 'Tool servers' }).click();
  await expect(page.getByRole('heading', { name: 'Tool servers', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Add tool server' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Add tool server' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByLabel('URL').fill(mcp.url);
  await dialog.getByLabel('Transport').selectOption('http');
  await dialog.getByRole('button', { name: 'Add header' }).click();
  await dialog.getByLabel('Header 1 name').fill('Authorization');
  await dialog.getByLabel('Header 1 value').fill(`Bearer ${TOKEN}`);
  await shots(page, 'mcp-add-dialog');
  await dialog.getByRole('button', { name: 'Add tool server' }).click();
  await expect(dialog).toBeHidden({ timeout: 20_000 });
  await expect(page.getByText(`Added “${name}”: 2 tools`)).toBeVisible();

  const card = page.getByRole('listitem', { name });
  await expect(card.getByText('1 header stored')).toBeVisible();
  await expect(page.getByText(TOKEN)).toHaveCount(0);
  await card.getByRole('button', { name: /^2 tools/ }).click();
  const listed = card.getByRole('list', { name: `Tools of ${name}` });
  await expect(listed).toContainText('lookup_fact');
  await expect(listed).toContainText('Looks up a short fact about a topic');
  await expect(listed).toContainText('add');
  await shots(page, 'mcp-settings');

  // Refresh lists again (spinner, then a toast with the result).
  await card.getByRole('button', { name: `Refresh tools of ${name}` }).click();
  await expect(page.getByText(`${name}: 2 tools listed`)).toBeVisible({ timeout: 20_000 });

  // Editing shows the header's name, never its value.
  await card.getByRole('button', { name: `Edit tool server ${name}` }).click();
  const edit = page.getByRole('dialog', { name: `Edit ${name}` });
  await expect(edit.getByLabel('Header 1 name')).toHaveValue('Authorization');
  await expect(edit.getByText('•••• stored')).toBeVisible();
  await expect(edit.getByLabel('Header 1 value')).toHaveCount(0);
  await shots(page, 'mcp-edit-dialog');
  // Replacing the value: typed again, sent once, and the server accepts it (it checks the token).
  await edit.getByRole('button', { name: 'Replace the value of Authorization' }).click();
  await edit.getByLabel('Header 1 value').fill(`Bearer ${TOKEN}`);
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(edit).toBeHidden({ timeout: 20_000 });
  await expect(page.getByText(`Saved “${name}”: 2 tools`)).toBeVisible();
  await expect(card.getByText('1 header stored')).toBeVisible();

  // The agent editor lists the server's tools in their own group; the Researcher gets lookup_fact.
  const researcher = await findAgentByName(request, 'Researcher');
  researcherTools = researcher.toolIds;
  await page.goto(`/w/${WORKSPACE}/agents/${encodeURIComponent(researcher.id)}`);
  const group = page.getByRole('group', { name: `Tools of ${name}` });
  await expect(group).toBeVisible();
  await expect(page.getByRole('group', { name: 'Built-in tools' })).toBeVisible();
  await group.getByRole('switch', { name: 'lookup_fact' }).click();
  await expect(group.getByRole('switch', { name: 'lookup_fact' })).toHaveAttribute('aria-checked', 'true');
  // The Assistant delegates to the Researcher but lacks the tool: the card says it is withheld there.
  await expect(page.getByRole('list', { name: 'Tools withheld when delegated' })).toContainText('Delegated by Assistant, this agent goes without lookup_fact');
  await group.scrollIntoViewIfNeeded();
  await shots(page, 'mcp-tools-card');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Saved “Researcher”')).toBeVisible();
  const serverId = (await (await request.get(`/api/workspaces/${WORKSPACE}/mcp-servers`)).json()).data.find((s: { name: string }) => s.name === name).id;
  await expect.poll(async () => (await findAgentByName(request, 'Researcher')).toolIds).toContain(`mcp:${serverId}:lookup_fact`);

  // Under the Assistant the Researcher only gets tools the Assistant has too (the default
  // tool permission): the editor says so, and letting sub-agents use their own tools lifts it.
  const assistant = await findAgentByName(request, 'Assistant');
  assistantDelegation = assistant.delegation;
  await page.goto(`/w/${WORKSPACE}/agents/${encodeURIComponent(assistant.id)}`);
  const effective = page.getByTestId(`effective-tools-${researcher.id}`);
  await expect(effective).toContainText('not lookup_fact: this agent does not have it');
  await page.getByLabel('Tool permissions').selectOption({ label: 'The sub-agent’s own tools' });
  await expect(effective).toHaveText('Tools here: lookup_fact');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Saved “Assistant”')).toBeVisible();

  // A delegated task that uses the tool: the call shows in the sub-chat with its input and output.
  const chatId = await startChat(page, 'Assistant', '/delegate Researcher: /tool lookup_fact {"topic":"otters"}');
  // The sub-agent takes half a second and the modal steps aside when it is done: its sub-chat
  // is read in the viewer its block opens.
  await expect(block(page, 'Researcher')).toContainText('Done', { timeout: 20_000 });
  await block(page, 'Researcher').getByRole('button', { name: 'View the sub-chat of Researcher' }).click();
  const modal = subAgentDialog(page);
  await expect(modal).toBeVisible();
  const call = modal.locator('details', { has: page.getByLabel(/^Tool call lookup_fact/) });
  await expect(modal.getByLabel(`Tool call lookup_fact from ${name}, done`)).toBeVisible({ timeout: 20_000 });
  await modal.getByLabel(`Tool call lookup_fact from ${name}, done`).click();
  await expect(call).toContainText('"topic": "otters"');
  await expect(call).toContainText('Sea otters hold hands while they sleep');
  await expect(modal.getByRole('group', { name: 'Task result' })).toContainText('Sea otters hold hands', { timeout: 20_000 });
  await expect(modal.getByRole('group', { name: 'What the sub-agent was given' })).toContainText(`Tools it could use: lookup_fact (${name})`);
  await shots(page, 'mcp-sub-chat-tool-call');
  expect(mcp.calls()).toContainEqual({ name: 'lookup_fact', args: { topic: 'otters' } });

  // The parent continued with the sub-agent's result.
  await page.keyboard.press('Escape');
  await expect(modal).toBeHidden();
  await expect(lastAnswer(page)).toContainText('Researcher (success)', { timeout: 20_000 });
  await expect(lastAnswer(page)).toContainText('Sea otters hold hands');
  const [sub] = await subChats(request, chatId);
  expect(sub).toMatchObject({ agentId: researcher.id });

  // Other tests list lookup_fact from another server: remove this one so the name stays unambiguous.
  const removed = await request.delete(`/api/workspaces/${WORKSPACE}/mcp-servers/${serverId}`);
  expect(removed.status()).toBe(204);
});

test('an unreachable server shows why its tools could not be listed, and can be removed', async ({ page }) => {
  const name = unique('Offline');
  await page.goto(`/w/${WORKSPACE}/settings/tool-servers`);
  await page.getByRole('button', { name: 'Add tool server' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Add tool server' });
  await dialog.getByLabel('Name').fill(name);
  // Port 2 on loopback: nothing listens there, the connection is refused (port 1 is one of the
  // Fetch standard's blocked ports, which Baton reports as such instead).
  await dialog.getByLabel('URL').fill('http://127.0.0.1:2/mcp');
  await dialog.getByRole('button', { name: 'Add tool server' }).click();
  await expect(dialog).toBeHidden({ timeout: 20_000 });
  await expect(page.getByText(`Saved “${name}”, but server unreachable`)).toBeVisible();

  const card = page.getByRole('listitem', { name });
  const error = card.getByRole('alert', { name: 'Listing error: Server unreachable' });
  await expect(error).toContainText('Check the URL and that the server is running and reachable');
  await shots(page, 'mcp-settings-unreachable');

  await card.getByRole('button', { name: `Refresh tools of ${name}` }).click();
  await expect(page.getByText(`${name}: server unreachable`)).toBeVisible({ timeout: 20_000 });

  // Disabled, agents skip its tools; the setting is saved at once.
  const enabled = card.getByRole('switch', { name: `Enable ${name}` });
  await enabled.click();
  await expect(page.getByText(`Disabled ${name}: agents skip its tools`)).toBeVisible();
  await expect(enabled).toHaveAttribute('aria-checked', 'false');
  await expect(card.getByText('Disabled', { exact: true })).toBeVisible();

  await card.getByRole('button', { name: `Remove tool server ${name}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Remove tool server?' });
  await confirm.getByRole('button', { name: 'Remove tool server' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByRole('listitem', { name })).toHaveCount(0);
  await expect(page.getByText(`Removed tool server “${name}”`)).toBeVisible();
});

test('a tool server that dies during the call: the tool call shows the error and the answer goes on', async ({ page, request }) => {
  const dying = await startTestMcpServer();
  let server: { id: string; tools: unknown[] } | undefined;
  try {
    const name = unique('Flaky facts');
    const created = await request.post(`/api/workspaces/${WORKSPACE}/mcp-servers`, { data: { name, url: dying.url } });
    expect(created.status(), await created.text()).toBe(201);
    server = (await created.json()) as { id: string; tools: unknown[] };
    expect(server.tools).toHaveLength(2);
    const agent = await createAgentViaApi(request, { name: unique('Fact checker'), toolIds: [`mcp:${server.id}:lookup_fact`] });
    // The turn lists the tools, then the server is gone when the model calls one.
    dying.dieAfterNextListing();

    await startChat(page, agent.name, '/tool lookup_fact {"topic":"otters"}');
    const label = `Tool call lookup_fact from ${name}, failed`;
    await expect(page.getByLabel(label)).toBeVisible({ timeout: 20_000 });
    await page.getByLabel(label).click();
    const call = page.locator('details', { has: page.getByLabel(label) });
    await expect(call).toContainText('"topic": "otters"');
    await expect(call).toContainText(`The MCP server "${name}" failed during the call`);
    // The model got the error as the call's result and answered anyway.
    await expect(lastAnswer(page)).toContainText('Here is what came back', { timeout: 20_000 });
    await expect(lastAnswer(page)).toContainText('failed during the call');
    await expect(lastAnswer(page)).not.toContainText('Sea otters hold hands');
    await expect(page.getByRole('button', { name: 'Stop answering' })).toHaveCount(0, { timeout: 20_000 });
    await shots(page, 'mcp-tool-call-error');
  } finally {
    await dying.close();
    if (server) await request.delete(`/api/workspaces/${WORKSPACE}/mcp-servers/${server.id}`);
  }
});

test('a member sees the tool servers and their tools read-only, and may list the tools again', async ({ browser, request }) => {
  const name = unique('Shared facts');
  const created = await request.post(`/api/workspaces/${WORKSPACE}/mcp-servers`, {
    data: { name, url: mcp.url, headers: { Authorization: `Bearer ${TOKEN}` } },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id: serverId } = (await created.json()) as { id: string };
  const invitation = await request.post(`/api/workspaces/${WORKSPACE}/invitations`, { data: { role: 'member' } });
  expect(invitation.status(), await invitation.text()).toBe(201);
  const { token } = (await invitation.json()) as { token: string };

  const memberPage = await signedOutPage(browser);
  try {
    await memberPage.goto(`/invite/${token}`);
    await fillAccountForm(memberPage, { name: 'Tool reader', email: `tools-${Date.now().toString(36)}@baton.test`, password: 'model context protocol' });
    await memberPage.getByRole('button', { name: 'Create account and join' }).click();
    await expect(memberPage).toHaveURL(new RegExp(`/w/${WORKSPACE}$`));

    await memberPage.goto(`/w/${WORKSPACE}/settings/tool-servers`);
    await expect(memberPage.getByRole('note', { name: 'Admins only' })).toContainText('Workspace admins add, change and remove tool servers');
    await expect(memberPage.getByRole('button', { name: 'Add tool server' })).toHaveCount(0);
    const card = memberPage.getByRole('listitem', { name });
    await expect(card.getByRole('switch', { name: `Enable ${name}` })).toBeDisabled();
    await expect(card.getByRole('button', { name: `Edit tool server ${name}` })).toHaveCount(0);
    await expect(card.getByRole('button', { name: `Remove tool server ${name}` })).toHaveCount(0);
    await card.getByRole('button', { name: /^2 tools/ }).click();
    await expect(card.getByRole('list', { name: `Tools of ${name}` })).toContainText('lookup_fact');
    await card.getByRole('button', { name: `Refresh tools of ${name}` }).click();
    await expect(memberPage.getByText(`${name}: 2 tools listed`)).toBeVisible({ timeout: 20_000 });
    await shots(memberPage, 'mcp-settings-member');
  } finally {
    await memberPage.context().close();
    await request.delete(`/api/workspaces/${WORKSPACE}/mcp-servers/${serverId}`);
  }
});
