import { expect, test as setup } from '@playwright/test';
import { shot, WORKSPACE } from './helpers';
import { fillAccountForm, OWNER, ownerStatePath } from './support/accounts';

/*
 * A fresh instance: the first visitor is asked to create the owner account (no default
 * password anywhere), which then owns the default workspace. The session it ends with is
 * what every other spec runs with.
 */
setup('a fresh instance asks for the owner account first, then opens the default workspace', async ({ page, request }) => {
  expect(await (await request.get('/api/auth-status')).json()).toMatchObject({ needsOwner: true });

  // Any page of the app leads there: no session → sign-in → nobody to sign in as → setup.
  await page.goto(`/w/${WORKSPACE}/agents`);
  // The sign-in page boots, asks the API, then navigates on the client: on a loaded machine
  // the boot alone took longer than 10 s (a trace: /setup's payload arrived after the check
  // gave up), so this waits as long as the navigation after sign-up below.
  await expect(page).toHaveURL(/\/setup$/, { timeout: setup.info().project.timeout / 2 });
  await expect(page.getByRole('heading', { name: 'Create the owner account' })).toBeVisible();
  for (const field of ['Name', 'Email', 'Confirm password']) await expect(page.getByLabel(field)).toHaveValue('');
  await expect(page.getByLabel('Password', { exact: true })).toHaveValue('');

  // Checked before anything is sent.
  await fillAccountForm(page, { ...OWNER, password: 'short' }, 'short');
  await page.getByRole('button', { name: 'Create owner account' }).click();
  await expect(page.getByText('Password must be at least 8 characters')).toBeVisible();
  await fillAccountForm(page, OWNER, `${OWNER.password}!`);
  await page.getByRole('button', { name: 'Create owner account' }).click();
  await expect(page.getByText('The two passwords are not the same')).toBeVisible();
  expect(await (await request.get('/api/auth-status')).json()).toMatchObject({ needsOwner: true });
  await fillAccountForm(page, OWNER);
  await shot(page, 'setup-owner');

  await page.getByRole('button', { name: 'Create owner account' }).click();
  // Two page loads and a navigation, each page rendered per request (the CSP nonce): on a
  // loaded machine the browser alone took 4–8 s to boot the app twice (traces), past 10 s.
  // Half the test's time: 30 s for the production build, more where the config allows more
  // (next dev, whose pages also wait for their compiled code).
  await expect(page).toHaveURL(new RegExp(`/w/${WORKSPACE}$`), { timeout: setup.info().project.timeout / 2 });
  await expect(page.getByRole('heading', { name: 'What should we work on?' })).toBeVisible();
  await expect(page.getByRole('button', { name: `Account: ${OWNER.name}` })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Workspace: Default/ })).toContainText('Owner');
  await shot(page, 'setup-owner-signed-in');
  expect(await (await request.get('/api/auth-status')).json()).toMatchObject({ needsOwner: false });

  await page.context().storageState({ path: ownerStatePath() });
});
