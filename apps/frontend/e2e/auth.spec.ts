import { expect, test } from '@playwright/test';
import { shot, unique, WORKSPACE } from './helpers';
import { OWNER, signedOutPage, signIn, signOutViaMenu } from './support/accounts';

/*
 * Signing in and out, and the guard in front of every page. Each test that signs out
 * does so with a session of its own: the owner's shared session (storageState) must live on.
 */

test('once the owner exists, the setup page only points to sign-in', async ({ page }) => {
  await page.goto('/setup');
  await expect(page.getByRole('heading', { name: 'Baton is set up' })).toBeVisible();
  await expect(page.getByLabel('Password')).toHaveCount(0);
  await page.getByRole('link', { name: 'Go to sign in' }).click();
  // Already signed in: sign-in goes straight on to the workspace.
  await expect(page).toHaveURL(new RegExp(`/w/${WORKSPACE}$`));
});

test('a page opened without a session asks to sign in, then opens; sign-out ends the session', async ({ browser }) => {
  const page = await signedOutPage(browser);
  await page.goto(`/w/${WORKSPACE}/agents`);
  await expect(page).toHaveURL(`/sign-in?next=${encodeURIComponent(`/w/${WORKSPACE}/agents`)}`);

  // Checked before sending, then the server's answer next to the form.
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByText('Email must be an email address')).toBeVisible();
  await signIn(page, OWNER.email, 'not the password');
  await expect(page.getByRole('main').getByRole('alert')).toHaveText('Invalid email or password.');
  await shot(page, 'sign-in-error');

  await signIn(page, OWNER.email, OWNER.password);
  await expect(page).toHaveURL(new RegExp(`/w/${WORKSPACE}/agents$`));
  await expect(page.getByRole('heading', { name: 'Agents', level: 1 })).toBeVisible();

  await signOutViaMenu(page);
  expect((await page.request.get('/api/me')).status()).toBe(401);
  await page.goto(`/w/${WORKSPACE}`);
  await expect(page).toHaveURL(`/sign-in?next=${encodeURIComponent(`/w/${WORKSPACE}`)}`);
  await page.context().close();
});

test('a session that ended elsewhere sends the page to sign-in once, and back after signing in', async ({ browser }) => {
  const page = await signedOutPage(browser);
  await page.goto('/sign-in');
  await signIn(page, OWNER.email, OWNER.password);
  await expect(page).toHaveURL(new RegExp(`/w/${WORKSPACE}$`));
  // The session ends on the server (signed out in another tab); this tab still has the cookie.
  // The open page is left first: a request it makes meanwhile would learn of the sign-out and
  // navigate by itself, racing (and aborting) the page load this test is about.
  const origin = new URL(page.url()).origin;
  await page.goto('about:blank');
  const cookies = await page.context().cookies();
  expect(cookies.map((c) => c.name)).toContain('baton.session_token');
  const signOut = await page.request.post(`${origin}/api/auth/sign-out`, { data: {}, headers: { origin } });
  expect(signOut.ok(), await signOut.text()).toBe(true);
  await page.context().addCookies(cookies.filter((c) => c.name === 'baton.session_token'));

  // Page loads, not the router's same-document history updates.
  const navigations: string[] = [];
  page.on('request', (req) => req.isNavigationRequest() && req.frame() === page.mainFrame() && navigations.push(new URL(req.url()).pathname));
  await page.goto(`/w/${WORKSPACE}/settings/providers`);
  await expect(page).toHaveURL(`/sign-in?next=${encodeURIComponent(`/w/${WORKSPACE}/settings/providers`)}`);
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
  await page.waitForTimeout(1_000);
  expect(navigations).toEqual([`/w/${WORKSPACE}/settings/providers`, '/sign-in']);

  await signIn(page, OWNER.email, OWNER.password);
  await expect(page).toHaveURL(new RegExp(`/w/${WORKSPACE}/settings/providers$`));
  await page.context().close();
});

test('the workspace switcher lists your workspaces and creates one; a workspace you are not in is not found', async ({ page }) => {
  const name = unique('Research team');
  await page.goto(`/w/${WORKSPACE}`);
  await page.getByRole('button', { name: /^Workspace: Default/ }).click();
  await expect(page.getByRole('menuitem', { name: /Default/ })).toBeVisible();
  await shot(page, 'workspace-switcher');
  await page.getByRole('menuitem', { name: 'New workspace' }).click();
  const dialog = page.getByRole('dialog', { name: 'New workspace' });
  await dialog.getByRole('button', { name: 'Create workspace' }).click();
  await expect(dialog.getByText('Name must not be empty')).toBeVisible();
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByRole('button', { name: 'Create workspace' }).click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/w\/ws_[\w-]+$/);
  const created = decodeURIComponent(page.url().split('/w/')[1]!);
  await expect(page.getByRole('button', { name: `Workspace: ${name}. Switch workspace` })).toContainText('Owner');
  // Its own starter agents, and no chats of the other workspace.
  await expect(page.getByLabel('Agent', { exact: true })).toContainText('Assistant');
  await expect(page.getByText('No chats yet.')).toBeVisible();

  await page.getByRole('button', { name: /^Workspace: / }).click();
  await page.getByRole('menuitem', { name: /Default/ }).click();
  await expect(page).toHaveURL(new RegExp(`/w/${WORKSPACE}$`));
  expect(created).not.toBe(WORKSPACE);

  await page.goto('/w/ws_nobody_here/agents');
  await expect(page.getByRole('heading', { name: 'Workspace not found' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Go to Default' })).toBeVisible();
  await shot(page, 'workspace-not-found');
});
