import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { createAgentViaApi, unique } from './helpers';
import { block, composer, getChat, lastAnswer, startChat, subChats } from './delegation-helpers';

/*
 * Several calls of one answer waiting for approval (issue 17, bug 1): each is decided on
 * its own, and every approved call's sub-agent runs — whatever the order and however close
 * together the decisions are — without a reload. The browser runs approved calls in the
 * browser flow, so the page must pick up the second decision while it already holds the
 * first call's output.
 */

async function team(request: APIRequestContext) {
  const scout = await createAgentViaApi(request, { name: unique('Scout'), description: 'Finds facts.' });
  const scribe = await createAgentViaApi(request, { name: unique('Scribe'), description: 'Writes things down.' });
  const lead = await createAgentViaApi(request, {
    name: unique('Gate'),
    description: 'Asks before delegating.',
    subAgentIds: [scout.id, scribe.id],
    delegation: { requireApproval: true },
  });
  return { lead, scout, scribe };
}

/** Two calls in one answer, both waiting: their blocks. */
async function twoWaiting(page: Page, request: APIRequestContext) {
  const { lead, scout, scribe } = await team(request);
  const chatId = await startChat(page, lead.name, [`/delegate ${scout.name}: facts about otters`, `/delegate ${scribe.name}: a note about beavers`].join('\n'));
  const first = block(page, scout.name);
  const second = block(page, scribe.name);
  for (const b of [first, second]) await expect(b).toContainText('Awaiting approval', { timeout: 20_000 });
  await expect(composer(page)).toBeDisabled();
  // Several calls wait: the composer speaks of them in the plural.
  await expect(page.getByText('Waiting for your decision on 2 delegations: approve or reject each of them above.')).toBeVisible();
  return { chatId, first, second, scout: scout.name, scribe: scribe.name, ids: [scout.id, scribe.id] };
}

const approve = (b: Locator, name: string) => b.getByRole('button', { name: `Approve the task for ${name}` }).click();

async function approveEdited(b: Locator, name: string, task: string) {
  await b.getByRole('button', { name: 'Edit task' }).click();
  const editor = b.getByLabel(`Task for ${name}`);
  await editor.fill(task);
  await editor.press('Control+Enter');
}

/** Both sub-agents ran, both blocks are Done, the parent continued and the composer is back. */
async function bothRan(page: Page, request: APIRequestContext, chatId: string, blocks: Locator[]) {
  for (const b of blocks) await expect(b).toContainText('Done', { timeout: 30_000 });
  await expect(lastAnswer(page)).toContainText('Here is what came back', { timeout: 30_000 });
  await expect(composer(page)).toBeEnabled();
  const subs = await subChats(request, chatId);
  expect(subs.map((s) => s.outcome)).toEqual(['success', 'success']);
  return subs;
}

test('approve one, let it finish, then approve the other: both sub-agents run', async ({ page, request }) => {
  test.setTimeout(120_000);
  const { chatId, first, second, scout, scribe } = await twoWaiting(page, request);
  await approve(first, scout);
  await expect(first).toContainText('Done', { timeout: 30_000 });
  await expect(second).toContainText('Awaiting approval');
  await approve(second, scribe);
  await bothRan(page, request, chatId, [first, second]);
});

test('in reverse order: the second call first, then the first', async ({ page, request }) => {
  test.setTimeout(120_000);
  const { chatId, first, second, scout, scribe } = await twoWaiting(page, request);
  await approve(second, scribe);
  await expect(second).toContainText('Done', { timeout: 30_000 });
  await approve(first, scout);
  await bothRan(page, request, chatId, [first, second]);
});

test('both approved at once: both sub-agents run', async ({ page, request }) => {
  test.setTimeout(120_000);
  const { chatId, first, second, scout, scribe } = await twoWaiting(page, request);
  await approve(first, scout);
  await approve(second, scribe);
  await bothRan(page, request, chatId, [first, second]);
});

test('Edit task on each, one after the other: each sub-agent gets its edited task', async ({ page, request }) => {
  test.setTimeout(120_000);
  const { chatId, first, second, scout, scribe } = await twoWaiting(page, request);
  await approveEdited(first, scout, 'facts about sea otters');
  await expect(first).toContainText('Done', { timeout: 30_000 });
  await approveEdited(second, scribe, 'a note about beaver dams');
  const subs = await bothRan(page, request, chatId, [first, second]);
  expect(subs.map((s) => s.delegateTask).sort()).toEqual(['a note about beaver dams', 'facts about sea otters']);
  await expect(second).toContainText('Task: a note about beaver dams');
});

test('approve one, let it finish, then reject the other: the parent continues with both outputs', async ({ page, request }) => {
  test.setTimeout(120_000);
  const { chatId, first, second, scout } = await twoWaiting(page, request);
  await approve(first, scout);
  await expect(first).toContainText('Done', { timeout: 30_000 });
  await second.getByRole('button', { name: 'Reject' }).click();
  await second.getByRole('button', { name: 'Reject', exact: true }).click();
  await expect(second).toContainText('Rejected', { timeout: 20_000 });
  await expect(lastAnswer(page)).toContainText('Here is what came back', { timeout: 30_000 });
  await expect(composer(page)).toBeEnabled();
  const subs = await subChats(request, chatId);
  expect(subs.map((s) => s.outcome)).toEqual(['success']);
  const outcomes = (await getChat(request, chatId)).messages
    .at(-1)!
    .parts.flatMap((p) => (p.type === 'tool-newTask' ? [(p as { output?: { outcome: string } }).output?.outcome] : []));
  expect(outcomes).toEqual(['success', 'rejected']);
});

/**
 * Records, from every page load on, whether any of `texts` ever appears in the page's text.
 * Read once per frame after a change, before it is painted (what a person could see): reading
 * `innerText` lays the page out, and doing that on every streamed word is work a slow machine's
 * page may not have the time for (a CI run never showed the blocks within 20 s).
 */
async function watchForText(page: Page, texts: string[]) {
  await page.addInitScript((watched: string[]) => {
    const w = window as unknown as { __seen: string[] };
    w.__seen = [];
    let due = false;
    const look = () => {
      due = false;
      const text = document.body?.innerText ?? '';
      for (const t of watched) if (text.includes(t) && !w.__seen.includes(t)) w.__seen.push(t);
    };
    new MutationObserver(() => {
      if (due) return;
      due = true;
      requestAnimationFrame(look);
    }).observe(document, { subtree: true, childList: true, characterData: true });
  }, texts);
}

test('blocks name the sub-agent, never its raw id: waiting, starting, and after a reload', async ({ page, request }) => {
  test.setTimeout(120_000);
  const { lead, scout, scribe } = await team(request);
  await watchForText(page, [scout.id, scribe.id]);
  await startChat(page, lead.name, [`/delegate ${scout.name}: facts about otters`, `/delegate ${scribe.name}: a note about beavers`].join('\n'));
  const first = block(page, scout.name);
  const second = block(page, scribe.name);
  await expect(first).toContainText(`Wants to delegate to ${scout.name}`, { timeout: 20_000 });
  await approve(first, scout.name);
  await approve(second, scribe.name);
  for (const b of [first, second]) await expect(b).toContainText('Done', { timeout: 30_000 });
  await expect(lastAnswer(page)).toContainText('Here is what came back', { timeout: 30_000 });
  await page.reload();
  await expect(first).toContainText(`Delegated to ${scout.name}`, { timeout: 20_000 });
  await expect(second).toContainText(`Delegated to ${scribe.name}`);
  expect(await page.evaluate(() => (window as unknown as { __seen: string[] }).__seen)).toEqual([]);
});
