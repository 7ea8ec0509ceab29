import { expect, test, type Locator, type Page } from '@playwright/test';
import { shot, sidebar, unique, WORKSPACE } from './helpers';

/*
 * The chat against the real backend and the offline demo model. The demo model answers a
 * plain message with a short markdown reply that quotes it (first 500 characters) and
 * ends with a bullet list, word by word (15 ms a word), so a long message streams for
 * about two seconds. `[demo:error]` makes the provider fail (after the backend's retries),
 * `[demo:drop]` breaks the connection mid-answer.
 */

const DEMO_LAST_BULLET = 'For real answers, connect a model';

function words(count: number, prefix = 'word') {
  return Array.from({ length: count }, (_, i) => `${prefix}${i}`).join(' ');
}

function messages(page: Page) {
  return page.getByRole('list', { name: 'Messages' });
}

function lastAnswer(page: Page): Locator {
  return messages(page).getByRole('listitem', { name: 'Agent' }).last();
}

function composer(page: Page) {
  return page.getByLabel('Message', { exact: true });
}

/** Starts a chat with the Assistant from the new-chat page; returns its id. */
async function startChat(page: Page, text: string): Promise<string> {
  await page.goto(`/w/${WORKSPACE}`);
  await page.getByLabel('Agent', { exact: true }).selectOption({ label: 'Assistant' });
  await composer(page).fill(text);
  await composer(page).press('Enter');
  await expect(page).toHaveURL(/\/chat\/chat_[\w-]+$/);
  return decodeURIComponent(page.url().split('/chat/')[1]!);
}

/** Sends a message in the open chat. */
async function send(page: Page, text: string) {
  await composer(page).fill(text);
  await page.getByRole('button', { name: 'Send message' }).click();
}

async function waitForAnswer(answer: Locator, timeout = 20_000) {
  await expect(answer.getByRole('button', { name: 'Copy answer' })).toBeVisible({ timeout });
}

test('the new-chat page says the demo model is answering, and fills in an example', async ({ page }) => {
  await page.goto(`/w/${WORKSPACE}`);
  await page.getByLabel('Agent', { exact: true }).selectOption({ label: 'Assistant' });
  const notice = page.getByRole('complementary', { name: 'Demo model' });
  await expect(notice).toContainText('Offline demo model');
  await expect(notice).toContainText('/delegate <sub-agent name>: <task>');
  await shot(page, 'new-chat-demo-notice');

  await notice.getByRole('button', { name: /^Try it/ }).click();
  await expect(composer(page)).toHaveValue('/delegate Researcher: find three facts about otters');
  await expect(composer(page)).toBeFocused();
});

