import { expect, test } from '@playwright/test';
import type { Agent } from '@baton/schemas';
import { createAgentViaApi, shots, unique } from './helpers';
import { block, getChat, lastAnswer, startChat, subAgentDialog, subChats } from './delegation-helpers';

/*
 * Delegation v2 through the real UI, backend and demo model: depth 2 (a sub-agent's own
 * delegation runs on the server and shows as a nested block), the general-purpose
 * sub-agent, a token budget that ends a sub-agent with a partial result, and the
 * delegation trace. Each test builds its agents through the API.
 *
 * The demo model: `/delegate <name>: <task>` becomes a newTask call; a sub-agent whose task
 * is itself a `/delegate` line delegates it when it is offered newTask; `[demo:work N]`
 * makes a sub-agent write N notes before reporting.
 */

async function chain(request: Parameters<typeof createAgentViaApi>[0]) {
  const writer = await createAgentViaApi(request, { name: unique('Writer'), description: 'Writes short texts.' });
  const researcher = await createAgentViaApi(request, {
    name: unique('Researcher'),
    description: 'Finds facts, and hands writing on.',
    subAgentIds: [writer.id],
  });
  const lead = await createAgentViaApi(request, {
    name: unique('Lead'),
    description: 'Delegates two levels deep.',
    subAgentIds: [researcher.id],
    delegation: { maxDepth: 2 },
  });
  return { lead, researcher, writer };
}

test('depth 2: the sub-agent delegates on its own, the nested block completes, and the parent continues', async ({ page, request }) => {
  test.setTimeout(90_000);
  const { lead, researcher, writer } = await chain(request);
  const chatId = await startChat(page, lead.name, `/delegate ${researcher.name}: /delegate ${writer.name}: a haiku about otters`);

  // The researcher runs in the modal; its own newTask call (run by the server) is a block there.
  const dialog = subAgentDialog(page);
  await expect(dialog).toBeVisible();
  // Reading the modal (a click in it) keeps it open after the batch ends; it would step aside at once.
  // On a loaded machine the two demo sub-agents may finish before the click lands: the modal has
  // then stepped aside, and the finished block (which has no Reopen) opens the same transcript in
  // the sub-chat viewer, which is a dialog too.
  await dialog
    .getByRole('heading')
    .click({ timeout: 5_000 })
    .catch(async () => {
      await expect(dialog).toBeHidden();
      await expect(block(page, researcher.name)).toContainText('Done', { timeout: 30_000 });
      await block(page, researcher.name)
        .getByRole('button', { name: `View the sub-chat of ${researcher.name}` })
        .click();
    });
  const nested = dialog.getByRole('group', { name: `Delegation to ${writer.name}` });
  await expect(nested).toBeVisible({ timeout: 20_000 });
  await expect(nested).toContainText('Done', { timeout: 20_000 });
  await expect(nested).toContainText('Done: a haiku about otters');
  await expect(dialog.getByRole('group', { name: 'Task result' })).toContainText('Done: a haiku about otters', { timeout: 20_000 });
  await shots(page, 'v2-depth2-modal');

  // The parent continues with the researcher's result, which quotes the writer's.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(lastAnswer(page)).toContainText('Here is what came back', { timeout: 20_000 });
  await expect(lastAnswer(page)).toContainText(`${researcher.name} (success)`);
  await expect(block(page, researcher.name)).toContainText('Done');

  // Stored: a sub-chat of the sub-chat, at depth 2.
  const [sub] = await subChats(request, chatId);
  expect(sub).toMatchObject({ depth: 1, outcome: 'success', agentId: researcher.id });
  const [subSub] = await subChats(request, sub!.id);
  expect(subSub).toMatchObject({ depth: 2, outcome: 'success', agentId: writer.id, parentChatId: sub!.id });

  // The nested sub-chat opens from the researcher's transcript, with the path to it.
  const outer = block(page, researcher.name);
  await outer.getByRole('button', { name: 'Show the conversation' }).click();
  const inner = outer.getByRole('group', { name: `Delegation to ${writer.name}` });
  await expect(inner).toContainText('Done');
  await inner.getByRole('button', { name: `View the sub-chat of ${writer.name}` }).click();
  const viewer = page.getByRole('dialog', { name: 'Sub-chat' });
  await expect(viewer).toBeVisible();
  const path = viewer.getByRole('navigation', { name: 'Delegation path' });
  await expect(path).toHaveText(new RegExp(`${lead.name}.*${researcher.name}.*${writer.name}`));
  await expect(viewer.getByRole('group', { name: 'Sub-chat status' })).toContainText('Depth 2');
  await expect(viewer.getByRole('group', { name: 'Task result' })).toContainText('Done: a haiku about otters');
  await shots(page, 'v2-depth2-viewer');
  // One step up the path is the researcher's sub-chat.
  await path.getByRole('button', { name: researcher.name }).click();
  await expect(viewer.getByRole('group', { name: 'Sub-chat status' })).toContainText('Depth 1');
  await viewer.getByRole('button', { name: 'Close' }).click();

  // The chat header's tokens split own / delegated / total.
  await expect(page.getByTestId('chat-usage')).toContainText(/own \+ [\d,]+ delegated = [\d,]+ tokens/);
  const stored = await getChat(request, chatId);
  expect(stored.usage.delegated.outputTokens).toBeGreaterThan(0);
});

