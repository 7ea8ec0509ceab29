'use client';

import type { Chat } from '@ai-sdk/react';
import type { UIMessage } from 'ai';

/**
 * CONTRACT (owned by the delegation work): called by the parent chat view. Watches the
 * parent's messages for `newTask` calls in `input-available`, registers them in the
 * delegation store, opens the modal, runs the sub-chats and supplies their outputs with
 * `chat.addToolOutput`. Also resumes pending calls after a reload.
 */
export function useDelegations(_opts: { workspaceId: string; chat: Chat<UIMessage> }): void {}