test('a new chat streams a markdown answer and lands in the sidebar with its title', async ({ page, request }) => {
  const title = unique('Otter questions');
  // Every text the newest answer shows, recorded in the page as it renders: whether it streamed
  // is then read from what the page showed, not from how often this (slow, loaded) test polls.
  await page.addInitScript((lastLine) => {
    const shown: { length: number; complete: boolean }[] = [];
    (window as unknown as { __answerShown: typeof shown }).__answerShown = shown;
    new MutationObserver(() => {
      const answers = document.querySelectorAll('[aria-label="Messages"] [aria-label="Agent"]');
      const text = answers[answers.length - 1]?.textContent ?? '';
      if (!text.includes("Baton's offline demo model") || shown.at(-1)?.length === text.length) return;
      shown.push({ length: text.length, complete: text.includes(lastLine) });
    }).observe(document, { subtree: true, childList: true, characterData: true });
  }, DEMO_LAST_BULLET);
  // Shift+Enter keeps writing: the first line becomes the chat's title.
  await page.goto(`/w/${WORKSPACE}`);
  await page.getByLabel('Agent', { exact: true }).selectOption({ label: 'Assistant' });
  await composer(page).fill(title);
  await composer(page).press('Shift+Enter');
  await composer(page).pressSequentially('more');
  await expect(composer(page)).toHaveValue(`${title}\nmore`);
  await composer(page).fill(`${title}\n${words(70)}`);
  await composer(page).press('Enter');
  await expect(page).toHaveURL(/\/chat\/chat_[\w-]+$/);
  const chatId = decodeURIComponent(page.url().split('/chat/')[1]!);

  await expect(messages(page).getByRole('listitem', { name: 'You' })).toContainText(title);
  // Streaming: the answer is on screen and still growing before it is complete.
  const answer = lastAnswer(page);
  await expect(answer).toContainText("Baton's offline demo model", { timeout: 15_000 });
  const stop = page.getByRole('button', { name: 'Stop answering' });
  await expect(stop).toBeVisible();
  await shot(page, 'chat-streaming');

  await waitForAnswer(answer);
  await expect(stop).toBeHidden();
  await expect(answer).toContainText(DEMO_LAST_BULLET);
  // It streamed: the page showed the answer growing, several times, before its last line came.
  const shown = await page.evaluate(() => (window as unknown as { __answerShown: { length: number; complete: boolean }[] }).__answerShown);
  const partial = shown.filter((s) => !s.complete);
  expect(partial.length, JSON.stringify(shown)).toBeGreaterThanOrEqual(3);
  expect(shown.at(-1)?.complete).toBe(true);
  // Markdown is rendered: the demo's bullet list is a real list, the quote a real blockquote.
  await expect(answer.locator('ul > li')).toHaveCount(3);
  await expect(answer.locator('blockquote')).toContainText('word50');
  await expect(answer.locator('code').first()).toContainText('/delegate');
  // The footer names the model and the tokens used.
  await expect(answer).toContainText(/baton-demo · [\d,]+ tokens/);
  await shot(page, 'chat-markdown');

  // The sidebar lists the chat under the title the server made from the first line.
  await expect(sidebar(page).getByRole('link', { name: title })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  const stored = await (await request.get(`/api/workspaces/${WORKSPACE}/chats/${chatId}`)).json();
  expect(stored.title).toBe(title);

  // After a reload the stored conversation is shown the same way.
  await page.reload();
  await expect(lastAnswer(page).locator('ul > li')).toHaveCount(3);
  await expect(messages(page).getByRole('listitem', { name: 'You' })).toContainText('word50');
});

test('code blocks are highlighted and copyable, tables rendered, in light and dark mode', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  // The demo quotes the message line by line, so markdown in it comes back inside the quote.
  const code = ['```ts', 'const answer: number = 42; // the answer', 'function greet(name: string) {', '  return `hi ${name}`;', '}', '```'];
  const table = ['| animal | habitat |', '| --- | --- |', '| otter | rivers |'];
  await startChat(page, ['Code and a table', ...code, '', ...table].join('\n'));
  const answer = lastAnswer(page);
  await waitForAnswer(answer);
  await expect(answer.locator('pre code .hljs-keyword').first()).toHaveText('const');
  await expect(answer.locator('pre code .hljs-comment')).toHaveText('// the answer');
  await expect(answer.getByRole('table')).toBeVisible();
  await expect(answer.getByRole('cell', { name: 'otter' })).toBeVisible();
  await answer.getByRole('button', { name: 'Copy code' }).click();
  await expect(answer.getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${code.slice(1, -1).join('\n')}\n`);
  await shot(page, 'chat-code');
  await page.emulateMedia({ colorScheme: 'dark' });
  await shot(page, 'chat-code-dark');
});

test('model output cannot inject HTML or scripts', async ({ page }) => {
  await startChat(page, `<img src=x onerror="window.__pwned=1"> <script>window.__pwned=1</script> **bold** [link](javascript:window.__pwned=1)`);
  const answer = lastAnswer(page);
  await waitForAnswer(answer);
  await expect(answer.locator('blockquote strong')).toHaveText('bold');
  // Raw HTML in the answer is shown as the text it is.
  await expect(answer.locator('blockquote')).toContainText('<script>window.__pwned=1</script>');
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  await expect(page.locator('img[src="x"]')).toHaveCount(0);
  await expect(page.locator('main script')).toHaveCount(0);
  await expect(page.locator('a[href^="javascript:"]')).toHaveCount(0);

  await page.reload();
  await waitForAnswer(lastAnswer(page));
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  await expect(page.locator('img[src="x"]')).toHaveCount(0);
});

// Both Stop tests stop a stalled answer ([demo:stall]: a few words, then nothing): a whole
// demo answer takes 1.5 s, which a loaded machine's click on Stop can come after.
test('Stop ends the answer on the server too, and the partial answer stays after a reload', async ({ page, request }) => {
  const chatId = await startChat(page, 'Tell me a long story [demo:stall]');
  const answer = lastAnswer(page);
  await expect(answer).toContainText("Baton's offline demo", { timeout: 15_000 });
  await page.getByRole('button', { name: 'Stop answering' }).click();

  await expect(page.getByRole('button', { name: 'Stop answering' })).toBeHidden();
  await expect(page.getByRole('button', { name: 'Send message' })).toBeVisible();
  await expect(answer).toContainText('Stopped by you');
  const stoppedText = await answer.innerText();
  expect(stoppedText).not.toContain(DEMO_LAST_BULLET);
  // Nothing more arrives.
  await page.waitForTimeout(2_500);
  expect(await answer.innerText()).toBe(stoppedText);
  await shot(page, 'chat-stopped');

  const stored = await (await request.get(`/api/workspaces/${WORKSPACE}/chats/${chatId}`)).json();
  const storedAnswer = stored.messages.at(-1);
  expect(storedAnswer.role).toBe('assistant');
  expect(storedAnswer.metadata.stopped).toBe(true);

  await page.reload();
  const reloaded = lastAnswer(page);
  await expect(reloaded).toContainText("Baton's offline demo");
  await expect(reloaded).toContainText('Stopped by you');
  await expect(reloaded).not.toContainText(DEMO_LAST_BULLET);

  // The chat carries on normally after a stop.
  await send(page, 'and now a short one');
  await waitForAnswer(lastAnswer(page));
  await expect(lastAnswer(page)).toContainText(DEMO_LAST_BULLET);
});

test('Stop with a draft in the box only stops: the draft stays and is not sent', async ({ page, request }) => {
  const chatId = await startChat(page, 'Tell me a long story [demo:stall]');
  const answer = lastAnswer(page);
  await expect(answer).toContainText("Baton's offline demo", { timeout: 15_000 });
  const draft = 'a follow-up I am still writing';
  await composer(page).fill(draft);
  await page.getByRole('button', { name: 'Stop answering' }).click();

  await expect(answer).toContainText('Stopped by you');
  await expect(page.getByRole('button', { name: 'Send message' })).toBeEnabled();
  await expect(composer(page)).toHaveValue(draft);
  // A draft sent by mistake would be on screen and stored by now.
  await page.waitForTimeout(1_500);
  await expect(composer(page)).toHaveValue(draft);
  await expect(messages(page).getByRole('listitem', { name: 'You' })).toHaveCount(1);
  const stored = await (await request.get(`/api/workspaces/${WORKSPACE}/chats/${chatId}`)).json();
  expect(stored.messages.filter((m: { role: string }) => m.role === 'user')).toHaveLength(1);
  expect(stored.activeRun).toBeNull();
});

test('the tab is titled for the chat, with the title taken from the first message without markdown or commands', async ({ page, request }) => {
  await page.goto(`/w/${WORKSPACE}`);
  await expect(page).toHaveTitle('New chat · Baton');
  const headingChat = await startChat(page, `# Otter **habitats** and \`diet\` ${unique('t')}\nmore detail`);
  // The chat is stored when its first request arrives, a moment after the URL changes.
  const storedTitle = async (chatId: string, expected: RegExp) => {
    const read = async () => (await (await request.get(`/api/workspaces/${WORKSPACE}/chats/${chatId}`)).json()).title as string | undefined;
    await expect.poll(read).toMatch(expected);
    return (await read())!;
  };
  const headingTitle = await storedTitle(headingChat, /^Otter habitats and diet t \w+$/);
  await expect(page).toHaveTitle(`${headingTitle} · Baton`);
  await expect(page.locator('header').getByRole('heading', { level: 1 })).toHaveText(headingTitle);

  const commandChat = await startChat(page, `/delegate Researcher: find three facts about otters ${unique('c')}`);
  const commandTitle = await storedTitle(commandChat, /^Researcher: find three facts about otters c \w+$/);
  await expect(page).toHaveTitle(`${commandTitle} · Baton`);
  // The Assistant really delegates to its Researcher; let that finish before leaving.
  await waitForAnswer(lastAnswer(page), 30_000);

  // Moving between chats in the app, and opening one afresh, titles the tab for it.
  await sidebar(page).getByRole('link', { name: headingTitle }).click();
  await expect(page).toHaveURL(new RegExp(`/chat/${headingChat}$`));
  await expect(page).toHaveTitle(`${headingTitle} · Baton`);
  await page.reload();
  await expect(page).toHaveTitle(`${headingTitle} · Baton`);
  expect(await page.title()).toBe(`${headingTitle} · Baton`);
});

test('Copy puts the answer on the clipboard; Regenerate answers the last message again', async ({ page, context, request }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const chatId = await startChat(page, 'tell me something about rivers');
  await waitForAnswer(lastAnswer(page));
  await lastAnswer(page).getByRole('button', { name: 'Copy answer' }).click();
  await expect(lastAnswer(page).getByRole('button', { name: 'Copied' })).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toContain('> tell me something about rivers');
  expect(copied).toContain(`- ${DEMO_LAST_BULLET}`);
  const before = await (await request.get(`/api/workspaces/${WORKSPACE}/chats/${chatId}`)).json();
  const firstAnswerId = before.messages.at(-1).id;

  await lastAnswer(page).getByRole('button', { name: 'Regenerate answer' }).click();
  await expect(page.getByRole('button', { name: 'Stop answering' })).toBeVisible();
  await waitForAnswer(lastAnswer(page));
  await expect(messages(page).getByRole('listitem', { name: 'Agent' })).toHaveCount(1);
  await expect(lastAnswer(page)).toContainText('tell me something about rivers');

  const after = await (await request.get(`/api/workspaces/${WORKSPACE}/chats/${chatId}`)).json();
  expect(after.messages).toHaveLength(2);
  expect(after.messages.at(-1).id).not.toBe(firstAnswerId);
});

test('a provider error is shown in place with Retry, also after a reload', async ({ page }) => {
  test.setTimeout(90_000);
  await startChat(page, 'this one breaks [demo:error]');
  const failure = page.getByRole('alert').filter({ hasText: 'The answer failed' });
  await expect(failure).toContainText('The demo model failed on purpose', { timeout: 20_000 });
  await expect(page.getByRole('button', { name: 'Send message' })).toBeVisible();
  await shot(page, 'chat-error');

  // Retry asks again (the demo fails again on purpose): the error clears while it works.
  await failure.getByRole('button', { name: 'Retry' }).click();
  await expect(failure).toBeHidden();
  // The demo's failure is an HTTP 500, which the AI SDK tries twice more: the chat says so meanwhile.
  await expect(page.getByRole('status').filter({ hasText: /Provider didn’t answer, retrying (in \d s )?\(2\/3\)…/ })).toBeVisible();
  await expect(failure).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('status').filter({ hasText: 'retrying' })).toHaveCount(0);

  // The failure is stored with the answer: after a reload it is still there, with its reason.
  await page.reload();
  const stored = lastAnswer(page).getByRole('alert');
  await expect(stored).toContainText('The demo model failed on purpose');
  await expect(stored.getByRole('button', { name: 'Retry' })).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: 'has not answered' })).toBeHidden();
});