test('the delegation tree of a depth-2 delegation, from the chat header: an indented tree whose nodes open their sub-chats', async ({ page, request }) => {
  test.setTimeout(90_000);
  const { lead, researcher, writer } = await chain(request);
  await startChat(page, lead.name, `/delegate ${researcher.name}: /delegate ${writer.name}: a limerick about herons`);
  await expect(lastAnswer(page)).toContainText('Here is what came back', { timeout: 40_000 });
  await expect(subAgentDialog(page)).toBeHidden({ timeout: 15_000 });

  await page.getByRole('button', { name: 'Delegation tree', exact: true }).click();
  const viewer = page.getByRole('dialog', { name: 'Delegation tree' });
  const tree = viewer.getByRole('list', { name: 'Delegation tree' });
  const root = tree.getByRole('listitem', { name: new RegExp(`^${lead.name}`) });
  const mid = root.getByRole('listitem', { name: `${researcher.name}, done` });
  const leaf = mid.getByRole('listitem', { name: `${writer.name}, done` });
  await expect(leaf).toBeVisible();
  await expect(leaf).toContainText('a limerick about herons');
  await expect(leaf).toContainText(/\d+ steps?/);
  await expect(leaf).toContainText(/[\d,]+ tokens/);
  await expect(leaf).toHaveAttribute('data-depth', '2');
  await shots(page, 'v2-trace');

  // A node opens its sub-chat; Back returns to the trace.
  await leaf.getByRole('button').first().click();
  const sub = page.getByRole('dialog', { name: 'Sub-chat' });
  await expect(sub.getByRole('group', { name: 'Task result' })).toContainText('Done: a limerick about herons');
  await sub.getByRole('button', { name: 'Back' }).click();
  await expect(page.getByRole('dialog', { name: 'Delegation tree' })).toBeVisible();
});

test('general-purpose: the agent hands a task to itself in a fresh context', async ({ page, request }) => {
  const solo = await createAgentViaApi(request, {
    name: unique('Solo'),
    description: 'Works alone, or as its own general-purpose sub-agent.',
    delegation: { generalPurpose: true },
  });
  const chatId = await startChat(page, solo.name, '/delegate general-purpose: list three rivers of Europe');

  await expect(lastAnswer(page)).toContainText('Here is what came back', { timeout: 30_000 });
  await expect(lastAnswer(page)).toContainText('(success): Done: list three rivers of Europe');
  const gp = block(page, 'general-purpose');
  await expect(gp).toContainText('Done');
  const [sub] = await subChats(request, chatId);
  // Its own prompt, model and tools: the sub-chat runs the same agent.
  expect(sub).toMatchObject({ agentId: solo.id, depth: 1, outcome: 'success' });
  await shots(page, 'v2-general-purpose');
});

