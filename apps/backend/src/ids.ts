import { randomBytes } from 'node:crypto';
import { createIdGenerator } from 'ai';

/** Prefixed random ids (`agent_…`) read well in logs and URLs and never collide in practice. */
export function newId(prefix: 'ws' | 'agent' | 'prov' | 'chat' | 'msg' | 'run' | 'key' | 'inv' | 'steer' | 'mcp' | 'file' | 'share' | 'fb'): string {
  return `${prefix}_${randomBytes(12).toString('base64url')}`;
}

/** Ids of messages the backend writes (answers, sub-chats' tasks), in the AI SDK's own format. */
export const generateMessageId = createIdGenerator({ prefix: 'msg', size: 16 });
