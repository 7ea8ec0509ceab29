import { titleFromText, type BatonFile, type BatonUIPart, type ContextMode, type TokenUsage, type BatonUIMessage } from '@baton/schemas';
import type { Database } from '../db/client';
import type { AgentRow } from '../services/agents';
import { createChatWithFirstMessage } from '../services/chats-by-id';
import type { ChatRow } from '../services/chat-rows';
import { giveFilesToChat } from '../services/files';
import { sanitizeText } from '../services/text-hygiene';
import type { DelegationMode } from './delegation';
import { admitRunInNewChat } from './runs/run-lifecycle';
import type { TurnInput } from './runtime-types';
import { traceparentOf } from '../ops/tracing';

export interface SubChatBirth {
  workspaceId: string;
  parentChat: ChatRow;
  /** The parent's `newTask` call this sub-chat runs. */
  toolCallId: string;
  /** The agent the sub-chat runs (for general-purpose: the delegating agent itself). */
  subAgent: AgentRow;
  depth: number;
  effectiveToolIds: string[];
  /** What it is given of the parent's conversation besides the task. */
  context: { mode: ContextMode; text: string | null; usage: TokenUsage };
  /** The task as the parent's stored call states it: what the sub-agent receives, whoever asks. */
  task: string;
  /** The files of the parent's conversation the call gives it (`attachments`, checked by `taskAttachments`). */
  attachments: readonly BatonFile[];
  chatId: string;
  firstMessageId: string;
  mode: DelegationMode;
  /** The process that runs it (RunRegistry.owner). */
  owner: string;
  /** 1 for a call's first sub-chat; a retry of the delegation starts the next attempt. */
  attempt?: number;
  /**
   * The `newTask` call's span when it is not the active one (the browser ran the call, or
   * this is a retry of it): its sub-chat's runs are its children (ops/tracing.ts).
   */
  traceParent?: string | null;
}

/**
 * The only way a sub-chat comes to be, in both flows: the chat, its first message (the
 * call's task, with the files it gives), the files given to it, and its running run, in one transaction the caller provides. One sub-chat
 * per attempt of a call, enforced by a unique index, so two starts of one call (a second
 * tab, a network retry) give exactly one sub-chat; a retry of the delegation is the next attempt.
 */
export async function createSubChat(tx: Database, birth: SubChatBirth): Promise<{ task: BatonUIMessage; input: TurnInput }> {
  // The model wrote the task: it may hold what Postgres cannot store (see sanitizeText).
  const taskText = sanitizeText(birth.task);
  // The files come with the task as `file` parts, read like any user message's (file-contents.ts).
  const files: BatonUIPart[] = birth.attachments.map((f) => ({ type: 'file', mediaType: f.mediaType, filename: f.name, url: f.url }));
  const task: BatonUIMessage = { id: birth.firstMessageId, role: 'user', parts: [{ type: 'text', text: taskText }, ...files] };
  const chat = await createChatWithFirstMessage(
    tx,
    {
      id: birth.chatId,
      workspaceId: birth.workspaceId,
      // A sub-chat belongs to whoever owns the chat that delegated.
      userId: birth.parentChat.userId,
      agentId: birth.subAgent.id,
      title: titleFromText(taskText, birth.subAgent.name),
      parentChatId: birth.parentChat.id,
      parentToolCallId: birth.toolCallId,
      attempt: birth.attempt ?? 1,
      delegateTask: taskText,
      depth: birth.depth,
      effectiveToolIds: birth.effectiveToolIds,
      contextMode: birth.context.mode,
      delegateContext: birth.context.text === null ? null : sanitizeText(birth.context.text),
      // The summary's model call is the sub-chat's own work.
      inputTokens: birth.context.usage.inputTokens,
      outputTokens: birth.context.usage.outputTokens,
      // Server flow: the active span is the AI SDK's span of the `newTask` call being executed.
      traceParent: birth.traceParent ?? traceparentOf(),
    },
    task,
  );
  await giveFilesToChat(
    tx,
    chat.id,
    birth.attachments.map((f) => f.id),
  );
  const input = await admitRunInNewChat(tx, birth.owner, chat, { agent: birth.subAgent, history: [task], mode: birth.mode });
  return { task, input };
}
