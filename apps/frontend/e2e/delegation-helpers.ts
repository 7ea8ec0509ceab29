import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import type { Chat, ChatWithMessages } from '@baton/schemas';
import { createAgentViaApi, findAgentByName, unique, WORKSPACE } from './helpers';

/** Helpers of delegation.spec.ts. */

export const api = `/api/workspaces/${WORKSPACE}`;

export function composer(page: Page) {
  return page.getByLabel('Message', { exact: true });
}

/** The parent's newest answer (the outer transcript, not a sub-chat shown inside it). */
export function lastAnswer(page: Page): Locator {
  return page.getByRole('list', { name: 'Messages' }).first().getByRole('listitem', { name: 'Agent' }).last();
}

export function subAgentDialog(page: Page) {
  return page.getByRole('dialog');
}

/** A parent's delegation block in the transcript. */
export function block(page: Page, subAgent: string) {
  return page.getByRole('group', { name: `Delegation to ${subAgent}` });
}

/** Starts a chat with `agent` from the new-chat page; returns its id. */
export async function startChat(page: Page, agent: string, text: string): Promise<string> {
  await page.goto(`/w/${WORKSPACE}`);
  await page.getByLabel('Agent', { exact: true }).selectOption({ label: agent });
  await composer(page).fill(text);
  await composer(page).press('Enter');
  await expect(page).toHaveURL(/\/chat\/[\w-]+$/);
  return decodeURIComponent(page.url().split('/chat/')[1]!);
}

export async function subChats(request: APIRequestContext, chatId: string): Promise<Chat[]> {
  const res = await request.get(`${api}/chats/${encodeURIComponent(chatId)}/sub-chats`);
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { data: Chat[] }).data;
}

export async function getChat(request: APIRequestContext, chatId: string): Promise<ChatWithMessages> {
  const res = await request.get(`${api}/chats/${encodeURIComponent(chatId)}`);
  expect(res.ok()).toBe(true);
  return res.json();
}

/** A parent turn run through the API: its stream ends with the newTask calls pending. */
export async function parentWithPendingCall(request: APIRequestContext, text: string) {
  const assistant = await findAgentByName(request, 'Assistant');
  const chatId = `chat_e2e_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const res = await request.post(`${api}/chat`, {
    data: { id: chatId, agentId: assistant.id, message: { id: `${chatId}_m1`, role: 'user', parts: [{ type: 'text', text }] } },
  });
  expect(res.ok(), await res.text()).toBe(true);
  const chat = await getChat(request, chatId);
  const call = chat.messages.at(-1)!.parts.find((p) => p.type === 'tool-newTask') as { toolCallId: string; state: string };
  expect(call.state).toBe('input-available');
  return { chatId, toolCallId: call.toolCallId };
}

/** With this pace a slow sub-agent works for about 6-9 s: time enough to act while it runs. */
const SLOW_WORD_DELAY_MS = 250;

export interface SlowDemoModel {
  /** An agent whose only sub-agent is `worker`. */
  lead: string;
  /** A sub-agent that answers through the slow demo model. */
  worker: string;
  /** Like `lead`, but answering through the slow model itself: it writes its delegations slowly. */
  slowLead: string;
  stop: () => void;
}

/**
 * A demo sub-agent is done in well under a second. This starts a second demo model with a
 * slow word pace (its own process, on a free port it reports), reached as an ordinary
 * OpenAI-compatible provider by a "slow researcher" sub-agent of a "slow lead" agent.
 */
export async function startSlowDemoModel(request: APIRequestContext, testDir: string, wordDelayMs = SLOW_WORD_DELAY_MS): Promise<SlowDemoModel> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: resolve(testDir, '../../../packages/demo-llm'),
    env: { ...process.env, DEMO_LLM_PORT: '0', DEMO_LLM_DELAY_MS: String(wordDelayMs) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const stop = () => void child.kill('SIGTERM');
  // Should the worker die without afterAll, the model must not outlive it.
  process.once('exit', stop);
  const baseUrl = await new Promise<string>((done, fail) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /at (http:\/\/\S+\/v1)/.exec(out);
      if (match) done(match[1]!.replace('localhost', '127.0.0.1'));
    });
    child.once('exit', (code) => fail(new Error(`the slow demo model exited (${code})`)));
    setTimeout(() => fail(new Error('the slow demo model did not start')), 20_000);
  }).catch((err: Error) => {
    stop();
    throw err;
  });

  const provider = await request.post(`${api}/providers`, {
    data: { name: unique('Slow demo'), baseUrl, apiKey: 'demo', modelIds: ['baton-demo'] },
  });
  expect(provider.status(), await provider.text()).toBe(201);
  const { id: providerId } = (await provider.json()) as { id: string };
  const worker = await createAgentViaApi(request, {
    name: unique('Slow researcher'),
    description: 'Answers through a slow model, so it is still working when the test acts.',
    providerId,
    modelId: 'baton-demo',
  });
  const lead = await createAgentViaApi(request, {
    name: unique('Slow lead'),
    description: 'Delegates to the slow researcher.',
    subAgentIds: [worker.id],
  });
  const slowLead = await createAgentViaApi(request, {
    name: unique('Slow writer of tasks'),
    description: 'Delegates to the slow researcher, and writes slowly itself.',
    providerId,
    modelId: 'baton-demo',
    subAgentIds: [worker.id],
  });
  return { lead: lead.name, worker: worker.name, slowLead: slowLead.name, stop };
}
