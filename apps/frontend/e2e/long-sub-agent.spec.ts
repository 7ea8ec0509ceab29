import { expect, test } from '@playwright/test';
import { block, lastAnswer, startChat, subAgentDialog } from './delegation-helpers';
import { WORKSPACE } from './helpers';

/*
 * A long sub-agent run in the modal (issue 17, bug 4: the tab froze because every step of
 * the transcript rendered again on every token). What is checked here is deterministic: the
 * size of the modal's page for a 60-step run, which must not grow with the transcript (its
 * note steps are one collapsed group), where focus lands and how many Tab stops there are,
 * and that no request for a not-yet-created sub-chat fails. The timing itself is measured by
 * e2e/bench/modal-long-run.bench.ts (docs/benchmarks.md), never asserted.
 */

const STEPS = 60;
/** Elements in the finished modal (header, progress row, brief, one note group, the result card, footer): about half this; 60 steps shown one by one were over 1,000. */
const MAX_MODAL_ELEMENTS = 400;

test('a 60-step sub-agent: the modal stays small, notes are one closed group, focus lands on the heading and returns from the tree, no 404s', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const failed: string[] = [];
  page.on('response', (res) => res.status() === 404 && failed.push(`${res.status()} ${new URL(res.url()).pathname}`));

  await startChat(page, 'Assistant', `/delegate Writer: write it [demo:work ${STEPS}]`);
  const dialog = subAgentDialog(page);
  await expect(dialog).toBeVisible();
  // Focus opens on the dialog's heading (or its steering box), not on the first header button.
  const focused = () => page.evaluate(() => document.activeElement?.closest('[data-dialog-heading], [data-steer-input]') !== null);
  expect(await focused()).toBe(true);

  await expect(lastAnswer(page)).toContainText('Here is what came back', { timeout: 150_000 });
  // Reopened once finished: the whole transcript is there.
  const writer = block(page, 'Writer');
  await writer.getByRole('button', { name: 'Reopen Writer' }).click();
  await expect(dialog).toBeVisible();
  const group = dialog.getByTestId('note-group');
  await expect(group).toHaveCount(1);
  await expect(group).toContainText(/\d{2} notes/);
  await expect(group).not.toHaveAttribute('open');
  const notesSummary = dialog.locator('summary', { hasText: /^Notes \(\d+\)$/ });
  await expect(notesSummary).toBeVisible();
  await expect(dialog.getByRole('list', { name: 'Notes' })).toHaveCount(0);

  const size = await dialog.evaluate((el) => el.querySelectorAll('*').length);
  console.log(`elements in the modal after ${STEPS} steps: ${size}`);
  expect(size, `elements in the modal after ${STEPS} steps`).toBeLessThan(MAX_MODAL_ELEMENTS);
  const tabStops = await dialog.evaluate(
    (el) => el.querySelectorAll('a[href], button:not([disabled]), summary, textarea, input, [tabindex]:not([tabindex="-1"])').length,
  );
  expect(tabStops, 'Tab stops in the modal').toBeLessThan(15);

  // Opened, the group shows every step.
  await group.locator('summary').click();
  // (each note call is a tool-call disclosure of its own)
  await expect(group.locator('details')).toHaveCount(STEPS);

  // The Delegation tree, closed with Escape, gives focus back to the button that opened it.
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
  const treeButton = page.getByRole('button', { name: 'Delegation tree', exact: true });
  await treeButton.click();
  await expect(page.getByRole('dialog', { name: 'Delegation tree' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: 'Delegation tree' })).toBeHidden();
  await expect(treeButton).toBeFocused();

  // Nothing the page asked for failed: no sub-chat was read before it existed.
  expect(failed.filter((f) => f.includes(`/api/workspaces/${WORKSPACE}/`))).toEqual([]);
});
