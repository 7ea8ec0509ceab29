import { expect, test } from '@playwright/test';
import { createChatViaApi, shot, sidebar, unique, WORKSPACE } from './helpers';
import { fillAccountForm, OWNER, signedOutPage } from './support/accounts';

/*
 * The owner invites a second person as a member. The member signs up through the link in
 * a browser of their own, and sees a workspace with shared agents but private chats and
 * read-only administration.
 */

test('an invited member signs up with the link, cannot see the owner’s chats, and gets “admins only” for admin actions', async ({ page, browser, request }) => {
  test.setTimeout(90_000);
  const ownerChat = await createChatViaApi(request, { title: unique('Owner’s private plans') });
  const member = { name: 'Grace Hopper', email: `grace-${Date.now().toString(36)}@baton.test`, password: 'compilers are people too' };

  // The owner creates a member invite link on the Members page.
  await page.goto(`/w/${WORKSPACE}/settings/members`);
  await expect(page.getByRole('heading', { name: 'Members', level: 1 })).toBeVisible();
  await expect(page.getByRole('listitem', { name: OWNER.name })).toContainText('Owner');
  await page.getByLabel('Role', { exact: true }).selectOption('member');
  await page.getByRole('button', { name: 'Create invite link' }).click();
  const link = await page.getByRole('textbox', { name: 'Invite link' }).inputValue();
  expect(link).toMatch(new RegExp(`^${new URL(page.url()).origin}/invite/[\\w-]+$`));
  await expect(page.getByRole('list', { name: 'Pending invitations' }).getByRole('listitem')).toHaveCount(1);
  await shot(page, 'members-invite-link');

  // The member opens it in a browser of their own and creates their account.
  const memberPage = await signedOutPage(browser);
  await memberPage.goto(link);
  await expect(memberPage.getByRole('heading', { name: 'Join Default' })).toBeVisible();
  await expect(memberPage.getByText('You’re invited to Default as member')).toBeVisible();
  await fillAccountForm(memberPage, member);
  await shot(memberPage, 'invite-sign-up');
  await memberPage.getByRole('button', { name: 'Create account and join' }).click();
  await expect(memberPage).toHaveURL(new RegExp(`/w/${WORKSPACE}$`));
  await expect(memberPage.getByRole('button', { name: `Account: ${member.name}` })).toBeVisible();
  await expect(memberPage.getByRole('button', { name: /^Workspace: Default/ })).toContainText('Member');

  // Agents are shared; the owner's chat is not listed, and its address is "not found".
  await expect(memberPage.getByLabel('Agent', { exact: true })).toContainText('Assistant');
  await expect(sidebar(memberPage).getByText('No chats yet.')).toBeVisible();
  await expect(sidebar(memberPage).getByText(ownerChat.title)).toHaveCount(0);
  await memberPage.goto(`/w/${WORKSPACE}/chat/${encodeURIComponent(ownerChat.id)}`);
  await expect(memberPage.getByRole('heading', { name: 'Chat not found' })).toBeVisible();
  await expect(memberPage.getByText(ownerChat.title)).toHaveCount(0);

  // The link worked once.
  const again = await signedOutPage(browser);
  await again.goto(link);
  await expect(again.getByRole('heading', { name: 'This invite link can’t be used' })).toBeVisible();
  await shot(again, 'invite-link-used');
  await again.context().close();

  // Admin actions: "admins only", never an error or a button that would fail.
  await memberPage.goto(`/w/${WORKSPACE}/settings/members`);
  const people = memberPage.getByRole('list', { name: 'Members' });
  await expect(people.getByRole('listitem', { name: member.name })).toContainText('You');
  await expect(people.getByRole('listitem', { name: OWNER.name })).toContainText('Owner');
  await expect(memberPage.getByRole('note', { name: 'Admins only' })).toContainText('Only workspace admins can invite people');
  await expect(memberPage.getByRole('button', { name: 'Create invite link' })).toHaveCount(0);
  await expect(memberPage.getByRole('combobox', { name: /^Role of / })).toHaveCount(0);
  await expect(memberPage.getByRole('button', { name: /^Remove / })).toHaveCount(0);
  await expect(memberPage.getByRole('main').getByRole('alert')).toHaveCount(0);
  await shot(memberPage, 'members-admins-only');
  expect((await memberPage.request.post(`/api/workspaces/${WORKSPACE}/invitations`, { data: { role: 'member' } })).status()).toBe(403);

  await memberPage.goto(`/w/${WORKSPACE}/settings/providers`);
  await expect(memberPage.getByRole('note', { name: 'Admins only' })).toContainText('Workspace admins add, change and remove providers');
  await expect(memberPage.getByRole('button', { name: 'Add provider' })).toHaveCount(0);
  await shot(memberPage, 'providers-member');

  // A member sees their own API keys (no holder column); the owner sees everyone's.
  const memberKey = unique('Grace’s script');
  await memberPage.goto(`/w/${WORKSPACE}/settings/api-keys`);
  await memberPage.getByRole('button', { name: 'Create API key' }).first().click();
  await memberPage.getByRole('dialog', { name: 'Create API key' }).getByLabel('Name').fill(memberKey);
  await memberPage.getByRole('button', { name: 'Create key' }).click();
  await memberPage.getByRole('button', { name: 'Done' }).click();
  await expect(memberPage.getByRole('row', { name: memberKey })).toBeVisible();
  await expect(memberPage.getByRole('columnheader', { name: 'Owner' })).toHaveCount(0);
  await page.goto(`/w/${WORKSPACE}/settings/api-keys`);
  await expect(page.getByRole('row', { name: memberKey }).getByRole('cell').nth(2)).toHaveText(member.name);
  await shot(page, 'api-keys-admin-view');

  // The owner sees the new member, makes them an admin, then removes them.
  await page.goto(`/w/${WORKSPACE}/settings/members`);
  const row = page.getByRole('listitem', { name: member.name });
  await expect(row).toContainText(member.email);
  await expect(page.getByRole('list', { name: 'Pending invitations' })).toHaveCount(0);
  await row.getByRole('combobox', { name: `Role of ${member.name}` }).selectOption('admin');
  await expect(page.getByText(`${member.name} is now admin`)).toBeVisible();
  await memberPage.goto(`/w/${WORKSPACE}/settings/members`);
  await expect(memberPage.getByRole('button', { name: 'Create invite link' })).toBeVisible();

  await row.getByRole('button', { name: `Remove ${member.name}` }).click();
  const confirm = page.getByRole('dialog', { name: `Remove ${member.name}?` });
  await confirm.getByRole('button', { name: 'Remove member' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByRole('listitem', { name: member.name })).toHaveCount(0);

  // Removed: the workspace is gone for them, and so are their keys for it.
  await memberPage.goto(`/w/${WORKSPACE}/agents`);
  await expect(memberPage.getByRole('heading', { name: 'Workspace not found' })).toBeVisible();
  await page.goto(`/w/${WORKSPACE}/settings/api-keys`);
  await expect(page.getByRole('heading', { name: 'API keys', level: 1 })).toBeVisible();
  await expect(page.getByRole('row', { name: memberKey })).toHaveCount(0);

  // In no workspace now, they can still sign in; a new link brings them back, with one click.
  await memberPage.goto('/');
  await expect(memberPage.getByRole('heading', { name: 'You are not in a workspace' })).toBeVisible();
  await page.goto(`/w/${WORKSPACE}/settings/members`);
  await page.getByLabel('Role', { exact: true }).selectOption('admin');
  await page.getByRole('button', { name: 'Create invite link' }).click();
  const adminLink = await page.getByRole('textbox', { name: 'Invite link' }).inputValue();
  await memberPage.goto(adminLink);
  await expect(memberPage.getByText(`Signed in as ${member.name} (${member.email})`)).toBeVisible();
  await expect(memberPage.getByText('You’re invited to Default as admin')).toBeVisible();
  await expect(memberPage.getByLabel('Password')).toHaveCount(0);
  await shot(memberPage, 'invite-accept-signed-in');
  await memberPage.getByRole('button', { name: 'Join Default' }).click();
  await expect(memberPage).toHaveURL(new RegExp(`/w/${WORKSPACE}$`));
  await expect(memberPage.getByRole('button', { name: /^Workspace: Default/ })).toContainText('Admin');
  await memberPage.context().close();
});

test('an admin revokes an invite link before it is used', async ({ page, browser }) => {
  await page.goto(`/w/${WORKSPACE}/settings/members`);
  await page.getByLabel('Role', { exact: true }).selectOption('admin');
  await page.getByRole('button', { name: 'Create invite link' }).click();
  const link = await page.getByRole('textbox', { name: 'Invite link' }).inputValue();
  const pending = page.getByRole('list', { name: 'Pending invitations' });
  await pending.getByRole('listitem', { name: 'Admin invitation' }).getByRole('button', { name: 'Revoke' }).click();
  await page.getByRole('dialog', { name: 'Revoke invite link?' }).getByRole('button', { name: 'Revoke link' }).click();
  await expect(page.getByText('No pending invitations.')).toBeVisible();

  const visitor = await signedOutPage(browser);
  await visitor.goto(link);
  await expect(visitor.getByRole('heading', { name: 'This invite link can’t be used' })).toBeVisible();
  await expect(visitor.getByLabel('Password')).toHaveCount(0);
  await visitor.context().close();
});
