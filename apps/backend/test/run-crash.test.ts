import { INTERRUPTED_SUB_AGENT_RESULT } from '@baton/delegation';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startBackend, workspaceApi, type BackendProcess, sendInBackground } from './support/backend-process';
import { waitFor } from './support/wait';
import { postStream, storedRunError, userMessage } from './support/chat-client';
import { type StoredPart, partsText } from './support/messages';

// The real backend process, killed with SIGKILL mid-answer and mid-delegation, then
// started again on the same embedded database; and stopped with SIGTERM. Nothing may stay
// running, every cut-off answer says so, and the chats stay usable.
const ws = '/api/workspaces/default';
type Stored = { id: string; role: string; parts: StoredPart[]; metadata: any };

const textOf = (m: Stored | undefined) => partsText(m?.parts, '');
const assistantWithText = (chat: { messages: Stored[] } | undefined) => {
  const answer = chat?.messages.find((m) => m.role === 'assistant');
  return textOf(answer).length > 0 ? answer : undefined;
};

describe('a backend process that dies or shuts down mid-run (embedded PGlite)', () => {
  let dataDir = '';
  const processes: BackendProcess[] = [];
  afterAll(async () => {
    for (const p of processes) await p.kill();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('kill -9 mid-answer and mid-delegation, restart: runs interrupted, calls settled, chats usable; SIGTERM never says "cancelled"', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'baton-crash-'));
    const env = { DATABASE_URL: undefined, REDIS_URL: undefined, BATON_DATA_DIR: dataDir, PORT: '0', DEMO_LLM_DELAY_MS: '15', BATON_SHUTDOWN_GRACE_MS: '300' };
    const a = await startBackend(env);
    processes.push(a);
    const agents = Object.fromEntries((await workspaceApi(a).get('/agents')).data.map((x: { name: string; id: string }) => [x.name, x]));

    // A REST turn whose sub-agent is mid-task, and a browser turn mid-answer.
    const delegating = (await workspaceApi(a).post('/chats', { agentId: agents.Assistant.id })).body.id as string;
    // The sub-agent's model stalls after a few words: it is mid-task when the process dies.
    sendInBackground(a, delegating, '/delegate Researcher: count the otters [demo:stall]');
    const answeringId = `chat_crash_${Date.now()}`;
    void postStream(`${a.url}${ws}/chat`, { id: answeringId, agentId: agents.Writer.id, message: userMessage(`u_${Date.now()}`, 'rivers '.repeat(400)) });

    const sub = await waitFor('the sub-agent is writing', async () => {
      const subs = (await workspaceApi(a).get(`/chats/${delegating}/sub-chats`))?.data ?? [];
      return subs[0] && assistantWithText(await workspaceApi(a).get(`/chats/${subs[0].id}`)) ? subs[0] : undefined;
    });
    // Until the stored part reaches the quoted words (on a loaded machine the first snapshot may hold only the reply's opening).
    await waitFor('the browser answer is stored in part', async () => {
      const answer = assistantWithText(await workspaceApi(a).get(`/chats/${answeringId}`));
      return answer && textOf(answer).includes('rivers rivers') ? answer : undefined;
    });
    await a.kill();

    const b = await startBackend(env);
    processes.push(b);
    // The sub-chat ended with the reason, its snapshot kept.
    const subChat = await workspaceApi(b).get(`/chats/${sub.id}`);
    expect(subChat).toMatchObject({ status: 'error', delegateResult: INTERRUPTED_SUB_AGENT_RESULT, activeRun: null });
    expect(textOf(subChat.messages[1])).toMatch(/^Working on it/);
    expect(storedRunError(subChat.messages[1])?.code).toBe('interrupted');
    // The parent's call got it as its output: no preliminary "running" output is left.
    const parent = await workspaceApi(b).get(`/chats/${delegating}`);
    expect(parent.activeRun).toBeNull();
    const call = (parent.messages.at(-1) as Stored).parts.find((p) => p.type === 'tool-newTask')!;
    expect(call).toMatchObject({ state: 'output-available', output: { status: 'error', result: INTERRUPTED_SUB_AGENT_RESULT, subChatId: sub.id } });
    expect(call.preliminary).toBeUndefined();
    expect(storedRunError(parent.messages.at(-1))?.code).toBe('interrupted');
    // The browser answer keeps its text and is marked as cut off.
    const cut = await workspaceApi(b).get(`/chats/${answeringId}`);
    expect(cut.activeRun).toBeNull();
    expect(textOf(cut.messages[1])).toContain('rivers rivers');
    expect(storedRunError(cut.messages[1])).toMatchObject({ code: 'interrupted', message: expect.stringMatching(/Interrupted/) });
    // Both chats go on.
    const rest = await workspaceApi(b).post(`/chats/${delegating}/messages`, { text: 'what now?' });
    expect(rest.status).toBe(200);
    expect(rest.body.error).toBeUndefined();
    const again = await postStream(`${b.url}${ws}/chat`, { id: answeringId, message: userMessage(`u2_${Date.now()}`, 'once more') });
    expect(again.status).toBe(200);

    // SIGTERM: running work gets the grace period, then is interrupted — never "cancelled by user".
    const graceful = `chat_term_${Date.now()}`;
    void postStream(`${b.url}${ws}/chat`, {
      id: graceful,
      agentId: agents.Writer.id,
      message: userMessage(`u3_${Date.now()}`, 'lakes and more lakes [demo:stall]'),
    });
    await waitFor('the answer is stored in part', async () => assistantWithText(await workspaceApi(b).get(`/chats/${graceful}`)));
    await b.stop();
    expect(b.output()).toMatch(/SIGTERM: shutting down/);

    const c = await startBackend(env);
    processes.push(c);
    const ended = await workspaceApi(c).get(`/chats/${graceful}`);
    expect(ended.activeRun).toBeNull();
    expect(storedRunError(ended.messages[1])?.code).toBe('interrupted');
    expect(ended.messages[1].metadata?.stopped).toBeUndefined();
    expect(JSON.stringify(ended)).not.toMatch(/Cancelled by user/);
    expect(c.output()).not.toMatch(/marked \d+ run/);
    await c.stop();
  }, 180_000);
});
