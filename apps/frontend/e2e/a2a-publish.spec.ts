import { expect, test } from '@playwright/test';
import { createAgentViaApi, getAgentViaApi, shot, unique, WORKSPACE } from './helpers';

/*
 * Publishing an agent over A2A from the editor: off by default, switched on and saved, the
 * Agent Card URL is shown to copy — and that URL, on the web app's address, serves the card
 * to a client with an API key, whose endpoint answers a task.
 */
test('the editor publishes an agent over A2A and shows its Agent Card URL, which serves the card', async ({ page, request, baseURL }) => {
  const agent = await createAgentViaApi(request, { name: unique('Published'), description: 'Answers over A2A' });
  await page.goto(`/w/${WORKSPACE}/agents/${agent.id}`);
  // The editor loads the agent, the tools and the providers first (slow on a loaded machine).
  await expect(page.getByRole('heading', { name: `Edit ${agent.name}` })).toBeVisible({ timeout: 60_000 });
  const publish = page.getByRole('switch', { name: 'Publish over A2A' });
  await expect(publish).toHaveAttribute('aria-checked', 'false');
  await expect(page.getByRole('textbox', { name: 'Agent Card URL' })).toHaveCount(0);
  await publish.click();
  await expect(page.getByText('Save the agent to get its Agent Card URL.')).toBeVisible();
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect.poll(async () => (await getAgentViaApi(request, agent.id)).a2aPublished).toBe(true);

  await page.goto(`/w/${WORKSPACE}/agents/${agent.id}`);
  await expect(page.getByRole('switch', { name: 'Publish over A2A' })).toHaveAttribute('aria-checked', 'true', { timeout: 60_000 });
  const url = page.getByRole('textbox', { name: 'Agent Card URL' });
  await expect(url).toHaveValue(`${baseURL}/a2a/${agent.id}/.well-known/agent-card.json`);
  await url.scrollIntoViewIfNeeded();
  await shot(page, 'a2a-publish-card-url');

  // The URL works from the web app's address, with an API key (and only with one).
  const { key } = (await (await request.post(`/api/workspaces/${WORKSPACE}/api-keys`, { data: { name: unique('A2A client') } })).json()) as { key: string };
  const cardUrl = await url.inputValue();
  expect((await fetch(cardUrl)).status).toBe(401);
  const card = (await (await fetch(cardUrl, { headers: { authorization: `Bearer ${key}`, 'a2a-version': '1.0' } })).json()) as {
    name: string;
    supportedInterfaces: { url: string }[];
  };
  expect(card.name).toBe(agent.name);
  expect(card.supportedInterfaces[0]!.url).toBe(`${baseURL}/a2a/${agent.id}`);
  const sent = await fetch(card.supportedInterfaces[0]!.url, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'message/send',
      params: { message: { kind: 'message', messageId: 'm1', role: 'user', parts: [{ kind: 'text', text: 'Hello from an A2A client' }] } },
    }),
  });
  const { result } = (await sent.json()) as { result: { status: { state: string }; artifacts: { parts: { text: string }[] }[] } };
  expect(result.status.state).toBe('completed');
  expect(result.artifacts[0]!.parts[0]!.text).toContain('Hello from an A2A client');
});
