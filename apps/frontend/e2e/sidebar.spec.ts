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

  // Rename inline: an empty title is refused where it is typed; Enter saves.
  await nav.getByRole('button', { name: `Rename chat ${title}` }).click();
  const titleBox = nav.getByRole('textbox', { name: 'Chat title' });
  await expect(titleBox).toBeFocused();
  await titleBox.fill('   ');
  await titleBox.press('Enter');
  await expect(nav.getByRole('alert')).toHaveText('Title must not be empty');
  await titleBox.fill(renamed);
  await shot(page, 'chat-rename');
  await titleBox.press('Enter');
  await expect(titleBox).toHaveCount(0);
  await expect(nav.getByRole('link', { name: renamed })).toBeVisible();
  await expect(nav.getByRole('link', { name: title })).toHaveCount(0);
  expect((await (await request.get(`/api/workspaces/${WORKSPACE}/chats/${chat.id}`)).json()).title).toBe(renamed);
  // F2 on the focused link renames too; Escape keeps the title.
  await nav.getByRole('link', { name: renamed }).focus();
  await page.keyboard.press('F2');
  await titleBox.fill('not this');
  await titleBox.press('Escape');
  await expect(nav.getByRole('link', { name: renamed })).toBeVisible();

  // Delete offers Undo, and sends nothing until the offer has passed.
  await nav.getByRole('button', { name: `Delete chat ${renamed}` }).click();
  await expect(nav.getByRole('link', { name: renamed })).toHaveCount(0);
  // The open chat is being deleted: back to the new-chat page.
  await expect(page).toHaveURL(new RegExp(`/w/${WORKSPACE}$`));
  const toast = page.getByRole('listitem').filter({ hasText: `Deleted “${renamed}”` });
  await shot(page, 'chat-delete-undo');
  await toast.getByRole('button', { name: 'Undo' }).click();
  await expect(nav.getByRole('link', { name: renamed })).toBeVisible();
  // Gone before the next delete offers the same words (on a loaded machine it was still leaving).
  await expect(toast).toHaveCount(0);
  expect((await request.get(`/api/workspaces/${WORKSPACE}/chats/${chat.id}`)).status()).toBe(200);

  await nav.getByRole('button', { name: `Delete chat ${renamed}` }).click();
  await expect(nav.getByRole('link', { name: renamed })).toHaveCount(0);
  // Closing the offer deletes at once.
  await page
    .getByRole('listitem')
    .filter({ hasText: `Deleted “${renamed}”` })
    .getByRole('button', { name: 'Close toast' })
    .click();
  await expect.poll(async () => (await request.get(`/api/workspaces/${WORKSPACE}/chats/${chat.id}`)).status()).toBe(404);
});

test('several chats selected, deleted with Undo, then deleted for good; a reload in the Undo window still deletes', async ({ page, request }) => {
  const tag = unique('Pick');
  const chats: Awaited<ReturnType<typeof createChatViaApi>>[] = [];
  for (let i = 1; i <= 4; i++) chats.push(await createChatViaApi(request, { title: `${tag} #${i}` }));
  const status = async (i: number) => (await request.get(`/api/workspaces/${WORKSPACE}/chats/${chats[i]!.id}`)).status();

  await page.goto(`/w/${WORKSPACE}/agents`);
  const nav = sidebar(page);
  await expect(nav.getByRole('link', { name: `${tag} #4` })).toBeVisible();
  await nav.getByRole('button', { name: 'Select', exact: true }).click();
  const bar = nav.getByRole('region', { name: 'Selected chats' });
  await expect(bar.getByRole('status')).toHaveText('Select chats');
  // Newest first: #4, #3, #2 by a click and a Shift-click.
  await nav.getByRole('checkbox', { name: `${tag} #4` }).click();
  await nav.getByRole('checkbox', { name: `${tag} #2` }).click({ modifiers: ['Shift'] });
  await expect(bar.getByRole('status')).toHaveText('3 selected');
  await expect(nav.getByRole('checkbox', { name: `${tag} #3` })).toBeChecked();
  await expect(nav.getByRole('checkbox', { name: `${tag} #1` })).not.toBeChecked();
  await shot(page, 'sidebar-select');

  await bar.getByRole('button', { name: 'Delete 3 selected chats' }).click();
  await expect(bar).toHaveCount(0);
  for (const i of [4, 3, 2]) await expect(nav.getByRole('link', { name: `${tag} #${i}` })).toHaveCount(0);
  await page.getByRole('listitem').filter({ hasText: 'Deleted 3 chats' }).getByRole('button', { name: 'Undo' }).click();
  for (const i of [4, 3, 2]) await expect(nav.getByRole('link', { name: `${tag} #${i}` })).toBeVisible();
  expect(await status(3)).toBe(200);

  // A reload inside the Undo window: the page sends the deletions as it goes.
  await nav.getByRole('button', { name: 'Select', exact: true }).click();
  await nav.getByRole('checkbox', { name: `${tag} #1` }).click();
  await nav.getByRole('checkbox', { name: `${tag} #2` }).click();
  await nav.getByRole('region', { name: 'Selected chats' }).getByRole('button', { name: 'Delete 2 selected chats' }).click();
  await expect(nav.getByRole('link', { name: `${tag} #1` })).toHaveCount(0);
  await page.reload();
  await expect.poll(() => status(0)).toBe(404);
  await expect.poll(() => status(1)).toBe(404);
  expect(await status(2)).toBe(200);
  // (The first reload may have read the list before the deletions arrived.)
  await page.reload();
  await expect(nav.getByRole('link', { name: `${tag} #3` })).toBeVisible();
  await expect(nav.getByRole('link', { name: `${tag} #1` })).toHaveCount(0);
});

test('keyboard: Alt+↓/↑ walk the chat list, Ctrl+Shift+O starts a new chat, Ctrl+/ lists the shortcuts', async ({ page, request }) => {
  const tag = unique('Walk');
  const older = await createChatViaApi(request, { title: `${tag} older` });
  const newer = await createChatViaApi(request, { title: `${tag} newer` });

  await page.goto(`/w/${WORKSPACE}/chat/${newer.id}`);
  await expect(page.getByRole('heading', { name: `${tag} newer` })).toBeVisible();
  await page.keyboard.press('Alt+ArrowDown');
  await expect(page).toHaveURL(new RegExp(`/chat/${older.id}$`));
  await page.keyboard.press('Alt+ArrowUp');
  await expect(page).toHaveURL(new RegExp(`/chat/${newer.id}$`));
  await page.keyboard.press('Control+Shift+O');
  await expect(page).toHaveURL(new RegExp(`/w/${WORKSPACE}$`));
  await page.keyboard.press('Control+/');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help.getByText('Next chat')).toBeVisible();
  await shot(page, 'keyboard-shortcuts');
  await page.keyboard.press('Escape');
  await expect(help).toHaveCount(0);
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
