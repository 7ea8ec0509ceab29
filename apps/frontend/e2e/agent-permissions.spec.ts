import { expect, test, type Browser, type Locator, type Page } from '@playwright/test';
import { createAgentViaApi, shot, unique, WORKSPACE } from './helpers';
import { OWNER, signedOutPage } from './support/accounts';

/*
 * Issue 24 items 7 and 5: a member uses the owner's agent but cannot change it (the editor says
 * why), until the owner shares editing; and feedback on an answer, given in the chat and read by
 * the admin under the agent. Each at 1440 and 390 px.
 */

const api = `/api/workspaces/${WORKSPACE}`;

/** A member who joined through an invite link the owner made, in a browser of their own. */
async function newMember(browser: Browser, ownerRequest: Page['request'], name: string): Promise<Page> {
  const invite = await ownerRequest.post(`${api}/invitations`, { data: { role: 'member' } });
  expect(invite.status()).toBe(201);
  const { token } = await invite.json();
  const page = await signedOutPage(browser);
  const email = `${name.split(' ')[0]!.toLowerCase()}-${Date.now().toString(36)}@baton.test`;
  const signUp = await page.request.post('/api/auth/sign-up/email', { data: { name, email, password: 'a member passphrase', inviteToken: token } });
  expect(signUp.status(), await signUp.text()).toBe(200);
  return page;
}

