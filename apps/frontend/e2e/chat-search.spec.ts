import { expect, test, type APIRequestContext } from '@playwright/test';
import { createChatViaApi, findAgentByName, shot, sidebar, unique, WORKSPACE } from './helpers';

/** A chat with one exchange, written through the REST API (the demo model answers). */
async function chatSaying(request: APIRequestContext, title: string, text: string) {
  const assistant = await findAgentByName(request, 'Assistant');
  const chat = await createChatViaApi(request, { title, agentId: assistant.id });
  const res = await request.post(`/api/workspaces/${WORKSPACE}/chats/${chat.id}/messages`, { data: { text } });
  expect(res.status(), await res.text()).toBe(200);
  return chat;
}

/** A word no other test writes: letters only, so it is one search term. */
const oddWord = () =>
  `quux${unique('')
    .replace(/[^a-z]/g, '')
    .slice(0, 6)}`;

test('search finds chats by message text and title, by keyboard alone', async ({ page, request }) => {
  const word = oddWord();
  const first = await chatSaying(request, unique('Harbour notes'), `Remember the ${word} ferry timetable for Saturday morning.`);
  const second = await chatSaying(request, unique(`Plans ${word}`), 'Something else entirely.');

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/w/${WORKSPACE}/agents`);
  const nav = sidebar(page);
  const box = nav.getByRole('combobox', { name: 'Search chats' });
  // The chat list has loaded: the page is interactive (its shortcuts are listening).
  await expect(nav.getByRole('link', { name: first.title })).toBeVisible();
  await page.keyboard.press('ControlOrMeta+k');
  await expect(box).toBeFocused();

  await page.keyboard.type(word.slice(0, -1)); // a word start finds the whole word
  const results = nav.getByRole('listbox', { name: 'Matching chats' });
  const options = results.getByRole('option');
  await expect(options).toHaveCount(2);
  // Newest activity first: the chat titled with the word, then the one whose message holds it.
  await expect(options.nth(0)).toContainText(second.title);
  await expect(options.nth(1)).toContainText(first.title);
  await expect(options.nth(1)).toContainText(`${word} ferry timetable`);
  await expect(options.nth(1).locator('mark').last()).toHaveText(word);
  await expect(options.nth(0)).toHaveAttribute('aria-selected', 'true');
  await shot(page, 'search-results-1440');

  await page.keyboard.press('ArrowDown');
  await expect(options.nth(1)).toHaveAttribute('aria-selected', 'true');
  await expect(box).toHaveAttribute('aria-activedescendant', (await options.nth(1).getAttribute('id'))!);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/chat/${first.id}$`));
  await expect(page.getByRole('heading', { name: first.title })).toBeVisible();

  // Esc clears the search and the chat list is back.
  await box.focus();
  await page.keyboard.press('Escape');
  await expect(box).toHaveValue('');
  await expect(results).toHaveCount(0);
  await expect(nav.getByRole('group', { name: 'Chats' })).toBeVisible();

  // Nothing matches: said so. Emoji and a NUL byte in the query neither break the search nor the page.
  await box.fill(`${word}zzz`);
  await expect(nav.getByText(`No chats match “${word}zzz”.`)).toBeVisible();
  await expect(nav.getByRole('status').filter({ hasText: 'No chats match' })).toHaveCount(1);
  await shot(page, 'search-empty-1440');
  await box.fill('🎉🎉');
  await expect(nav.getByText('No chats match “🎉🎉”.')).toBeVisible();
  await box.fill(`🎉 ${word}\u0000`);
  await expect(options).toHaveCount(2);
  await expect(nav.getByRole('alert')).toHaveCount(0);
});

test.describe('at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('search works in the drawer, and a result opens its chat', async ({ page, request }) => {
    const word = oddWord();
    const chat = await chatSaying(request, unique('Phone search'), `The ${word} recipe needs two eggs.`);
    await page.goto(`/w/${WORKSPACE}`);
    await page.getByRole('button', { name: 'Open sidebar' }).click();
    const drawer = page.getByRole('dialog', { name: 'Navigation' });
    await drawer.getByRole('combobox', { name: 'Search chats' }).fill(word);
    const option = drawer.getByRole('option');
    await expect(option).toHaveCount(1);
    await expect(option).toContainText('recipe needs two eggs');
    // A comfortable touch target.
    expect((await option.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    await shot(page, 'search-results-390');
    await option.click();
    await expect(page).toHaveURL(new RegExp(`/chat/${chat.id}$`));
    await expect(drawer).toBeHidden();
  });
});
