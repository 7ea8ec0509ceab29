import { startProviderSimulator, type ProviderSimulator, type SimBehaviour } from '@baton/provider-sim';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { composer, lastAnswer, startChat } from './delegation-helpers';
import { createAgentViaApi, shots, unique, WORKSPACE } from './helpers';

/*
 * Real providers' manners, through the real UI and backend, with the provider simulator
 * on a loopback port (the e2e backend allows private addresses): a rate limit with
 * Retry-After shows its countdown and then the answer; a model that cannot take tools says
 * which agent and model, and what to do.
 */

const sims: ProviderSimulator[] = [];
test.afterAll(async () => {
  for (const sim of sims) await sim.close();
});

async function simulatedAgent(request: APIRequestContext, behaviour: SimBehaviour, agent: { name: string; modelId: string; toolIds?: string[] }) {
  const sim = await startProviderSimulator({ delayMs: 5, behaviour });
  sims.push(sim);
  const res = await request.post(`/api/workspaces/${WORKSPACE}/providers`, {
    data: { name: unique('Simulated'), baseUrl: sim.baseURL, apiKey: null, modelIds: [agent.modelId] },
  });
  expect(res.status(), await res.text()).toBe(201);
  const provider = (await res.json()) as { id: string };
  await createAgentViaApi(request, {
    name: agent.name,
    description: 'Answers through the simulated provider.',
    providerId: provider.id,
    modelId: agent.modelId,
    toolIds: agent.toolIds ?? [],
  });
  return sim;
}

test('a rate limit with Retry-After: the chat counts down to the retry, then the answer arrives', async ({ page, request }) => {
  const name = unique('Limited');
  // Refused twice, 2 s each: the notice stays up for about 4 s, long enough to be seen on a loaded machine.
  const sim = await simulatedAgent(request, { rateLimit: { times: 2, retryAfter: '2' } }, { name, modelId: 'sim-model' });
  await startChat(page, name, 'Hello after the rate limit');

  const notice = page.getByTestId('retry-notice');
  await expect(notice).toHaveText(/^Rate limited by the provider, retrying in [12] s…$/);
  await expect(page.getByRole('status').filter({ hasText: 'Rate limited by the provider, retrying in 2 s…' })).toBeAttached();
  await shots(page, 'rate-limit-countdown');

  await expect(lastAnswer(page)).toContainText('Hello after the rate limit', { timeout: 15_000 });
  await expect(notice).toBeHidden();
  await expect(composer(page)).toBeEnabled();
  expect(sim.requests).toHaveLength(3);
  await shots(page, 'rate-limit-answered');
});

test('a model that does not support tools: the answer says which agent and model, and what to do', async ({ page, request }) => {
  const name = unique('Writer');
  await simulatedAgent(request, { refuseTools: 'ollama' }, { name, modelId: 'gemma:2b', toolIds: ['calculator'] });
  await startChat(page, name, 'What is 6 times 7?');

  const alert = lastAnswer(page).getByRole('alert');
  await expect(alert).toContainText(
    `The answer failed: The model gemma:2b of agent ${name} does not support tools; pick a model that does, or remove its tools and sub-agents.`,
    { timeout: 15_000 },
  );
  // Readable: the whole message is on screen, wrapped, at a phone's width too.
  await page.setViewportSize({ width: 390, height: 844 });
  const box = await alert.boundingBox();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(390);
  await page.setViewportSize({ width: 1280, height: 800 });
  await shots(page, 'tools-refused');
});
