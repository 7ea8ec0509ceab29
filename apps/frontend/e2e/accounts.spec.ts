import { type APIRequestContext, type Browser, expect, type Page, test } from '@playwright/test';
import { shots, WORKSPACE } from './helpers';
import { signedOutPage, signIn, signOutViaMenu } from './support/accounts';

/*
 * Accounts: changing your password, a reset link an admin makes for a member who forgot
 * theirs, and single sign-on with the suite's OpenID Connect provider (oidcServer in
 * playwright.config.ts: a real oidc-provider with its development sign-in pages).
 */

const FIRST_PASSWORD = 'the first password';

/** A member with a browser of their own, signed in (joined through an invitation made over the API). */
async function newMember(browser: Browser, request: APIRequestContext, name: string) {
  const invitation = await (await request.post(`/api/workspaces/${WORKSPACE}/invitations`, { data: { role: 'member' } })).json();
  const page = await signedOutPage(browser);
  const email = `${name.split(' ')[0]!.toLowerCase()}-${Date.now().toString(36)}@baton.test`;
  const res = await page.request.post('/api/auth/sign-up/email', { data: { name, email, password: FIRST_PASSWORD, inviteToken: invitation.token } });
  expect(res.ok(), await res.text()).toBe(true);
  return { page, name, email };
}

async function openAccountMenu(page: Page) {
  await page.getByRole('button', { name: /^Account: / }).click();
}

test('a member changes their password: the current one is checked, their other devices are signed out', async ({ browser, request }) => {
  const member = await newMember(browser, request, 'Mary Jackson');
  const phone = await signedOutPage(browser);
  await phone.goto('/sign-in');
  await signIn(phone, member.email, FIRST_PASSWORD);
  // The suite's first workspace page after the build: its first render may take a while on a loaded machine.
  await expect(phone.getByRole('button', { name: `Account: ${member.name}` })).toBeVisible({ timeout: 30_000 });

  const page = member.page;
  await page.goto(`/w/${WORKSPACE}`);
  await openAccountMenu(page);
  await page.getByRole('menuitem', { name: 'Change password' }).click();
  const dialog = page.getByRole('dialog', { name: 'Change password' });
  await dialog.getByLabel('Current password').fill('not my password');
  await dialog.getByLabel('New password', { exact: true }).fill('a better password');
  await dialog.getByLabel('Confirm new password').fill('a better password');
  await dialog.getByRole('button', { name: 'Change password' }).click();
  await expect(dialog.getByText('The current password is wrong.')).toBeVisible();
  await shots(page, 'change-password-wrong-current');

  await dialog.getByLabel('Current password').fill(FIRST_PASSWORD);
  await dialog.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Password changed. Your other devices were signed out.')).toBeVisible();
  await expect(dialog).toHaveCount(0);

  // This browser stays signed in; the phone is signed out at its next request.
  await page.reload();
  await expect(page.getByRole('button', { name: `Account: ${member.name}` })).toBeVisible();
  await phone.reload();
  await expect(phone).toHaveURL(/\/sign-in/);

  // The new password is the one that works.
  await signIn(phone, member.email, FIRST_PASSWORD);
  await expect(phone.getByRole('main').getByRole('alert')).toContainText(/invalid email or password/i);
  await phone.getByLabel('Password').fill('a better password');
  await phone.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(phone.getByRole('button', { name: `Account: ${member.name}` })).toBeVisible();
  await phone.context().close();
  await page.context().close();
});

