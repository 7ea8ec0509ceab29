import { json, type TestApp } from './test-app';
import { waitFor } from './wait';

/**
 * Starts a REST turn of `leadId` whose Researcher sub-agent waits for steering (the demo
 * model's `[demo:steer]`); resolves with its running sub-chat and the pending turn.
 */
export async function startWaitingSubAgent(t: Pick<TestApp, 'request'>, leadId: string, ws = '/api/workspaces/default') {
  const parent = await json(await t.request(`${ws}/chats`, { json: { agentId: leadId } }));
  const turn = t.request(`${ws}/chats/${parent.id}/messages`, { json: { text: '/delegate Researcher: plan a trip [demo:steer]' } });
  const sub = await waitFor('a running sub-chat', async () => {
    const { data } = await json(await t.request(`${ws}/chats/${parent.id}/sub-chats`));
    return data.find((s: { status: string }) => s.status === 'running');
  });
  return { parent, sub, turn };
}
