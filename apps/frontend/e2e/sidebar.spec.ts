import { expect, test } from '@playwright/test';
import { createChatViaApi, shot, sidebar, unique, WORKSPACE } from './helpers';

test('sidebar lists a chat created through the API; rename and delete it', async ({ page, request }) => {
  const title = unique('Trip plan');
  const renamed = unique('Renamed trip');
  const chat = await createChatViaApi(request, { title });

  await page.goto('/');
  await expect(page).toHaveURL(new RegExp(`/w/${WORKSPACE}$`));
  const nav = sidebar(page);
  const link = nav.getByRole('link', { name: title });
  await expect(link).toBeVisible();
  await shot(page, 'new-chat');

  await link.click();
  await expect(page).toHaveURL(new RegExp(`/chat/${chat.id}$`));
  await expect(page.getByRole('heading', { name: title })).toBeVisible();
  await expect(page.getByText('No messages yet')).toBeVisible();
  // A chat made without an agent asks for one before the first message.
  await expect(page.getByLabel('Agent to continue with')).toBeVisible();
  await expect(page.getByLabel('Message', { exact: true })).toBeEnabled();
  await shot(page, 'chat');

  await nav.getByRole('button', { name: `Rename chat ${title}` }).click();
  const rename = page.getByRole('dialog', { name: 'Rename chat' });
  await rename.getByLabel('Chat title').fill('   ');
  await rename.getByRole('button', { name: 'Save' }).click();
  await expect(rename.getByText('Title must not be empty')).toBeVisible();
  await rename.getByLabel('Chat title').fill(renamed);
  await shot(page, 'chat-rename');
  await rename.getByRole('button', { name: 'Save' }).click();
  await expect(rename).toBeHidden();
  await expect(nav.getByRole('link', { name: renamed })).toBeVisible();
  await expect(nav.getByRole('link', { name: title })).toHaveCount(0);
  expect((await (await request.get(`/api/workspaces/${WORKSPACE}/chats/${chat.id}`)).json()).title).toBe(renamed);

  await nav.getByRole('button', { name: `Delete chat ${renamed}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete chat?' });
  await expect(confirm.getByText(`“${renamed}” and its sub-agent chats will be deleted permanently.`)).toBeVisible();
  await shot(page, 'chat-delete-dialog');
  await confirm.getByRole('button', { name: 'Delete chat' }).click();
  await expect(nav.getByRole('link', { name: renamed })).toHaveCount(0);
  // The open chat was deleted: back to the new-chat page.
  await expect(page).toHaveURL(new RegExp(`/w/${WORKSPACE}$`));
  expect((await request.get(`/api/workspaces/${WORKSPACE}/chats/${chat.id}`)).status()).toBe(404);
});

test('sidebar loads older chats page by page as it scrolls', async ({ page, request }) => {
  const tag = unique('Batch');
  // More than one page (30) of chats; the oldest is created first.
  for (let i = 1; i <= 35; i++) await createChatViaApi(request, { title: `${tag} #${i}` });

  await page.goto(`/w/${WORKSPACE}/agents`);
  const nav = sidebar(page);
  await expect(nav.getByRole('link', { name: `${tag} #35` })).toBeVisible();
  const oldest = nav.getByRole('link', { name: `${tag} #1`, exact: true });
  await expect(oldest).toHaveCount(0);
  await nav.getByRole('button', { name: 'Load more chats' }).scrollIntoViewIfNeeded();
  await expect(oldest).toBeVisible();
});

test('a chat page shows the stored messages read-only; sub-chats stay out of the sidebar', async ({ page, request }) => {
  const agents = (await (await request.get(`/api/workspaces/${WORKSPACE}/agents?limit=100`)).json()) as {
    data: Array<{ id: string; name: string; subAgentIds: string[] }>;
  };
  const parent = agents.data.find((a) => a.subAgentIds.length > 0);
  test.skip(!parent, 'needs an agent with sub-agents (the starter set)');
  const chat = await createChatViaApi(request, { agentId: parent!.id, title: unique('Delegation') });
  const sub = (await request.get(`/api/workspaces/${WORKSPACE}/agents/${parent!.subAgentIds[0]}`).then((r) => r.json())) as { name: string };
  // Server-side delegation (the REST flow of the agent runtime) stores a turn with a sub-chat.
  const run = await request.post(`/api/workspaces/${WORKSPACE}/chats/${chat.id}/messages`, {
    data: { text: `/delegate ${sub.name}: list three facts about otters` },
  });
  test.skip(run.status() === 404, 'the messages endpoint arrives with the agent runtime');
  expect(run.ok(), await run.text()).toBe(true);

  await page.goto(`/w/${WORKSPACE}/chat/${chat.id}`);
  const messages = page.getByRole('list', { name: 'Messages' });
  await expect(messages.getByRole('listitem', { name: 'You' })).toContainText('list three facts about otters');
  await expect(messages.getByRole('listitem', { name: 'Agent' }).first()).toBeVisible();
  await shot(page, 'chat-messages');

  const subChats = (await (await request.get(`/api/workspaces/${WORKSPACE}/chats/${chat.id}/sub-chats`)).json()) as {
    data: Array<{ id: string; title: string }>;
  };
  expect(subChats.data.length).toBeGreaterThan(0);
  const subChat = subChats.data[0]!;
  await expect(sidebar(page).getByRole('link', { name: chat.title })).toBeVisible();
  await expect(sidebar(page).locator(`a[href$="/chat/${subChat.id}"]`)).toHaveCount(0);

  // A sub-chat opened by URL is read-only, with a way back to its parent.
  await page.goto(`/w/${WORKSPACE}/chat/${subChat.id}`);
  await expect(page.getByText(/^Sub-agent( · \w+)?$/)).toBeVisible();
  await expect(page.getByLabel('Message', { exact: true })).toHaveCount(0);
  await shot(page, 'sub-chat');
  await page.getByRole('link', { name: 'Back to the parent chat' }).click();
  await expect(page).toHaveURL(new RegExp(`/chat/${chat.id}$`));
});

test('chats are grouped by day; pin one to the top, archive one (with undo) and restore it from Archived chats', async ({ page, request }) => {
  const pinMe = unique('Pin me 📌');
  const fileMe = unique('File me');
  await createChatViaApi(request, { title: pinMe });
  await createChatViaApi(request, { title: fileMe });

  await page.goto(`/w/${WORKSPACE}/agents`);
  const nav = sidebar(page);
  const today = nav.getByRole('list', { name: 'Today chats' });
  await expect(today.getByRole('link', { name: pinMe })).toBeVisible();

  await nav.getByRole('button', { name: `Pin chat ${pinMe}` }).click();
  const pinned = nav.getByRole('list', { name: 'Pinned chats' });
  await expect(pinned.getByRole('link', { name: pinMe })).toBeVisible();
  await expect(today.getByRole('link', { name: pinMe })).toHaveCount(0);
  await shot(page, 'sidebar-pinned');
  // Pinned stays pinned after a reload (stored, listed first by the server).
  await page.reload();
  await expect(nav.getByRole('list', { name: 'Pinned chats' }).getByRole('link', { name: pinMe })).toBeVisible();

  await nav.getByRole('button', { name: `Archive chat ${fileMe}` }).click();
  await expect(nav.getByRole('link', { name: fileMe })).toHaveCount(0);
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(nav.getByRole('link', { name: fileMe })).toBeVisible();

  await nav.getByRole('button', { name: `Archive chat ${fileMe}` }).click();
  await expect(nav.getByRole('link', { name: fileMe })).toHaveCount(0);
  await nav.getByRole('link', { name: 'Archived chats' }).click();
  await expect(page.getByRole('heading', { name: 'Archived chats' })).toBeVisible();
  const archived = page.getByRole('list', { name: 'Archived chats' });
  await expect(archived.getByRole('link', { name: fileMe })).toBeVisible();
  await shot(page, 'archived-chats');
  await archived.getByRole('button', { name: `Restore chat ${fileMe}` }).click();
  await expect(archived.getByRole('link', { name: fileMe })).toHaveCount(0);
  await expect(nav.getByRole('link', { name: fileMe })).toBeVisible();

  await nav.getByRole('button', { name: `Unpin chat ${pinMe}` }).click();
  await expect(nav.getByRole('list', { name: 'Today chats' }).getByRole('link', { name: pinMe })).toBeVisible();
});
