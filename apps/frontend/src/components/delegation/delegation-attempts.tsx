'use client';

import { History, RotateCcw } from 'lucide-react';
import { useState } from 'react';
import { openSubChat } from '@/stores/delegation-viewer-store';
import { useChatActions } from '../chat/chat-actions';
import { useAnswerPlace } from './last-answer-context';
import { RetryDialog } from './retry-dialog';
import { useSubChatAttempts } from './use-block-sources';
import { useSharedChat } from '../shared/shared-chat-context';

const linkButton =
  'inline-flex min-h-11 sm:min-h-8 cursor-pointer items-center gap-1 text-xs font-medium text-indigo-600 hover:underline dark:text-indigo-400 ' +
  'focus-visible:outline-2 focus-visible:outline-indigo-500';

/**
 * Under a finished delegation: its attempts ("Attempt 2 of 2", the earlier ones one click
 * away) and, on the last answer of the live chat while nothing runs, Retry.
 */
export function DelegationAttempts(props: {
  workspaceId: string;
  parentChatId: string;
  toolCallId: string;
  subChatId: string | null;
  subAgentId?: string;
  task: string;
  name: string;
}) {
  const { workspaceId, parentChatId, toolCallId, subChatId, name } = props;
  const attempts = useSubChatAttempts(workspaceId, parentChatId, toolCallId);
  const actions = useChatActions(parentChatId);
  const place = useAnswerPlace();
  const [open, setOpen] = useState(false);
  // A shared chat's earlier attempts are listed, not opened: the viewer reads them from the API.
  const readOnly = Boolean(useSharedChat());
  const canRetry = Boolean(actions && place.isLast);
  const current = attempts.find((a) => a.id === subChatId);
  if (!canRetry && attempts.length < 2) return null;

  return (
    <div className="flex flex-wrap items-center gap-x-4 gap-y-1 border-t border-neutral-200 px-3 py-2 dark:border-neutral-800">
      {attempts.length > 1 && (
        <nav
          aria-label={`Attempts of the delegation to ${name}`}
          className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-neutral-600 dark:text-neutral-400"
        >
          <History className="h-3.5 w-3.5" aria-hidden />
          {current && (
            <span className="font-medium text-neutral-800 dark:text-neutral-200">
              Attempt {current.attempt} of {attempts.length}
            </span>
          )}
          {!readOnly &&
            attempts
              .filter((a) => a.id !== subChatId)
              .map((a) => (
                <button key={a.id} type="button" className={linkButton} onClick={() => openSubChat(workspaceId, a.id)}>
                  Attempt {a.attempt}
                </button>
              ))}
        </nav>
      )}
      {canRetry && (
        <>
          <button
            type="button"
            onClick={() => setOpen(true)}
            disabled={actions?.isBusy}
            aria-label={`Retry the delegation to ${name}`}
            className={`${linkButton} ml-auto disabled:cursor-not-allowed disabled:opacity-50`}
          >
            <RotateCcw className="h-3.5 w-3.5" aria-hidden />
            Retry
          </button>
          <RetryDialog
            open={open}
            onOpenChange={setOpen}
            workspaceId={workspaceId}
            parentChatId={parentChatId}
            toolCallId={toolCallId}
            parentAgentId={place.agentId}
            subAgentId={props.subAgentId}
            task={props.task}
          />
        </>
      )}
    </div>
  );
}
