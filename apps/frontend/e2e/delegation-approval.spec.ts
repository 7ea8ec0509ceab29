import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { createAgentViaApi, unique, shots } from './helpers';
import { block, composer, getChat, lastAnswer, startChat, subAgentDialog, subChats } from './delegation-helpers';

/*
 * Approval before spawning, through the real UI, backend and demo model: the root agent has
 * `delegation.requireApproval`, so each newTask call waits in its delegation block
 * ("Awaiting approval") with Approve, Edit task and Reject until the person decides.
 * Nothing runs before (no sub-chat); the decision goes through the server.
 */

async function team(request: APIRequestContext) {
  const worker = await createAgentViaApi(request, { name: unique('Scout'), description: 'Finds facts.' });
  const lead = await createAgentViaApi(request, {
    name: unique('Gate'),
    description: 'Asks before delegating.',
    subAgentIds: [worker.id],
    delegation: { requireApproval: true },
  });
  return { lead, worker };
}

/** The block of the call, once the answer has paused on it. */
async function awaiting(page: Page, subAgent: string) {
  const b = block(page, subAgent);
  await expect(b).toContainText('Awaiting approval', { timeout: 20_000 });
  await expect(b.getByRole('button', { name: `Approve the task for ${subAgent}` })).toBeVisible();
  return b;
}

test('approve: nothing runs before; once approved the sub-agent runs and the parent continues', async ({ page, request }) => {
  test.setTimeout(90_000);
  const { lead, worker } = await team(request);
  const chatId = await startChat(page, lead.name, `/delegate ${worker.name}: facts about otters`);
  const b = await awaiting(page, worker.name);
  await expect(b).toContainText('Task: facts about otters');
  await expect(b.getByRole('button', { name: 'Edit task' })).toBeVisible();
  await expect(b.getByRole('button', { name: 'Reject' })).toBeVisible();
  // The composer waits for the decision, and says why.
  await expect(composer(page)).toBeDisabled();
  await expect(page.getByText('Waiting for your decision on a delegation')).toBeVisible();
  expect(await subChats(request, chatId)).toEqual([]);
  expect((await getChat(request, chatId)).pendingApprovals).toHaveLength(1);
  // The chat is titled for the task, not the command, while it waits (the sidebar's title came from the page, not the server).
  const title = `${worker.name}: facts about otters`;
  await expect(page.locator('header').getByRole('heading', { level: 1 })).toHaveText(title);
  await expect(page.getByRole('group', { name: 'Chats' }).getByRole('link', { name: title })).toBeVisible();
  await shots(page, 'approval-awaiting');

  await b.getByRole('button', { name: `Approve the task for ${worker.name}` }).click();
  await expect(lastAnswer(page)).toContainText('Here is what came back', { timeout: 30_000 });
  await expect(b).toContainText('Done');
  const [sub] = await subChats(request, chatId);
  expect(sub).toMatchObject({ delegateTask: 'facts about otters', outcome: 'success' });
  await expect(subAgentDialog(page)).toBeHidden();
  await expect(composer(page)).toBeEnabled();
  await expect(page.getByRole('button', { name: 'Send message' })).toBeVisible();
  await shots(page, 'approval-approved');
});

test('edit task: the sub-agent receives the edited task, which the block then shows', async ({ page, request }) => {
  test.setTimeout(90_000);
  const { lead, worker } = await team(request);
  const chatId = await startChat(page, lead.name, `/delegate ${worker.name}: facts about otters`);
  const b = await awaiting(page, worker.name);
  await b.getByRole('button', { name: 'Edit task' }).click();
  const editor = b.getByLabel(`Task for ${worker.name}`);
  await expect(editor).toBeFocused();
  await expect(editor).toHaveValue('facts about otters');
  // Escape cancels and gives focus back to the buttons.
  await editor.press('Escape');
  await expect(b.getByRole('button', { name: `Approve the task for ${worker.name}` })).toBeFocused();
  await b.getByRole('button', { name: 'Edit task' }).click();
  await editor.fill('facts about sea otters and kelp forests');
  await shots(page, 'approval-edit');
  await editor.press('Control+Enter');

  await expect(lastAnswer(page)).toContainText('Here is what came back', { timeout: 30_000 });
  await expect(b).toContainText('Task: facts about sea otters and kelp forests');
  const [sub] = await subChats(request, chatId);
  expect(sub!.delegateTask).toBe('facts about sea otters and kelp forests');
  const stored = await getChat(request, chatId);
  const call = stored.messages.at(-1)!.parts.find((p) => p.type === 'tool-newTask') as { input: { task: string } };
  expect(call.input.task).toBe('facts about sea otters and kelp forests');
});

