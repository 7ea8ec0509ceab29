import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { IMAGE_HOST_PORT } from '../playwright.config';
import { block, lastAnswer, startChat } from './delegation-helpers';
import { shot, WORKSPACE } from './helpers';

/*
 * A markdown image in model output is a request to whatever host its URL names, with
 * whatever the URL carries: a prompt-injected model can write the conversation into it.
 * Two fixture image hosts count what reaches them: one the operator allow-lists
 * (BATON_IMAGE_HOSTS=127.0.0.1:<IMAGE_HOST_PORT>, set by playwright.config.ts) and one that
 * is not on the list. The demo model quotes the message it answers, so a message with an
 * image puts that image in the answer; `/delegate` puts it in a sub-agent's result.
 */

const PNG_1x1 = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

interface ImageHost {
  server: Server;
  origin: string;
  requests: { url: string; headers: IncomingHttpHeaders }[];
}

async function imageHost(port: number): Promise<ImageHost> {
  const requests: ImageHost['requests'] = [];
  const server = createServer((req, res) => {
    requests.push({ url: req.url ?? '', headers: req.headers });
    res.writeHead(200, { 'content-type': 'image/png', 'cache-control': 'no-store' }).end(PNG_1x1);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

let listed: ImageHost;
let unlisted: ImageHost;
test.beforeAll(async () => {
  [listed, unlisted] = await Promise.all([imageHost(IMAGE_HOST_PORT), imageHost(0)]);
});
test.afterAll(() => {
  listed?.server.close();
  unlisted?.server.close();
});

/** Every Content-Security-Policy report the page's console gets (a blocked script would be one). */
function cspViolations(page: Page): string[] {
  const seen: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) seen.push(message.text());
  });
  page.on('pageerror', (err) => seen.push(`page error: ${err.message}`));
  return seen;
}

test('every page is sent with a strict Content-Security-Policy, and the app runs under it', async ({ page }) => {
  const violations = cspViolations(page);
  for (const path of [`/w/${WORKSPACE}`, '/sign-in']) {
    const res = await page.goto(path);
    const csp = res!.headers()['content-security-policy'] ?? '';
    expect(csp, path).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{16,}' 'strict-dynamic'/);
    expect(csp, path).toContain(`img-src 'self' data: blob: 127.0.0.1:${IMAGE_HOST_PORT};`);
    expect(csp, path).toContain("object-src 'none'");
    expect(csp, path).toContain("frame-ancestors 'none'");
    expect(/script-src [^;]*/.exec(csp)![0], path).not.toMatch(/'unsafe-inline'|\*|https?:(?!\/)/);
  }
  // Scripts ran: the sign-in page sends a signed-in visitor on to the workspace (a navigation of
  // its own, which a page.goto of the test would race with), whose new-chat page is interactive.
  await page.waitForURL(`**/w/${WORKSPACE}`);
  await expect(page.getByLabel('Message', { exact: true })).toBeEditable();
  // A fresh nonce per response.
  const [a, b] = await Promise.all([page.request.get(`/w/${WORKSPACE}`), page.request.get(`/w/${WORKSPACE}`)]);
  const nonceOf = (csp: string) => /'nonce-([^']+)'/.exec(csp)?.[1];
  expect(nonceOf(a.headers()['content-security-policy']!)).not.toBe(nonceOf(b.headers()['content-security-policy']!));
  expect(violations).toEqual([]);
});

test('an image from a host not on the list waits for a click, and nothing reaches that host before it', async ({ page }) => {
  const violations = cspViolations(page);
  const leak = `${unlisted.origin}/chart.png?q=${encodeURIComponent('the secret plans')}`;
  await startChat(page, 'Assistant', `Here is the chart: ![quarterly chart](${leak})`);
  const answer = lastAnswer(page);
  await expect(answer.getByRole('button', { name: 'Copy answer' })).toBeVisible({ timeout: 20_000 });

  const placeholder = answer.getByRole('group', { name: /^Image not loaded/ });
  await expect(placeholder).toContainText(new URL(unlisted.origin).host);
  await expect(placeholder).toContainText('quarterly chart');
  await expect(answer.locator('img')).toHaveCount(0);
  await shot(page, 'remote-image-placeholder');
  // Reloaded, the stored answer waits as well.
  await page.reload();
  await expect(placeholder).toBeVisible();
  await expect(answer.locator('img')).toHaveCount(0);
  expect(unlisted.requests).toEqual([]);

  await placeholder.getByRole('button', { name: 'Load image' }).click();
  const image = answer.getByRole('img', { name: 'quarterly chart' });
  await expect(image).toBeVisible();
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);
  // Loaded through Baton's own origin (the page may load no other), without the person's cookies.
  expect(await image.getAttribute('src')).toMatch(/^\/api\/image\?url=/);
  expect(unlisted.requests.map((r) => r.url)).toEqual([`/chart.png?q=${encodeURIComponent('the secret plans')}`]);
  expect(unlisted.requests[0]!.headers.cookie).toBeUndefined();
  expect(violations).toEqual([]);
});

test("an allow-listed host loads in the model's answer at once, but never in a sub-agent's output without a click", async ({ page }) => {
  const violations = cspViolations(page);
  const src = `${listed.origin}/sub.png`;
  await startChat(page, 'Assistant', `/delegate Researcher: describe ![sub picture](${src})`);
  const answer = lastAnswer(page);
  await expect(answer).toContainText('Here is what came back', { timeout: 30_000 });
  await page.keyboard.press('Escape');

  // The parent's answer quotes the result: the model's own output, host on the list.
  const shown = answer.getByRole('img', { name: 'sub picture' }).first();
  await expect(shown).toBeVisible();
  expect(await shown.getAttribute('src')).toBe(src);
  // The delegation block shows the sub-agent's result: a click first, allow list or not.
  const result = block(page, 'Researcher');
  await expect(result.getByRole('group', { name: /^Image not loaded/ }).first()).toBeVisible();
  await expect(result.locator('img')).toHaveCount(0);
  expect(violations).toEqual([]);
});