for (const width of [1440, 390] as const) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: width === 1440 ? 900 : 844 } });

    test('a member is refused on another’s agent and the editor shows why, until the author shares editing', async ({ page, browser }) => {
      test.setTimeout(90_000);
      const agent = await createAgentViaApi(page.request, { name: unique('Owner’s critic'), description: 'Reviews drafts' });
      const member = await newMember(browser, page.request, `Grace ${width}`);
      await member.setViewportSize({ width, height: width === 1440 ? 900 : 844 });

      // The list marks it read-only for them.
      await member.goto(`/w/${WORKSPACE}/agents`);
      const row = member.getByRole('listitem').filter({ hasText: agent.name });
      await expect(row).toContainText('Read-only');
      await expect(row).toContainText(`By ${OWNER.name}`);

      // The editor: a notice with the reason, every field disabled, no Save or Delete.
      await member.goto(`/w/${WORKSPACE}/agents/${encodeURIComponent(agent.id)}`);
      const notice = member.getByRole('note', { name: 'Read-only' });
      await expect(notice).toContainText('You can use this agent, not change it');
      await expect(notice).toContainText(`Only ${OWNER.name} (the author) or an admin can edit this agent`);
      await expect(member.getByLabel('Name', { exact: true })).toBeDisabled();
      await expect(member.getByLabel('System prompt', { exact: true })).toBeDisabled();
      await expect(member.getByRole('switch', { name: 'Publish over A2A' })).toBeDisabled();
      await expect(member.getByRole('button', { name: 'Save changes' })).toHaveCount(0);
      await expect(member.getByRole('button', { name: 'Delete', exact: true })).toHaveCount(0);
      await expect(member.getByRole('switch', { name: 'Members can edit' })).toHaveCount(0);
      await expect(member.getByRole('region', { name: 'Who can edit' })).toContainText(
        `Only ${OWNER.name} (the author) or an admin can change who may edit this agent`,
      );
      await expect(member.getByRole('link', { name: 'Back to agents' })).toBeVisible();
      const overflow = await member.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await shot(member, `agent-read-only-${width}`);

      // The API refuses the same, with the same reason.
      const refused = await member.request.patch(`${api}/agents/${agent.id}`, { data: { description: 'mine now' } });
      expect(refused.status()).toBe(403);
      expect((await refused.json()).error.message).toMatch(new RegExp(`^Only ${OWNER.name} \\(the author\\) or an admin can edit this agent`));

      // The owner shares editing in the editor.
      await page.goto(`/w/${WORKSPACE}/agents/${encodeURIComponent(agent.id)}`);
      await expect(page.getByRole('note', { name: 'Read-only' })).toHaveCount(0);
      const share = page.getByRole('switch', { name: 'Members can edit' });
      await expect(share).not.toBeChecked();
      await share.click();
      await page.getByRole('button', { name: 'Save changes' }).click();
      await expect(page.getByText(`Saved “${agent.name}”`)).toBeVisible();
      await shot(page, `agent-sharing-${width}`);

      // Now the member edits it (but still cannot delete it or stop sharing).
      await member.reload();
      await expect(member.getByRole('note', { name: 'Read-only' })).toHaveCount(0);
      await member.getByLabel('Description', { exact: true }).fill('Reviews drafts, kindly');
      await member.getByRole('button', { name: 'Save changes' }).click();
      await expect(member.getByText(`Saved “${agent.name}”`)).toBeVisible();
      await expect(member.getByRole('button', { name: 'Delete', exact: true })).toHaveCount(0);
      await expect(member.getByRole('region', { name: 'Who can edit' })).toContainText('Every member can edit this agent');
      await member.context().close();
    });

    test('feedback on an answer: thumbs down with a comment, kept after a reload, listed for the admin under the agent', async ({ page }) => {
      test.setTimeout(90_000);
      const agent = await createAgentViaApi(page.request, { name: unique('Rated helper') });
      await page.goto(`/w/${WORKSPACE}`);
      await page.getByLabel('Agent', { exact: true }).selectOption({ label: agent.name });
      const composer = page.getByLabel('Message', { exact: true });
      await composer.fill('Tell me about otters');
      await composer.press('Enter');
      await expect(page).toHaveURL(/\/chat\/chat_[\w-]+$/);
      const answer: Locator = page.getByRole('list', { name: 'Messages' }).getByRole('listitem', { name: 'Agent' }).last();
      await expect(answer.getByRole('button', { name: 'Copy answer' })).toBeVisible({ timeout: 20_000 });

      const down = answer.getByRole('button', { name: 'Bad answer' });
      await expect(down).toHaveAttribute('aria-pressed', 'false');
      await down.click();
      await expect(down).toHaveAttribute('aria-pressed', 'true');
      const box = page.getByRole('form', { name: 'Feedback comment' });
      const comment = box.getByLabel('What went wrong? (optional)');
      await expect(comment).toBeFocused();
      await comment.fill('Too short 🦦 — say more about their tools');
      await shot(page, `feedback-comment-${width}`);
      await comment.press('Enter');
      await expect(page.getByText('Thanks for your feedback')).toBeVisible();
      await expect(box).toBeHidden();
      await expect(down).toBeFocused();

      // Stored: a reload shows it pressed, from the server.
      await page.reload();
      const reloaded = page.getByRole('list', { name: 'Messages' }).getByRole('listitem', { name: 'Agent' }).last();
      await expect(reloaded.getByRole('button', { name: 'Bad answer' })).toHaveAttribute('aria-pressed', 'true');
      await shot(page, `feedback-given-${width}`);

      // The owner is an admin: the agent's editor lists it.
      await page.goto(`/w/${WORKSPACE}/agents/${encodeURIComponent(agent.id)}`);
      const card = page.getByRole('region', { name: 'Feedback' });
      await expect(card.getByRole('radio', { name: 'Bad (1)' })).toBeVisible();
      const entry = card.getByRole('listitem', { name: `Bad answer, rated by ${OWNER.name}` });
      await expect(entry).toContainText('Too short 🦦 — say more about their tools');
      await expect(entry).toContainText('otters');
      await expect(entry.getByRole('link', { name: /^Open chat/ })).toBeVisible();
      await entry.scrollIntoViewIfNeeded();
      await shot(page, `feedback-admin-${width}`);

      // Keyboard only: change it to a thumbs up, close the box with Escape, then clear it.
      await page.goBack();
      const again = page.getByRole('list', { name: 'Messages' }).getByRole('listitem', { name: 'Agent' }).last();
      const good = again.getByRole('button', { name: 'Good answer' });
      await good.focus();
      await page.keyboard.press('Enter');
      await expect(good).toHaveAttribute('aria-pressed', 'true');
      await expect(again.getByRole('button', { name: 'Bad answer' })).toHaveAttribute('aria-pressed', 'false');
      await expect(page.getByLabel('What was good about it? (optional)')).toBeFocused();
      await page.keyboard.press('Escape');
      await expect(page.getByRole('form', { name: 'Feedback comment' })).toBeHidden();
      await expect(good).toBeFocused();
      await page.keyboard.press('Space');
      await expect(good).toHaveAttribute('aria-pressed', 'false');
    });
  });
}