test('reject with a reason: no sub-agent runs, the parent gets "rejected" and carries on', async ({ page, request }) => {
  test.setTimeout(90_000);
  const { lead, worker } = await team(request);
  const chatId = await startChat(page, lead.name, `/delegate ${worker.name}: facts about otters`);
  const b = await awaiting(page, worker.name);
  await b.getByRole('button', { name: 'Reject' }).click();
  const reason = b.getByLabel('Reason (optional, the agent reads it)');
  await expect(reason).toBeFocused();
  await reason.fill('we covered otters yesterday');
  await b.getByRole('button', { name: 'Reject', exact: true }).click();

  await expect(b).toContainText('Rejected', { timeout: 20_000 });
  await expect(b).toContainText('we covered otters yesterday');
  await expect(b.getByRole('button', { name: `Approve the task for ${worker.name}` })).toHaveCount(0);
  await expect(lastAnswer(page)).toContainText('Here is what came back', { timeout: 30_000 });
  await expect(composer(page)).toBeEnabled();
  await expect(page.getByRole('button', { name: 'Send message' })).toBeVisible();
  expect(await subChats(request, chatId)).toEqual([]);
  await shots(page, 'approval-rejected');
});

test('reload while awaiting: the block still asks, and approving after the reload (keyboard) works', async ({ page, request }) => {
  test.setTimeout(90_000);
  const { lead, worker } = await team(request);
  const chatId = await startChat(page, lead.name, `/delegate ${worker.name}: facts about otters`);
  await awaiting(page, worker.name);
  await page.reload();
  const b = await awaiting(page, worker.name);
  await expect(composer(page)).toBeDisabled();
  expect(await subChats(request, chatId)).toEqual([]);

  // A starter the browser might try on its own is refused by the server.
  const stored = await getChat(request, chatId);
  const call = stored.messages.at(-1)!.parts.find((p) => p.type === 'tool-newTask') as { toolCallId: string };
  const refused = await request.post(`/api/workspaces/default/chat`, {
    data: {
      id: `chat_sneak_${Date.now()}`,
      agentId: worker.id,
      parentChatId: chatId,
      parentToolCallId: call.toolCallId,
      message: { id: `msg_sneak_${Date.now()}`, role: 'user', parts: [{ type: 'text', text: 'facts about otters' }] },
    },
  });
  expect(refused.status()).toBe(409);

  const approve = b.getByRole('button', { name: `Approve the task for ${worker.name}` });
  await approve.focus();
  await page.keyboard.press('Enter');
  await expect(lastAnswer(page)).toContainText('Here is what came back', { timeout: 30_000 });
  await expect(b).toContainText('Done');
  expect(await subChats(request, chatId)).toHaveLength(1);
});

test('the agent editor offers the setting in its Delegation card', async ({ page, request }) => {
  const { lead } = await team(request);
  await page.goto(`/w/default/agents/${encodeURIComponent(lead.id)}`);
  const toggle = page.getByRole('switch', { name: 'Approve each delegation' });
  await expect(toggle).toBeChecked();
  await toggle.click();
  await expect(toggle).not.toBeChecked();
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect
    .poll(
      async () =>
        ((await (await request.get(`/api/workspaces/default/agents/${lead.id}`)).json()) as { delegation: { requireApproval: boolean } }).delegation
          .requireApproval,
    )
    .toBe(false);
});

test('nested: the sub-agent’s own delegation waits too, and is approved from its block in the modal', async ({ page, request }) => {
  test.setTimeout(120_000);
  const leaf = await createAgentViaApi(request, { name: unique('Leaf'), description: 'Counts things.' });
  const middle = await createAgentViaApi(request, { name: unique('Middle'), description: 'Hands counting on.', subAgentIds: [leaf.id] });
  const root = await createAgentViaApi(request, {
    name: unique('Root'),
    subAgentIds: [middle.id],
    delegation: { requireApproval: true, maxDepth: 2 },
  });
  const chatId = await startChat(page, root.name, `/delegate ${middle.name}: /delegate ${leaf.name}: count the otters`);
  const top = await awaiting(page, middle.name);
  await top.getByRole('button', { name: `Approve the task for ${middle.name}` }).click();

  // Middle runs in the modal; its own call to Leaf waits there, and its block says so.
  const dialog = subAgentDialog(page);
  await expect(dialog).toBeVisible({ timeout: 20_000 });
  const nested = dialog.getByRole('group', { name: `Delegation to ${leaf.name}` });
  await expect(nested).toContainText('Awaiting approval', { timeout: 20_000 });
  await expect.poll(async () => (await getChat(request, chatId)).pendingApprovals.length, { timeout: 10_000 }).toBe(1);
  await shots(page, 'approval-nested');
  await nested.getByRole('button', { name: `Approve the task for ${leaf.name}` }).click();
  await expect(nested).toContainText('Done', { timeout: 30_000 });
  await expect(dialog.getByRole('group', { name: 'Task result' })).toContainText('count the otters', { timeout: 30_000 });
  await shots(page, 'approval-nested-done');
  // Having acted in the modal, the person closes it (it stays open for a reader).
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  await expect(top).toContainText('Done', { timeout: 30_000 });
  await expect(lastAnswer(page)).toContainText('Here is what came back', { timeout: 30_000 });
  const [mid] = await subChats(request, chatId);
  expect(mid!.outcome).toBe('success');
  expect(await subChats(request, mid!.id)).toEqual([expect.objectContaining({ outcome: 'success', depth: 2 })]);
});
