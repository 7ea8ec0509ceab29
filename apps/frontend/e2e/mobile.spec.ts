import { expect, test } from '@playwright/test';
import { shot, WORKSPACE } from './helpers';
import { OWNER } from './support/accounts';

test.use({ viewport: { width: 390, height: 844 } });

test('at 390 px the sidebar is a drawer and the pages fit the screen', async ({ page }) => {
  await page.goto(`/w/${WORKSPACE}`);
  await expect(page.getByRole('navigation', { name: 'Sidebar' })).toBeHidden();
  await expect(page.getByRole('heading', { name: 'What should we work on?' })).toBeVisible();
  await shot(page, 'mobile-new-chat');

  await page.getByRole('button', { name: 'Open sidebar' }).click();
  const drawer = page.getByRole('dialog', { name: 'Navigation' });
  await expect(drawer).toBeVisible();
  await expect(drawer.getByRole('link', { name: 'New chat' })).toBeVisible();
  // The account and the workspace switcher are in the drawer too, and their menus open over it.
  await expect(drawer.getByRole('button', { name: `Account: ${OWNER.name}` })).toBeVisible();
  await drawer.getByRole('button', { name: /^Workspace: Default/ }).click();
  await expect(page.getByRole('menuitem', { name: 'New workspace' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menuitem', { name: 'New workspace' })).toBeHidden();
  await expect(drawer).toBeVisible();
  await shot(page, 'mobile-drawer');

  await drawer.getByRole('link', { name: 'Agents' }).click();
  await expect(page).toHaveURL(new RegExp(`/w/${WORKSPACE}/agents$`));
  await expect(drawer).toBeHidden();
  await shot(page, 'mobile-agents');

  await page.goto(`/w/${WORKSPACE}/agents/new`);
  await expect(page.getByRole('region', { name: 'Sub-agents' })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await shot(page, 'mobile-agent-editor');
});

test('dark mode follows the system colour scheme', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto(`/w/${WORKSPACE}/agents/new`);
  await expect(page.getByRole('region', { name: 'Sub-agents' })).toBeVisible();
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(background).not.toBe('rgb(255, 255, 255)');
  await shot(page, 'mobile-dark-agent-editor');
});