test('an admin makes a reset link for a member, who sets a new password with it, once', async ({ page, browser, request }) => {
  const member = await newMember(browser, request, 'Annie Easley');
  await member.page.goto(`/w/${WORKSPACE}`);
  await expect(member.page.getByRole('button', { name: `Account: ${member.name}` })).toBeVisible();

  // The owner, on the Members page.
  await page.goto(`/w/${WORKSPACE}/settings/members`);
  const row = page.getByRole('list', { name: 'Members' }).getByRole('listitem', { name: member.name });
  await row.getByRole('button', { name: `Password reset link for ${member.name}` }).click();
  const dialog = page.getByRole('dialog', { name: `Password reset link for ${member.name}` });
  await expect(dialog).toContainText('Their current password keeps working until the link is used');
  await dialog.getByRole('button', { name: 'Create reset link' }).click();
  const link = await dialog.getByRole('textbox', { name: 'Reset link' }).inputValue();
  expect(link).toMatch(new RegExp(`^${new URL(page.url()).origin}/reset-password/[\\w-]+$`));
  await shots(page, 'reset-link-dialog');
  await dialog.getByRole('button', { name: 'Done' }).click();
  // The owner's own row offers none.
  await expect(page.getByRole('button', { name: /^Password reset link for Ada/ })).toHaveCount(0);

  // The member, in a browser where they are not signed in, opens it.
  const forgot = await signedOutPage(browser);
  await forgot.goto(link);
  await expect(forgot.getByRole('heading', { name: 'Set a new password' })).toBeVisible();
  await forgot.getByLabel('New password', { exact: true }).fill('reset by the link');
  await forgot.getByLabel('Confirm password').fill('reset by the linc');
  await forgot.getByRole('button', { name: 'Set password' }).click();
  await expect(forgot.getByText('The two passwords differ')).toBeVisible();
  await forgot.getByLabel('Confirm password').fill('reset by the link');
  await shots(forgot, 'reset-password-page');
  await forgot.getByRole('button', { name: 'Set password' }).click();
  await expect(forgot.getByRole('heading', { name: 'Your password is set' })).toBeVisible();
  await forgot.getByRole('link', { name: 'Sign in' }).click();
  await expect(forgot).toHaveURL(/\/sign-in$/);
  await signIn(forgot, member.email, 'reset by the link');
  await expect(forgot.getByRole('button', { name: `Account: ${member.name}` })).toBeVisible();

  // Their earlier session is over; the link does not work twice.
  await member.page.reload();
  await expect(member.page).toHaveURL(/\/sign-in/);
  const again = await signedOutPage(browser);
  await again.goto(link);
  await again.getByLabel('New password', { exact: true }).fill('someone else tries');
  await again.getByLabel('Confirm password').fill('someone else tries');
  await again.getByRole('button', { name: 'Set password' }).click();
  await expect(again.getByRole('heading', { name: 'This reset link can’t be used' })).toBeVisible();
  for (const p of [forgot, again, member.page]) await p.context().close();
});

/** At the suite's OIDC provider: its development login page (any password), then consent, unless it remembers both. */
async function signInAtProvider(page: Page, login: string) {
  const loginBox = page.locator('input[name="login"]');
  const back = page.getByRole('button', { name: /^Account: / });
  const alert = page.getByRole('main').getByRole('alert');
  await expect(loginBox.or(back).or(alert).first()).toBeVisible();
  if (await loginBox.isVisible()) {
    await loginBox.fill(login);
    await page.locator('input[name="password"]').fill('any password');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    const consent = page.getByRole('button', { name: 'Continue' });
    await expect(consent.or(back).or(alert).first()).toBeVisible();
    if (await consent.isVisible()) await consent.click();
  }
}

test('single sign-on: a new person joins through an invite link with the provider, and signs in with it again', async ({ browser, request }) => {
  const invitation = await (await request.post(`/api/workspaces/${WORKSPACE}/invitations`, { data: { role: 'member' } })).json();
  const page = await signedOutPage(browser);
  await page.goto(`/invite/${invitation.token}`);
  await expect(page.getByRole('heading', { name: 'Join Default' })).toBeVisible();
  await shots(page, 'invite-with-sso');
  await page.getByRole('button', { name: 'Join with Test SSO' }).click();
  await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/interaction\//);
  await signInAtProvider(page, 'katherine');
  await expect(page).toHaveURL(new RegExp(`/w/${WORKSPACE}$`));
  await expect(page.getByRole('button', { name: 'Account: Katherine Johnson' })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Workspace: Default/ })).toContainText('Member');

  // Signed out, back in with the provider from the sign-in page.
  await signOutViaMenu(page);
  await expect(page.getByRole('button', { name: 'Sign in with Test SSO' })).toBeVisible();
  await shots(page, 'sign-in-with-sso');
  await page.getByRole('button', { name: 'Sign in with Test SSO' }).click();
  await signInAtProvider(page, 'katherine');
  await expect(page.getByRole('button', { name: 'Account: Katherine Johnson' })).toBeVisible();
  await page.context().close();

  // Someone the provider knows but Baton never invited is told how to get in.
  const stranger = await signedOutPage(browser);
  await stranger.goto('/sign-in');
  await stranger.getByRole('button', { name: 'Sign in with Test SSO' }).click();
  await signInAtProvider(stranger, 'dorothy');
  await expect(stranger).toHaveURL(/\/sign-in\?error=/);
  await expect(stranger.getByRole('main').getByRole('alert')).toContainText('There is no Baton account for you yet. Ask a workspace admin for an invite link');
  await shots(stranger, 'sso-refused');
  await stranger.context().close();
});