test('an answer that broke off keeps its text and shows the error inside it', async ({ page }) => {
  await startChat(page, 'cut me off [demo:drop] please');
  const answer = lastAnswer(page);
  await expect(page.getByRole('alert').filter({ hasText: 'The answer failed' })).toBeVisible({ timeout: 20_000 });

  await page.reload();
  const stored = lastAnswer(page);
  await expect(stored).toContainText("This is Baton's offline");
  const inPlace = stored.getByRole('alert');
  await expect(inPlace).toContainText('The answer failed');
  await expect(inPlace.getByRole('button', { name: 'Retry' })).toBeVisible();
  await expect(answer).toBeVisible();
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the chat fits a 390 px screen', async ({ page }) => {
    await startChat(page, `A phone-sized question\n${words(40, 'tiny')}`);
    await waitForAnswer(lastAnswer(page));
    await expect(page.getByRole('complementary', { name: 'Demo model' })).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await shot(page, 'chat-mobile');
    // The same answer in dark mode: markdown, the notice and the footer stay readable.
    await page.emulateMedia({ colorScheme: 'dark' });
    await shot(page, 'chat-mobile-dark');
  });
});

test('scrolling up stops following the answer; "Jump to latest" comes back down', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 600 });
  await startChat(page, 'first question');
  await waitForAnswer(lastAnswer(page));
  await send(page, 'second question');
  await waitForAnswer(lastAnswer(page));

  await send(page, words(300, 'scroll'));
  await expect(lastAnswer(page)).toContainText('scroll0', { timeout: 15_000 });
  const scroller = page.locator('div:has(> div > ol[aria-label="Messages"])');
  await scroller.hover();
  await page.mouse.wheel(0, -2_000);
  const jump = page.getByRole('button', { name: 'Jump to latest' });
  await expect(jump).toBeVisible();
  const top = await scroller.evaluate((el) => el.scrollTop);
  await waitForAnswer(lastAnswer(page));
  // The view stayed where the user put it while the answer finished.
  expect(await scroller.evaluate((el) => el.scrollTop)).toBe(top);
  await jump.click();
  await expect(jump).toBeHidden();
  await expect(lastAnswer(page).getByRole('button', { name: 'Copy answer' })).toBeInViewport();
});
