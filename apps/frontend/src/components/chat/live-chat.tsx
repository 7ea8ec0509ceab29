'use client';

import type { FileUIPart } from 'ai';
import { useChat, type Chat } from '@ai-sdk/react';
import { ArrowDown } from 'lucide-react';
import type { Agent, BatonUIMessage, ChatWithMessages } from '@baton/schemas';
import { useEffect, useMemo, useRef, useState } from 'react';
import { followChat } from '@/lib/chat-sessions';
import { delegationWaitReason } from '@/lib/counted';
import { useFollowingRun } from '@/lib/follow-server-run';
import { defaultAgentId } from '@/lib/last-agent';
import { awaitingApprovalCount, pendingNewTaskCount } from '@/lib/new-task-calls';
import { DelegationModal } from '../delegation/delegation-modal';
import { AgentPicker } from '../new-chat/agent-picker';
import { useDelegations } from '../delegation/use-delegations';
import { RetryAlert } from '../ui/alert';
import { ChatActionsContext } from './chat-actions';
import { readableChatError } from './chat-error';
import { DemoModelNotice, firstSubAgentName } from './demo-model-notice';
import { AgentSwitchNotice, lastAnswerAgentId } from './agent-switch-notice';
import { EmptyChat } from './empty-chat';
import { FileDropZone } from './file-drop-zone';
import { MessageComposer, type ComposerHandle } from './message-composer';
import { MessageList } from './message-list';
import { isUnanswered } from './message-parts';
import { useChatControls } from './use-chat-controls';
import { useAnswerAnnouncement } from './use-answer-announcement';
import { useStickToBottom } from './use-stick-to-bottom';

export interface LiveChatProps {
  workspaceId: string;
  chatId: string;
  chat: Chat<BatonUIMessage>;
  /** The chat's agent (now: it may have been switched since the last answer), when known. */
  agentId?: string;
  /** The agent's name, when known, for the empty state. */
  agentName?: string;
  /** The agent answers with the default model (it has no provider of its own). */
  usesDefaultModel: boolean;
  /** A sub-agent of the chat's agent, for the demo notice's example. */
  subAgentName?: string;
  /** The chat has no agent (never had one, or it was deleted): the user picks one of these to continue. */
  agentChoice?: Agent[];
  /** The chat as the page loaded it from the server; undefined until loaded. */
  stored?: ChatWithMessages;
  /**
   * The session was in this tab before the page loaded the chat (a chat started here, or
   * one visited before): `stored` may be older than what it has streamed itself.
   */
  sessionPredatesLoad: boolean;
}

