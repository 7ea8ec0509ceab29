import { test as setup } from '@playwright/test';
import { WORKSPACE } from './helpers';

/*
 * `next dev` compiles a page on its first visit: on a two-core machine with the backend
 * suite beside it, the workspace page alone took over 30 s (CI), inside the owner setup's
 * wait for it. Each page the dev specs reach is opened once here, before any of them runs,
 * so their timeouts measure the app and not the compiler. Signed out, each page loads its
 * code and then leads to the setup page; that is all this needs.
 */
const pages = [
  '/',
  '/setup',
  '/sign-in',
  `/w/${WORKSPACE}`,
  `/w/${WORKSPACE}/chat/warm-up`,
  `/w/${WORKSPACE}/agents`,
  `/w/${WORKSPACE}/agents/new`,
  `/w/${WORKSPACE}/agents/warm-up`,
];

setup('next dev has compiled the pages the specs open', async ({ page }) => {
  setup.setTimeout(pages.length * 120_000);
  for (const path of pages) {
    const started = Date.now();
    await page.goto(path, { waitUntil: 'load', timeout: 120_000 });
    console.log(`compiled ${path} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
});
