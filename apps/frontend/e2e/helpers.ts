import { resolve } from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import type { Agent, Chat } from '@baton/schemas';

export const WORKSPACE = 'default';
const api = `/api/workspaces/${WORKSPACE}`;

/** A suffix that keeps names unique when the database outlives a run (DATABASE_URL). */
export function unique(prefix: string) {
  return `${prefix} ${Date.now().toString(36).slice(-5)}${Math.random().toString(36).slice(2, 5)}`;
}

/** Saves a screenshot of a key state as test-results/<name>.png. */
export async function shot(page: Page, name: string) {
  const path = resolve(test.info().project.testDir, '..', 'test-results', `${name}.png`);
  await page.screenshot({ path, animations: 'disabled' });
}

export async function createAgentViaApi(request: APIRequestContext, body: Record<string, unknown>): Promise<Agent> {
  const res = await request.post(`${api}/agents`, { data: body });
  expect(res.status(), await res.text()).toBe(201);
  return res.json();
}

export async function getAgentViaApi(request: APIRequestContext, id: string): Promise<Agent> {
  const res = await request.get(`${api}/agents/${id}`);
  expect(res.ok()).toBe(true);
  return res.json();
}

export async function findAgentByName(request: APIRequestContext, name: string): Promise<Agent> {
  const res = await request.get(`${api}/agents?limit=100`);
  const page = (await res.json()) as { data: Agent[] };
  const agent = page.data.find((a) => a.name === name);
  expect(agent, `agent "${name}" exists`).toBeTruthy();
  return agent!;
}

export async function createChatViaApi(request: APIRequestContext, body: Record<string, unknown>): Promise<Chat> {
  const res = await request.post(`${api}/chats`, { data: body });
  expect(res.status(), await res.text()).toBe(201);
  return res.json();
}

export function sidebar(page: Page) {
  return page.getByRole('navigation', { name: 'Sidebar' });
}
