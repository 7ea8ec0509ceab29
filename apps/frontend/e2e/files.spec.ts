import { expect, test, type Locator, type Page } from '@playwright/test';
import { block } from './delegation-helpers';
import { shot, shots, WORKSPACE } from './helpers';

/*
 * Files in the browser (issue 20): a screenshot pasted into the composer and a PDF chosen
 * with the Attach button upload at once, show as chips, and go with the message; the demo
 * model says what it received (count, types, sizes); the sent message shows the image's
 * thumbnail and the PDF's card. A file Baton does not take is an error chip and nothing is
 * sent. Against the real backend and the offline demo model.
 */

const messages = (page: Page) => page.getByRole('list', { name: 'Messages' });
const userMessages = (page: Page) => messages(page).getByRole('listitem', { name: 'You' });
const answers = (page: Page) => messages(page).getByRole('listitem', { name: 'Agent' });
const composer = (page: Page) => page.getByLabel('Message', { exact: true });
const chips = (page: Page) => page.getByRole('list', { name: 'Attached files' }).getByRole('listitem');

/** A small PDF: the backend tells a PDF by its `%PDF-` signature. */
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
);

/** Pastes a PNG drawn on a canvas (a stand-in for a screenshot) into `target`, as the clipboard would. */
async function pasteScreenshot(target: Locator, name = 'image.png') {
  await target.evaluate(async (element, fileName) => {
    const canvas = document.createElement('canvas');
    canvas.width = 480;
    canvas.height = 300;
    const g = canvas.getContext('2d')!;
    g.fillStyle = '#eef2ff';
    g.fillRect(0, 0, 480, 300);
    g.fillStyle = '#4f46e5';
    g.fillRect(24, 24, 200, 28);
    g.fillStyle = '#a5b4fc';
    for (let i = 0; i < 5; i++) g.fillRect(24, 80 + i * 36, 120 + i * 60, 20);
    const blob = await new Promise<Blob>((resolve) => canvas.toBlob((b) => resolve(b!), 'image/png'));
    const data = new DataTransfer();
    data.items.add(new File([blob], fileName, { type: 'image/png' }));
    element.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, name);
}

/** Drops files on `target` as a drag from the desktop would. */
async function dropFiles(target: Locator, files: { name: string; type: string; text: string }[]) {
  await target.evaluate((element, list) => {
    const data = new DataTransfer();
    for (const f of list) data.items.add(new File([f.text], f.name, { type: f.type }));
    for (const type of ['dragenter', 'dragover', 'drop']) element.dispatchEvent(new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true }));
  }, files);
}

async function attachWithChooser(page: Page, file: { name: string; mimeType: string; buffer: Buffer }) {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Attach files' }).click();
  await (await chooser).setFiles(file);
}

async function openNewChat(page: Page) {
  await page.goto(`/w/${WORKSPACE}`);
  await page.getByLabel('Agent', { exact: true }).selectOption({ label: 'Assistant' });
}

test('paste a screenshot and attach a PDF: the answer reflects both, the message shows a thumbnail and a card', async ({ page, context }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openNewChat(page);

  await pasteScreenshot(composer(page));
  await attachWithChooser(page, { name: 'report.pdf', mimeType: 'application/pdf', buffer: PDF });
  await expect(chips(page)).toHaveCount(2);
  await expect(chips(page).nth(0)).toHaveAttribute('data-status', 'ready');
  await expect(chips(page).nth(1)).toHaveAttribute('data-status', 'ready');
  await expect(chips(page).nth(0)).toContainText('PNG image');
  await expect(chips(page).nth(1)).toContainText(`report.pdf`);
  await expect(chips(page).nth(1)).toContainText(`PDF · ${PDF.length} bytes`);
  // The pasted image's chip shows it (a local preview).
  await expect(chips(page).nth(0).locator('img')).toHaveJSProperty('complete', true);
  await composer(page).fill('What do these show?');
  await shots(page, 'files-composer');

  await page.setViewportSize({ width: 1440, height: 900 });
  await composer(page).press('Enter');
  await expect(page).toHaveURL(/\/chat\/chat_[\w-]+$/);
  await expect(chips(page)).toHaveCount(0);

  const answer = answers(page).last();
  await expect(answer).toContainText('I received 2 files', { timeout: 20_000 });
  await expect(answer).toContainText(/image 1: image\/png, [\d.]+ (KiB|bytes)/);
  await expect(answer).toContainText(`report.pdf: application/pdf, ${PDF.length} bytes`);

  const mine = userMessages(page).last();
  await expect(mine).toContainText('What do these show?');
  const thumbnail = mine.getByRole('img', { name: 'image.png' });
  await expect(thumbnail).toBeVisible();
  // Loaded from the backend through the page's own origin (the CSP's img-src 'self').
  await expect.poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(480);
  const card = mine.getByRole('link', { name: /report\.pdf/ });
  await expect(card).toContainText('PDF');
  await expect(card).toHaveAttribute('href', /^\/api\/workspaces\/default\/files\/file_/);
  await shots(page, 'files-sent');

  // The thumbnail opens the picture in a new tab.
  await page.setViewportSize({ width: 1440, height: 900 });
  const opened = context.waitForEvent('page');
  await mine.getByRole('link', { name: 'image.png' }).click();
  const tab = await opened;
  await tab.waitForLoadState();
  expect(tab.url()).toMatch(/\/api\/workspaces\/default\/files\/file_/);
  await tab.close();

  // After a reload the message is read from the server: the same thumbnail and card.
  await page.reload();
  await expect(userMessages(page).last().getByRole('img', { name: 'image.png' })).toBeVisible();
  await expect(
    userMessages(page)
      .last()
      .getByRole('link', { name: /report\.pdf/ }),
  ).toContainText('PDF');

  // Editing the text keeps the files: they go again with the new text.
  await userMessages(page).last().hover();
  await userMessages(page).last().getByRole('button', { name: 'Edit message' }).click();
  await page.getByRole('textbox', { name: 'Edit message' }).fill('Now compare them');
  await page.getByRole('textbox', { name: 'Edit message' }).press('Enter');
  await expect(answers(page).last()).toContainText('Now compare them', { timeout: 20_000 });
  await expect(answers(page).last()).toContainText('I received 2 files');
  await expect(userMessages(page).last().getByRole('img', { name: 'image.png' })).toBeVisible();
});

