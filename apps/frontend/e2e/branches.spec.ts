import { expect, test, type Locator, type Page } from '@playwright/test';
import { shots, unique, WORKSPACE } from './helpers';

/*
 * Branches: editing the first message of a three-turn chat starts a new branch; the pager
 * `‹ 2/2 ›` under it switches back to the old one — the whole conversation below follows —
 * and forward again, with the keyboard, and the choice survives a reload. Against the real
 * backend and the offline demo model, whose answer quotes the message it answers.
 */

const messages = (page: Page) => page.getByRole('list', { name: 'Messages' });
const userMessages = (page: Page) => messages(page).getByRole('listitem', { name: 'You' });
const answers = (page: Page) => messages(page).getByRole('listitem', { name: 'Agent' });
const composer = (page: Page) => page.getByLabel('Message', { exact: true });
const pagerOf = (item: Locator) => item.getByRole('group', { name: 'Versions of this message' });

async function waitForAnswer(answer: Locator) {
  await expect(answer.getByRole('button', { name: 'Copy answer' })).toBeVisible({ timeout: 20_000 });
}

async function send(page: Page, text: string, count: number) {
  await composer(page).fill(text);
  await composer(page).press('Enter');
  await expect(answers(page)).toHaveCount(count);
  await waitForAnswer(answers(page).last());
}

test('edit the first message of a three-turn chat, switch back to the old branch and forward again', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const topic = unique('walruses');
  await page.goto(`/w/${WORKSPACE}`);
  await page.getByLabel('Agent', { exact: true }).selectOption({ label: 'Assistant' });
  await composer(page).fill(`Tell me about ${topic}`);
  await composer(page).press('Enter');
  await expect(page).toHaveURL(/\/chat\/chat_[\w-]+$/);
  await waitForAnswer(answers(page).last());
  await send(page, 'And about narwhals?', 2);
  await send(page, 'And about puffins?', 3);
  // No versions yet: no pager.
  await expect(messages(page).getByRole('group', { name: 'Versions of this message' })).toHaveCount(0);

  // Edit is offered on the first message too, not only the last.
  const first = userMessages(page).first();
  await first.hover();
  await first.getByRole('button', { name: 'Edit message' }).click();
  const box = page.getByRole('textbox', { name: 'Edit message' });
  await expect(box).toHaveValue(`Tell me about ${topic}`);
  await box.fill('Tell me about beavers 🦫');
  await box.press('Enter');
  await expect(userMessages(page)).toHaveCount(1);
  await waitForAnswer(answers(page).last());
  await expect(answers(page)).toHaveCount(1);
  await expect(answers(page).last()).toContainText('Tell me about beavers');
  await expect(messages(page)).not.toContainText('puffins');
  const pager = pagerOf(userMessages(page).first());
  await expect(pager).toContainText('2/2');
  await expect(pager.getByRole('button', { name: 'Next version' })).toBeDisabled();
  await shots(page, 'branches-edited');
  await page.setViewportSize({ width: 1440, height: 900 });

  // Back to the old branch, by keyboard: the whole old conversation returns.
  await pager.getByRole('button', { name: 'Previous version' }).focus();
  await page.keyboard.press('Enter');
  await expect(userMessages(page)).toHaveCount(3);
  await expect(answers(page)).toHaveCount(3);
  await expect(userMessages(page).first()).toContainText(`Tell me about ${topic}`);
  await expect(answers(page).last()).toContainText('And about puffins?');
  await expect(messages(page)).not.toContainText('beavers');
  // The title came from the first message: it follows the version shown, in the header and the sidebar.
  await expect(page.getByRole('heading', { name: `Tell me about ${topic}` })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Sidebar' }).getByRole('link', { name: `Tell me about ${topic}` })).toBeVisible();
  const oldPager = pagerOf(userMessages(page).first());
  await expect(oldPager).toContainText('1/2');
  // The focus stayed on the pager, now the old version's: Next takes it since Previous is at its end.
  await expect(oldPager.getByRole('button', { name: 'Next version' })).toBeFocused();
  await shots(page, 'branches-switched-back');
  await page.setViewportSize({ width: 1440, height: 900 });

  // Stored: a reload shows the branch chosen.
  await page.reload();
  await expect(userMessages(page)).toHaveCount(3);
  await expect(pagerOf(userMessages(page).first())).toContainText('1/2');
  await expect(answers(page).last()).toContainText('And about puffins?');

  // And forward again, then on with the edited branch.
  await pagerOf(userMessages(page).first()).getByRole('button', { name: 'Next version' }).click();
  await expect(userMessages(page)).toHaveCount(1);
  await expect(userMessages(page).first()).toContainText('Tell me about beavers 🦫');
  await send(page, 'And about otters?', 2);
  await expect(answers(page).last()).toContainText('And about otters?');
  await expect(messages(page)).not.toContainText('puffins');
});

test('Regenerate keeps the previous answer as a version', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/w/${WORKSPACE}`);
  await page.getByLabel('Agent', { exact: true }).selectOption({ label: 'Assistant' });
  await composer(page).fill(unique('Tell me about lynxes'));
  await composer(page).press('Enter');
  await waitForAnswer(answers(page).last());
  const before = await answers(page).last().innerText();
  await answers(page).last().getByRole('button', { name: 'Regenerate answer' }).click();
  const pager = pagerOf(answers(page).last());
  await expect(pager).toContainText('2/2', { timeout: 20_000 });
  await waitForAnswer(answers(page).last());
  await pager.getByRole('button', { name: 'Previous version' }).click();
  await expect(pagerOf(answers(page).last())).toContainText('1/2');
  await expect(answers(page)).toHaveCount(1);
  expect((await answers(page).last().innerText()).split('\n')[0]).toBe(before.split('\n')[0]);
});
