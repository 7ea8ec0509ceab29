import type { chat, message } from '../db/schema';
import type { ChatStarter } from './chat-origin';

/**
 * The chat's stored shapes and the scope its queries run in: the lowest module of the chat
 * services, types only, so every chat module (and the runtime) can name them without
 * importing the queries or the read model.
 */
export type ChatRow = typeof chat.$inferSelect;
export type NewChatRow = typeof chat.$inferInsert;
export type MessageRow = typeof message.$inferSelect;

/**
 * Whose chats a request may touch: chats are private to their author within a workspace,
 * so every chat query a person's request reaches is scoped by both (another member's chat
 * is "not found").
 */
export interface ChatOwner extends ChatStarter {
  workspaceId: string;
  userId: string;
}
