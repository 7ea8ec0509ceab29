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
/** Elements in the modal (or the sub-chat viewer) at any point of the run: 131 and 100 measured under next dev, the steps folded into one group; shown one by one, each step added about 30. */
const MAX_MODAL_ELEMENTS = 400;

test('a 60-step sub-agent: the modal stays small, notes are one closed group, focus lands on the heading and returns from the tree, no 404s', async ({
  page,
}) => {
  test.setTimeout(300_000);
  const failed: string[] = [];
  page.on('response', (res) => res.status() === 404 && failed.push(`${res.status()} ${new URL(res.url()).pathname}`));

  // The modal's size, sampled while the sub-agent works: it must not grow with the transcript.
  await page.addInitScript(() => {
    const w = window as unknown as { modalMaxElements: number };
    w.modalMaxElements = 0;
    setInterval(() => {
      const modal = document.querySelector('[role="dialog"]');
      if (modal) w.modalMaxElements = Math.max(w.modalMaxElements, modal.querySelectorAll('*').length);
    }, 200);
  });
  await startChat(page, 'Assistant', `/delegate Writer: write it [demo:work ${STEPS}]`);
  const dialog = subAgentDialog(page);
  await expect(dialog).toBeVisible();
  // Focus opens on the dialog's heading (or its steering box), not on the first header button.
  const focused = () => page.evaluate(() => document.activeElement?.closest('[data-dialog-heading], [data-steer-input]') !== null);
  expect(await focused()).toBe(true);
  // Past a few steps, the transcript is one closed note group that counts on.
  await expect(dialog.getByTestId('note-group')).toContainText(/\d+ notes/, { timeout: 150_000 });
  await expect(dialog.getByTestId('note-group')).toHaveCount(1);

  await expect(lastAnswer(page)).toContainText('Here is what came back', { timeout: 150_000 });
  const largest = await page.evaluate(() => (window as unknown as { modalMaxElements: number }).modalMaxElements);
  console.log(`largest modal during ${STEPS} steps: ${largest} elements`);
  expect(largest, `elements in the modal during ${STEPS} steps`).toBeLessThan(MAX_MODAL_ELEMENTS);

  // The finished sub-chat, opened from its block: the same closed group, Notes closed too.
  const writer = block(page, 'Writer');
  await writer.getByRole('button', { name: 'View the sub-chat of Writer' }).click();
  const viewer = page.getByRole('dialog', { name: 'Sub-chat' });
  const group = viewer.getByTestId('note-group');
  await expect(group).toHaveCount(1);
  await expect(group).toContainText(`${STEPS} notes`);
  await expect(group).not.toHaveAttribute('open');
  await expect(viewer.locator('summary', { hasText: /^Notes \(\d+\)$/ })).toBeVisible();
  await expect(viewer.getByRole('list', { name: 'Notes' })).toHaveCount(0);
  const size = await viewer.evaluate((el) => el.querySelectorAll('*').length);
  console.log(`elements in the sub-chat viewer after ${STEPS} steps: ${size}`);
  expect(size, `elements in the viewer after ${STEPS} steps`).toBeLessThan(MAX_MODAL_ELEMENTS);
  const tabStops = await viewer.evaluate(
    (el) => el.querySelectorAll('a[href], button:not([disabled]), summary, textarea, input, [tabindex]:not([tabindex="-1"])').length,
  );
  expect(tabStops, 'Tab stops in the viewer').toBeLessThan(20);

  // Opened, the group shows every step.
  await group.locator('summary').click();
  // (each note call is a tool-call disclosure of its own)
  await expect(group.locator('details')).toHaveCount(STEPS);

  // The Delegation tree, closed with Escape, gives focus back to the button that opened it.
  await viewer.getByRole('button', { name: 'Close' }).click();
  await expect(viewer).toBeHidden();
  const treeButton = page.getByRole('button', { name: 'Delegation tree', exact: true });
  await treeButton.click();
  await expect(page.getByRole('dialog', { name: 'Delegation tree' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: 'Delegation tree' })).toBeHidden();
  await expect(treeButton).toBeFocused();

  // Nothing the page asked for failed: no sub-chat was read before it existed.
  expect(failed.filter((f) => f.includes(`/api/workspaces/${WORKSPACE}/`))).toEqual([]);
});
