import type { SteeringMessage } from '@baton/schemas';
import { chatPath, request } from './api-client';

/* Talking to a running sub-agent: queue a message for its next step, and read what was sent. */

/** Queues `text` for the sub-agent of a running sub-chat (202); 409 when it is not running any more. */
export function sendSteeringMessage(workspaceId: string, subChatId: string, text: string): Promise<SteeringMessage> {
  return request<SteeringMessage>('POST', `${chatPath(workspaceId, subChatId)}/messages`, { text });
}

/** Everything sent to a sub-agent, oldest first, with whether it reached it. */
export async function listSteeringMessages(workspaceId: string, subChatId: string): Promise<SteeringMessage[]> {
  return (await request<{ data: SteeringMessage[] }>('GET', `${chatPath(workspaceId, subChatId)}/steering`)).data;
}