test('a budget hit: the sub-agent stops with "Budget used up" and hands back a partial result with its notes', async ({ page, request }) => {
  test.setTimeout(90_000);
  const worker = await createAgentViaApi(request, { name: unique('Surveyor'), description: 'Surveys slowly, writing notes.' });
  const lead: Agent = await createAgentViaApi(request, {
    name: unique('Frugal lead'),
    description: 'Gives each sub-agent a small token budget.',
    subAgentIds: [worker.id],
    delegation: { maxTokensPerDelegation: 300 },
  });
  const chatId = await startChat(page, lead.name, `/delegate ${worker.name}: survey the otters of the river [demo:work 50]`);

  const surveyor = block(page, worker.name);
  await expect(lastAnswer(page)).toContainText('Here is what came back', { timeout: 60_000 });
  await expect(surveyor).toContainText('Budget used up');
  await expect(surveyor).toContainText('Partial result');
  await expect(surveyor).toContainText('Note 1 of 50');
  await expect(surveyor).toHaveAttribute('data-status', 'budget_exhausted');

  const [sub] = await subChats(request, chatId);
  expect(sub).toMatchObject({ outcome: 'budget_exhausted' });
  expect(sub!.notes.length).toBeGreaterThan(0);

  // The sub-chat shows the notes it kept.
  await surveyor.getByRole('button', { name: `View the sub-chat of ${worker.name}` }).click();
  const viewer = page.getByRole('dialog', { name: 'Sub-chat' });
  // Notes open collapsed (a long run keeps dozens): the count first, the list on request.
  await viewer.locator('summary', { hasText: /^Notes \(\d+\)$/ }).click();
  await expect(viewer.getByRole('list', { name: 'Notes' })).toContainText('Note 1 of 50');
  await shots(page, 'v2-budget');
});

test('agent editor: the Delegation card validates every field, saves them, and the sub-agents card shows effective tools', async ({ page, request }) => {
  const helper = await createAgentViaApi(request, {
    name: unique('Clock reader'),
    description: 'Computes and reads clocks.',
    toolIds: ['calculator', 'currentTime'],
  });
  const lead = await createAgentViaApi(request, { name: unique('Planner'), description: 'Plans.', toolIds: ['calculator'], subAgentIds: [helper.id] });
  await page.goto(`/w/default/agents/${lead.id}`);

  // Under `intersect` (the default) the sub-agent keeps only the tools this agent has.
  const effective = page.getByTestId(`effective-tools-${helper.id}`);
  await expect(effective).toContainText('Tools here: Calculator');
  await expect(effective).toContainText('not Current time');
  const card = page.getByRole('region', { name: 'Delegation' });
  await card.getByLabel('Tool permissions').selectOption('own');
  await expect(effective).toContainText('Tools here: Calculator, Current time');

  // Invalid values: the shared schema's errors, next to their fields, and nothing is saved.
  await card.getByLabel('Depth').fill('4');
  await card.getByLabel('Sub-agents at once').fill('0');
  await card.getByRole('checkbox', { name: 'Tokens per delegation: no limit' }).uncheck();
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(card.getByText('Depth must be a whole number from 1 to 3')).toBeVisible();
  await expect(card.getByLabel('Depth')).toHaveAttribute('aria-invalid', 'true');
  await expect(card.getByLabel('Depth')).toBeFocused();
  await expect(card.getByText(/^Sub-agents at once must be/)).toBeVisible();
  await expect(card.getByText(/^Tokens per delegation must be/)).toBeVisible();
  await shots(page, 'v2-editor-errors');
  expect((await (await request.get(`/api/workspaces/default/agents/${lead.id}`)).json()).delegation.maxDepth).toBe(1);

  // Valid values are saved, every field of `delegation`.
  await card.getByLabel('Depth').fill('2');
  await card.getByLabel('Sub-agents at once').fill('3');
  await card.getByLabel('Context').selectOption('summary');
  // Every choice shows whole: a select is at least as wide as its longest sentence (text, padding, arrow).
  for (const label of ['Context', 'Tool permissions']) {
    const fits = await card.getByLabel(label).evaluate((select: HTMLSelectElement) => {
      const ctx = document.createElement('canvas').getContext('2d')!;
      ctx.font = getComputedStyle(select).font;
      return [...select.options].every((o) => select.clientWidth >= ctx.measureText(o.text).width + 48);
    });
    expect(fits, `${label} shows its whole choice`).toBe(true);
  }
  await card.getByRole('switch', { name: 'General-purpose sub-agent' }).click();
  await card.getByLabel('Result length (characters)').fill('2000');
  await card.getByLabel('Tokens per delegation', { exact: true }).fill('5000');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText(/^Saved “/)).toBeVisible();
  const saved = (await (await request.get(`/api/workspaces/default/agents/${lead.id}`)).json()) as Agent;
  expect(saved.delegation).toEqual({
    maxDepth: 2,
    generalPurpose: true,
    contextMode: 'summary',
    toolPolicy: 'own',
    maxConcurrent: 3,
    maxResultChars: 2000,
    maxTokensPerDelegation: 5000,
    maxTokensPerTree: null,
    requireApproval: false,
  });
  await card.scrollIntoViewIfNeeded();
  await shots(page, 'v2-editor');
});