test.describe('at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('a file Baton does not take is an error chip and nothing is sent; dropped files alone can be sent', async ({ page }) => {
    await openNewChat(page);
    // Windows programs start with "MZ"; the bytes, not the name, make it refused.
    await attachWithChooser(page, {
      name: 'report.exe',
      mimeType: 'application/octet-stream',
      buffer: Buffer.from([0x4d, 0x5a, 0x90, 0, 3, 0, 0, 0, 4, 0, 0, 0, 0xff, 0xff]),
    });
    const refused = chips(page).first();
    await expect(refused).toHaveAttribute('data-status', 'failed');
    await expect(refused.getByRole('alert')).toContainText("report.exe: this type of file can't be attached. You can attach images");
    await composer(page).fill('Please read this');
    await expect(page.getByRole('button', { name: 'Send message' })).toBeDisabled();
    await expect(page.getByText("Remove the files that couldn't be attached to send.")).toBeVisible();
    await composer(page).press('Enter');
    await expect(page).toHaveURL(new RegExp(`/w/${WORKSPACE}$`));
    await shot(page, 'files-refused-390');

    await refused.getByRole('button', { name: 'Remove report.exe' }).click();
    await expect(chips(page)).toHaveCount(0);
    await composer(page).fill('');

    await dropFiles(page.getByRole('heading', { name: 'What should we work on?' }), [
      { name: 'notes.md', type: 'text/markdown', text: '# Walruses\nThey live in the Arctic and eat clams.' },
    ]);
    await pasteScreenshot(composer(page), 'chart.png');
    await expect(chips(page)).toHaveCount(2);
    await expect(chips(page).nth(0)).toHaveAttribute('data-status', 'ready');
    await expect(chips(page).nth(0)).toContainText('Markdown');
    await expect(chips(page).nth(1)).toHaveAttribute('data-status', 'ready');
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(await overflow()).toBeLessThanOrEqual(0);
    await shot(page, 'files-chips-390');

    // Files and no text: sendable.
    await page.getByRole('button', { name: 'Send message' }).click();
    await expect(page).toHaveURL(/\/chat\/chat_[\w-]+$/);
    const answer = answers(page).last();
    await expect(answer).toContainText('I received 2 files', { timeout: 20_000 });
    await expect(answer).toContainText('notes.md: text');
    await expect(answer).toContainText('Walruses They live in the Arctic');
    const mine = userMessages(page).last();
    await expect(mine.getByRole('img', { name: 'chart.png' })).toBeVisible();
    await expect(mine.getByRole('link', { name: /notes\.md/ })).toContainText('Markdown');
    expect(await overflow()).toBeLessThanOrEqual(0);
    await shot(page, 'files-sent-390');
  });
});

test('a PDF attached in the composer goes on to the Researcher with /delegate … [files], and its sub-chat shows it', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openNewChat(page);
  await attachWithChooser(page, { name: 'report.pdf', mimeType: 'application/pdf', buffer: PDF });
  await expect(chips(page).nth(0)).toHaveAttribute('data-status', 'ready');
  await composer(page).fill('/delegate Researcher: summarise the report [files]');
  await composer(page).press('Enter');
  await expect(page).toHaveURL(/\/chat\/chat_[\w-]+$/);

  // The Researcher says what it was given, and the Assistant continues with that.
  await expect(answers(page).last()).toContainText('I received 1 file:', { timeout: 30_000 });
  const researcher = block(page, 'Researcher');
  await expect(researcher).toHaveAttribute('data-status', 'success');
  await expect(researcher.getByRole('link', { name: 'report.pdf' })).toBeVisible();

  // The sub-chat's own page starts with the task and the PDF's card.
  await researcher.getByRole('link', { name: 'Open sub-chat' }).click();
  await expect(page).toHaveURL(/\/chat\/sub_\w+$/);
  const given = userMessages(page).first();
  await expect(given).toContainText('summarise the report');
  await expect(given.getByRole('link', { name: /report\.pdf/ })).toBeVisible();
  await shots(page, 'files-sub-chat');
});
