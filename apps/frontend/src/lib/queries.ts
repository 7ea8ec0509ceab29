'use client';

import type { Agent, Chat, ChatSource, ChatWithMessages, WorkspaceTool } from '@baton/schemas';
import { ApiError, api } from './api-client';
import { getQueryClient } from './query-client';

/*
 * The query cache's keys and the reads shared outside React. One key per thing the API
 * returns, so every reader of it shares one copy and one request under way.
 */

export const queryKeys = {
  /** One chat with its messages: `null` when it does not exist (yet). */
  chat: (workspaceId: string, chatId: string) => ['chat', workspaceId, chatId] as const,
  /** The chats a parent delegated to (every attempt of every call). */
  subChats: (workspaceId: string, parentChatId: string) => ['sub-chats', workspaceId, parentChatId] as const,
  trace: (workspaceId: string, chatId: string) => ['trace', workspaceId, chatId] as const,
  /** The sidebar's pages of top-level chats: every chat, or those of one source; without `source`, the key of all of them. */
  chatList: (workspaceId: string, source?: ChatSource | 'all') =>
    source ? (['chat-list', workspaceId, source] as const) : (['chat-list', workspaceId] as const),
  /** The person's archived chats (their own list, apart from the sidebar's). */
  archivedChats: (workspaceId: string) => ['archived-chats', workspaceId] as const,
  agents: (workspaceId: string) => ['agents', workspaceId] as const,
  /** What the agent editor starts from (the agent, the lists its form offers). */
  agentEditor: (workspaceId: string, agentId: string | undefined) => ['agent-editor', workspaceId, agentId ?? ''] as const,
  /** Ratings of an agent's answers (admins), all or of one rating. */
  agentFeedback: (workspaceId: string, agentId: string, rating: 'all' | 'up' | 'down') => ['agent-feedback', workspaceId, agentId, rating] as const,
  providers: (workspaceId: string) => ['providers', workspaceId] as const,
  tools: (workspaceId: string) => ['tools', workspaceId] as const,
  mcpServers: (workspaceId: string) => ['mcp-servers', workspaceId] as const,
  members: (workspaceId: string) => ['members', workspaceId] as const,
  invitations: (workspaceId: string) => ['invitations', workspaceId] as const,
  apiKeys: (workspaceId: string, all: boolean) => ['api-keys', workspaceId, all] as const,
  models: () => ['models'] as const,
  /** Who is signed in, with their memberships. */
  me: () => ['me'] as const,
  authStatus: () => ['auth-status'] as const,
  invite: (token: string) => ['invite', token] as const,
  /** The person's share links in a workspace. */
  shares: (workspaceId: string) => ['shares', workspaceId] as const,
  /** A shared chat, by its link's token (public). */
  shared: (token: string) => ['shared', token] as const,
};

/** The chat, or null when there is no chat of this person's with that id. */
export async function fetchChatOrNull(workspaceId: string, chatId: string): Promise<ChatWithMessages | null> {
  try {
    return await api.chats.get(workspaceId, chatId);
  } catch (err) {
    if (err instanceof ApiError && err.isNotFound) return null;
    throw err;
  }
}

/**
 * Reads the chat into the cache; undefined when it does not exist. A read of it already
 * under way is joined rather than repeated: a run's end, the follow that waited for it and
 * the header's usage make one request. `maxAgeMs`: a copy read that recently serves too (the
 * follow after a stream's end, which may come a moment after the end's own read finished).
 * `fresh` is for a caller that just changed the chat (Stop, an approval decision): a read
 * begun before that change would not show it.
 */
export async function readChat(workspaceId: string, chatId: string, { fresh = false, maxAgeMs = 0 } = {}): Promise<ChatWithMessages | undefined> {
  const client = getQueryClient();
  const queryKey = queryKeys.chat(workspaceId, chatId);
  if (fresh) {
    const chat = await fetchChatOrNull(workspaceId, chatId);
    client.setQueryData(queryKey, chat);
    return chat ?? undefined;
  }
  return (await client.fetchQuery({ queryKey, queryFn: () => fetchChatOrNull(workspaceId, chatId), staleTime: maxAgeMs })) ?? undefined;
}

/** The stored copy the cache holds right now (no request). */
export function cachedChat(workspaceId: string, chatId: string): ChatWithMessages | undefined {
  return getQueryClient().getQueryData<ChatWithMessages | null>(queryKeys.chat(workspaceId, chatId)) ?? undefined;
}

/** How long a workspace's agent list serves sub-agent names and checks before it is read again. */
const AGENTS_FRESH_MS = 30_000;

/**
 * The workspace's agents by id, for naming sub-agents and checking a parent's sub-agent
 * list: twenty delegation blocks cost one request. `refresh` reads them again (a lookup
 * missed an agent created meanwhile).
 */
export async function workspaceAgents(workspaceId: string, { refresh = false } = {}): Promise<Map<string, Agent>> {
  const agents = await getQueryClient().fetchQuery({
    queryKey: queryKeys.agents(workspaceId),
    queryFn: () => api.agents.listAll(workspaceId),
    staleTime: refresh ? 0 : AGENTS_FRESH_MS,
  });
  return new Map(agents.map((a) => [a.id, a]));
}

/** The agent with this id, reading the list again once when it is not in it. */
export async function findWorkspaceAgent(workspaceId: string, agentId: string): Promise<Agent | undefined> {
  const agents = await workspaceAgents(workspaceId);
  if (agents.has(agentId)) return agents.get(agentId);
  return (await workspaceAgents(workspaceId, { refresh: true })).get(agentId);
}

/** The agent's name if the workspace's list is already in the cache (no request); undefined otherwise. */
export function knownAgentName(workspaceId: string, agentId: string): string | undefined {
  return getQueryClient()
    .getQueryData<Agent[]>(queryKeys.agents(workspaceId))
    ?.find((a) => a.id === agentId)?.name;
}

/** The workspace's tool catalog, read once per page load and shared (for naming tool calls); a failed read is not kept. */
export async function cachedWorkspaceTools(workspaceId: string): Promise<WorkspaceTool[]> {
  try {
    return await getQueryClient().fetchQuery({ queryKey: queryKeys.tools(workspaceId), queryFn: () => api.workspaceTools(workspaceId), staleTime: Infinity });
  } catch {
    return [];
  }
}

/** Forget the cached catalog, e.g. after servers or their tools changed. */
export function forgetWorkspaceTools(workspaceId: string): void {
  void getQueryClient().invalidateQueries({ queryKey: queryKeys.tools(workspaceId) });
}

/** How long one listing of a parent's sub-chats serves a whole batch of calls registering at once. */
const SUB_CHATS_FRESH_MS = 2_000;

/** The parent's sub-chats, one request for a batch of calls asking at once. */
export function listSubChats(workspaceId: string, parentChatId: string, { fresh = false } = {}): Promise<Chat[]> {
  return getQueryClient().fetchQuery({
    queryKey: queryKeys.subChats(workspaceId, parentChatId),
    queryFn: () => api.chats.subChats(workspaceId, parentChatId),
    staleTime: fresh ? 0 : SUB_CHATS_FRESH_MS,
  });
}

/** Reads the parent's sub-chats afresh next time (a retry just added an attempt). */
export function forgetSubChats(workspaceId: string, parentChatId: string): void {
  void getQueryClient().invalidateQueries({ queryKey: queryKeys.subChats(workspaceId, parentChatId) });
}
