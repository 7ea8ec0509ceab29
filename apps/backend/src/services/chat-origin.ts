import type { ChatSource } from '@baton/schemas';

/** Who is starting a chat: a session's membership, or an API key (whose access carries its name). */
export interface ChatStarter {
  keyName?: string;
}

/**
 * Where a new top-level chat comes from, stored on it: a chat an API key starts (`/v1`, or the
 * REST API with a key) is `api` and keeps the key's name as it is now, so people can tell a
 * program's chats from their own in the sidebar; a session's is `app`.
 */
export function chatOrigin(starter: ChatStarter): { source: ChatSource; apiKeyName: string | null } {
  return starter.keyName === undefined ? { source: 'app', apiKeyName: null } : { source: 'api', apiKeyName: starter.keyName };
}
