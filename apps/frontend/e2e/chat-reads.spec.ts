import { expect, test, type Page } from '@playwright/test';
import { createChatViaApi, findAgentByName, unique, WORKSPACE } from './helpers';
import { composer, lastAnswer } from './delegation-helpers';

/*
 * How often the page reads a chat (`GET …/chats/:id`) around one turn. The browser keeps
 * chats in one shared query cache that a run's end refreshes once (lib/queries.ts, lib/run-ended.ts),
 * instead of every piece that shows the chat (header usage, sidebar, follow, continuation
 * check) asking on its own: before that cache, one plain turn's end read the chat 2–3 times.
 */

const chatPath = `/api/workspaces/${WORKSPACE}/chats/`;

/** Counts the page's GETs of single chats by chat id, from now on, and logs when each went out. */
function countChatReads(page: Page): { counts: Map<string, number>; log: string[] } {
  const counts = new Map<string, number>();
  const log: string[] = [];
  const since = Date.now();
  page.on('request', (req) => {
    if (req.method() !== 'GET') return;
    const { pathname } = new URL(req.url());
    if (!pathname.startsWith(chatPath)) return;
    const rest = decodeURIComponent(pathname.slice(chatPath.length));
    if (!rest || rest.includes('/') || rest === 'search') return;
    counts.set(rest, (counts.get(rest) ?? 0) + 1);
    log.push(`${rest.slice(0, 9)}…@${Date.now() - since}ms`);
  });
  return { counts, log };
}

/** Opens a fresh chat with `agent` and waits until the page has settled on it. */
async function openChat(page: Page, request: Parameters<typeof createChatViaApi>[0], agent: string) {
  const { id } = await findAgentByName(request, agent);
  const chat = await createChatViaApi(request, { agentId: id, title: unique('Reads') });
  await page.goto(`/w/${WORKSPACE}/chat/${encodeURIComponent(chat.id)}`);
  await expect(composer(page)).toBeEnabled({ timeout: 30_000 });
  // Whatever the page reads on open is not the turn's.
  await page.waitForTimeout(1_000);
  return chat.id;
}

/** After the turn: anything the page still reads because the turn ended has been asked for by then. */
const SETTLE_MS = 2_000;

test("one plain turn's end reads the chat at most once", async ({ page, request }) => {
  const chatId = await openChat(page, request, 'Assistant');
  const { counts: reads, log } = countChatReads(page);
  await composer(page).fill('How many reads does an answer cost?');
  await composer(page).press('Enter');
  await expect(lastAnswer(page).getByRole('button', { name: 'Copy answer' })).toBeVisible({ timeout: 20_000 });
  await page.waitForTimeout(SETTLE_MS);
  const own = reads.get(chatId) ?? 0;
  console.log(`plain turn: GET …/chats/${chatId} ×${own} (${log.join(' ')})`);
  expect(own).toBeLessThanOrEqual(1);
  // The turn's end shows what the server stored: the header's usage and the sidebar's entry come from that one read.
  await expect(page.getByTestId('chat-usage')).toBeVisible();
});

test('one delegated turn reads the parent chat at most three times and its sub-chat at most three', async ({ page, request }) => {
  const chatId = await openChat(page, request, 'Assistant');
  const { counts: reads, log } = countChatReads(page);
  await composer(page).fill('/delegate Researcher: find three facts about otters');
  await composer(page).press('Enter');
  await expect(lastAnswer(page)).toContainText('Here is what came back', { timeout: 30_000 });
  await expect(lastAnswer(page).getByRole('button', { name: 'Copy answer' })).toBeVisible({ timeout: 20_000 });
  await page.waitForTimeout(SETTLE_MS);
  const own = reads.get(chatId) ?? 0;
  const subChats = [...reads].filter(([id]) => id !== chatId);
  console.log(`delegated turn: parent ×${own}, sub-chats ${JSON.stringify(Object.fromEntries(subChats))} (${log.join(' ')})`);
  expect(subChats).toHaveLength(1);
  // The parent: its first stream's end (the calls wait), the check before the continuation, the continuation's end.
  expect(own).toBeLessThanOrEqual(3);
  // The sub-chat: the panel's brief when it opens and its run's end, which the outcome's follow
  // joins however late it comes (measured: 2). A third is allowed for a panel that mounts again
  // over two seconds after the last read on a loaded machine. Before the cache: 5.
  expect(subChats[0]![1]).toBeLessThanOrEqual(3);
});
