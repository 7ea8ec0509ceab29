'use client';

import type { Chat, ChatWithMessages } from '@baton/schemas';
import { touchChat } from './chat-list';
import { readChat } from './queries';

function withoutMessages({ messages: _messages, ...chat }: ChatWithMessages): Chat {
  return chat;
}

/**
 * A chat's run ended (its stream said so, or Stop settled it): the stored chat is read once
 * into the query cache — the header's usage, the follow that waited for it and the
 * sub-agent's panel all show that copy — and the chat goes to the top of the sidebar with
 * what the server now knows (its title, first of all). `fresh`: the caller changed the chat
 * just now (Stop), so a read begun before does not count.
 */
export async function chatRunEnded(workspaceId: string, chatId: string, { fresh = false } = {}): Promise<ChatWithMessages | undefined> {
  const chat = await readChat(workspaceId, chatId, { fresh }).catch(() => undefined);
  if (chat) touchChat(withoutMessages(chat));
  return chat;
}