/** A top-level chat that can be written to: transcript, errors, composer, delegation. */
export function LiveChat(props: LiveChatProps) {
  const { workspaceId, chatId, chat, agentId, agentName, usesDefaultModel, subAgentName, agentChoice } = props;
  const { messages, status: localStatus, error } = useChat({ chat });
  useDelegations({ workspaceId, chat });
  const { send, regenerate, edit, switchVersion, stop } = useChatControls({ workspaceId, chatId, chat });
  const { stored, sessionPredatesLoad } = props;
  // Between the stored snapshot and the first replayed word, and between two runs, the
  // followed answer is still coming: shown as streaming, with Stop.
  const following = useFollowingRun(chatId);
  const status = following && localStatus === 'ready' ? 'streaming' : localStatus;
  const busy = status === 'submitted' || status === 'streaming';
  // A new message now would leave the running sub-agents' results with nowhere to go.
  const waitingForSubAgents = !busy ? pendingNewTaskCount(messages) : 0;
  const waitingForApproval = !busy ? awaitingApprovalCount(messages) : 0;
  // Sub-agents at work for this answer: the composer keeps its Stop, which stops them all.
  const subAgentsAtWork = waitingForSubAgents > waitingForApproval;
  const actions = useMemo(
    () => ({ chatId, regenerate, edit, switchVersion: (id: string) => void switchVersion(id), isBusy: busy || pendingNewTaskCount(messages) > 0 }),
    [chatId, regenerate, edit, switchVersion, busy, messages],
  );

  const scroller = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  const { isAtBottom, scrollToBottom } = useStickToBottom(scroller, content);
  const composer = useRef<ComposerHandle>(null);
  const [pickedAgentId, setPickedAgentId] = useState<string | null>(null);
  const replacementAgentId = agentChoice ? (pickedAgentId ?? defaultAgentId(workspaceId, agentChoice)) : null;
  const replacement = agentChoice?.find((a) => a.id === replacementAgentId);

  // Whatever this tab did not stream itself — an answer running on the server after a
  // reload, another tab's — is brought up to date and followed (resumed) until it ends.
  useEffect(() => {
    if (stored) void followChat(chatId, sessionPredatesLoad ? undefined : stored).catch(() => {});
  }, [chatId, stored, sessionPredatesLoad]);

  const announcement = useAnswerAnnouncement(messages, busy);
  // Switched since the last answer: the transcript says so until the new agent answers.
  const lastAgentId = lastAnswerAgentId(messages);
  const switchedTo = !busy && agentId && agentName && lastAgentId && lastAgentId !== agentId ? agentName : undefined;

  function sendAndFollow(text: string, files: FileUIPart[]) {
    send(text, files, replacementAgentId ?? undefined);
    scrollToBottom();
  }

  return (
    <ChatActionsContext value={actions}>
      <FileDropZone onFiles={(files) => composer.current?.addFiles(files)} className="flex min-h-0 flex-1 flex-col">
        <div className="relative min-h-0 flex-1">
          <div ref={scroller} className="h-full overflow-y-auto px-4 py-6 md:px-8">
            <div ref={content} className="mx-auto flex max-w-3xl flex-col gap-4">
              {messages.length === 0 && !busy ? (
                <EmptyChat agentName={agentName} />
              ) : (
                <MessageList messages={messages} workspaceId={workspaceId} chatId={chatId} status={status} />
              )}
              {switchedTo && <AgentSwitchNotice agentName={switchedTo} pending />}
              {error && <RetryAlert onRetry={regenerate}>The answer failed: {readableChatError(error)}</RetryAlert>}
              {!error && isUnanswered(messages, status) && <RetryAlert onRetry={regenerate}>The agent has not answered this message yet.</RetryAlert>}
            </div>
          </div>
          {!isAtBottom && (
            <button
              type="button"
              onClick={() => scrollToBottom('smooth')}
              className="absolute bottom-3 left-1/2 flex -translate-x-1/2 cursor-pointer items-center gap-1.5 rounded-full border border-neutral-200 bg-white px-3 py-1.5 text-xs font-medium text-neutral-700 shadow-md hover:bg-neutral-50 dark:border-neutral-700 dark:bg-neutral-900 dark:text-neutral-200 dark:hover:bg-neutral-800"
            >
              <ArrowDown className="h-3.5 w-3.5" aria-hidden />
              Jump to latest
            </button>
          )}
        </div>

        <div className="shrink-0 px-4 pb-4 md:px-8">
          <div className="mx-auto flex max-w-3xl flex-col gap-2">
            {agentChoice && <AgentPicker agents={agentChoice} value={replacementAgentId} onChange={setPickedAgentId} label="Agent to continue with" />}
            <DemoModelNotice
              usesDefaultModel={replacement ? !replacement.providerId : usesDefaultModel}
              subAgentName={replacement ? firstSubAgentName(replacement, agentChoice ?? []) : subAgentName}
              onTryExample={(text) => composer.current?.fill(text)}
            />
            <MessageComposer
              ref={composer}
              workspaceId={workspaceId}
              onSend={sendAndFollow}
              busy={busy || subAgentsAtWork}
              onStop={() => void stop()}
              disabled={Boolean(agentChoice && !replacementAgentId) || waitingForSubAgents > 0}
              disabledReason={
                delegationWaitReason(waitingForApproval, waitingForSubAgents) ??
                'This chat has no agent, and the workspace has none to continue with. Create an agent first.'
              }
            />
          </div>
        </div>
      </FileDropZone>
      <div aria-live="polite" aria-atomic="true" className="sr-only" data-testid="answer-announcer">
        {announcement}
      </div>
      <DelegationModal workspaceId={workspaceId} parentChatId={chatId} />
    </ChatActionsContext>
  );
}
