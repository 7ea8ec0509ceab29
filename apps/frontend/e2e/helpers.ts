import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import type { Agent, Chat } from '@baton/schemas';

export const WORKSPACE = 'default';
const api = `/api/workspaces/${WORKSPACE}`;

/** A suffix that keeps names unique when the database outlives a run (DATABASE_URL). */
export function unique(prefix: string) {
  return `${prefix} ${Date.now().toString(36).slice(-5)}${Math.random().toString(36).slice(2, 5)}`;
}

/** Saves a screenshot of a key state as test-results/<name>.png. */
export async function shot(page: Page, name: string) {
  const path = resolve(test.info().project.testDir, '..', 'test-results', `${name}.png`);
  await page.screenshot({ path, animations: 'disabled' });
}

/** Screenshots at a desktop and a phone width, then back to the suite's own width. */
export async function shots(page: Page, name: string) {
  await page.setViewportSize({ width: 1440, height: 900 });
  await shot(page, `${name}-1440`);
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, `${name}-390`);
  await page.setViewportSize({ width: 1280, height: 800 });
}

export async function createAgentViaApi(request: APIRequestContext, body: Record<string, unknown>): Promise<Agent> {
  const res = await request.post(`${api}/agents`, { data: body });
  expect(res.status(), await res.text()).toBe(201);
  return res.json();
}

export async function getAgentViaApi(request: APIRequestContext, id: string): Promise<Agent> {
  const res = await request.get(`${api}/agents/${id}`);
  expect(res.ok()).toBe(true);
  return res.json();
}

/** Page by page: by the end of the suite the workspace holds more agents than one page (100). */
export async function findAgentByName(request: APIRequestContext, name: string): Promise<Agent> {
  let cursor: string | null = null;
  do {
    const res = await request.get(`${api}/agents?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    const page = (await res.json()) as { data: Agent[]; nextCursor: string | null };
    const agent = page.data.find((a) => a.name === name);
    if (agent) return agent;
    cursor = page.nextCursor;
  } while (cursor);
  throw new Error(`agent "${name}" does not exist`);
}

export async function createChatViaApi(request: APIRequestContext, body: Record<string, unknown>): Promise<Chat> {
  const res = await request.post(`${api}/chats`, { data: body });
  expect(res.status(), await res.text()).toBe(201);
  return res.json();
}

export function sidebar(page: Page) {
  return page.getByRole('navigation', { name: 'Sidebar' });
}

/**
 * Restarts the backend the way a deploy or a crash does (e2e/support/restartable-backend.mjs):
 * what is running at that moment is stored as interrupted. Resolves once the new backend answers.
 */
export async function restartBackend(request: APIRequestContext) {
  const pidFile = join(process.env.BATON_E2E_DIR!, 'backend.pid');
  const pids = () => readFileSync(pidFile, 'utf8').trim().split(' ');
  const [wrapper, before] = pids();
  process.kill(Number(wrapper), 'SIGUSR2');
  await expect.poll(() => pids()[1], { timeout: 60_000 }).not.toBe(before);
  await expect.poll(async () => (await request.get('/api/health').catch(() => undefined))?.ok() ?? false, { timeout: 60_000 }).toBe(true);
}

/**
 * Records in the page how the words of the newest answer in `list` grow, one entry per
 * change. An answer read from its stream grows a word at a time (the demo model sends one
 * word per event); one shown from stored snapshots jumps several words at once.
 */
export async function recordAnswerGrowth(page: Page, list: 'chat' | 'sub-agent') {
  await page.evaluate((where) => {
    const scope = where === 'chat' ? 'main' : '[role="dialog"]';
    const words = () => {
      const answers = document.querySelectorAll<HTMLElement>(`${scope} ol[aria-label="Messages"] > li[aria-label="Agent"]`);
      const last = answers[answers.length - 1];
      return last ? last.innerText.split(/\s+/).filter(Boolean).length : 0;
    };
    const growth: number[] = [];
    (window as unknown as { answerGrowth: number[] }).answerGrowth = growth;
    let seen = words();
    new MutationObserver(() => {
      const now = words();
      if (now !== seen) growth.push(now - seen);
      seen = now;
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  }, list);
}

/** How often the recorded answer grew by exactly one word. */
export function singleWordSteps(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { answerGrowth: number[] }).answerGrowth.filter((d) => d === 1).length);
}

/** Records every alert the page shows, however briefly (a false error must not even flash). */
export async function recordAlerts(page: Page) {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { alertsSeen: string[] }).alertsSeen = seen;
    new MutationObserver(() => {
      for (const el of document.querySelectorAll<HTMLElement>('[role="alert"]')) {
        const text = el.innerText.trim();
        if (text && !seen.includes(text)) seen.push(text);
      }
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
}

export function alertsSeen(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { alertsSeen?: string[] }).alertsSeen ?? []);
}
