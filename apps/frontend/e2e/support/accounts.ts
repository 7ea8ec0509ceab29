import { join } from 'node:path';
import { expect, type Browser, type Page } from '@playwright/test';

/** Where owner.setup.ts saves the owner's signed-in browser state (in the run's own temp dir). */
export const ownerStatePath = () => join(process.env.BATON_E2E_DIR!, 'owner-state.json');

/** The owner, created by owner.setup.ts on the fresh instance; every spec runs as them. */
export const OWNER = { name: 'Ada Lovelace', email: 'ada@baton.test', password: 'analytical engine 1843' };

/** A browser with nobody signed in (the projects' storageState would sign it in as the owner). */
export async function signedOutPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  return context.newPage();
}

/** Fills the account form of the setup and invite pages. */
export async function fillAccountForm(page: Page, account: { name: string; email: string; password: string }, confirm = account.password) {
  await page.getByLabel('Name').fill(account.name);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByLabel('Confirm password').fill(confirm);
}

export async function signIn(page: Page, email: string, password: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** The sidebar's account menu → Sign out. */
export async function signOutViaMenu(page: Page) {
  await page.getByRole('button', { name: /^Account: / }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
}
