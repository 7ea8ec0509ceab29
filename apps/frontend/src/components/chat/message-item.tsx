'use client';

import { CircleStop } from 'lucide-react';
import { memo } from 'react';
import { Alert } from '../ui/alert';
import { Button } from '../ui/button';
import { useChatActions } from './chat-actions';
import { ContextTrimmedNotice } from './context-trimmed-notice';
import { MessageFooter } from './message-footer';
import { answerMetadata } from './message-metadata';
import { MessagePart } from './message-part';
import { readMessageMetadata, type BatonUIMessage, type RunErrorData } from '@baton/schemas';
import { AnswerPlaceContext } from '../delegation/last-answer-context';
import { groupNoteSteps, partViews, runErrorOf } from './message-parts';
import { NoteGroup } from './note-group';
import { UserMessage } from './user-message';

interface MessageItemProps {
  message: BatonUIMessage;
  workspaceId: string;
  chatId: string;
  /** The newest message: the one Regenerate and Retry act on. */
  isLast: boolean;
  /** The person's newest message: the one Edit acts on. */
  isLastUser: boolean;
  /** This answer is still arriving: no footer yet. */
  isStreaming: boolean;
}

/**
 * One message. Memoised: while an answer streams only the growing message changes (the
 * AI SDK keeps the other message objects as they were).
 */
export const MessageItem = memo(function MessageItem({ message, workspaceId, chatId, isLast, isLastUser, isStreaming }: MessageItemProps) {
  const views = partViews(message);
  if (message.role === 'user') return <UserMessage message={message} chatId={chatId} canEdit={isLastUser} />;

  const meta = answerMetadata(message.metadata);
  const runError = runErrorOf(message);
  // An answer that has nothing to show yet is the typing indicator's moment.
  if (views.length === 0 && !runError && !meta.stopped) return null;
  return (
    <li aria-label="Agent" className="flex flex-col items-start gap-2">
      {meta.contextTrimmed && <ContextTrimmedNotice trimmed={meta.contextTrimmed} />}
      <div className="flex w-full min-w-0 flex-col gap-3 text-sm leading-relaxed">
        <AnswerPlaceContext.Provider value={{ isLast, agentId: readMessageMetadata(message.metadata).agentId }}>
          {groupNoteSteps(views).map((item, i) =>
            item.kind === 'note-group' ? (
              // biome-ignore lint/suspicious/noArrayIndexKey: parts have no ids; a message's parts only ever grow at the end.
              <NoteGroup key={i} group={item} workspaceId={workspaceId} chatId={chatId} />
            ) : (
              // biome-ignore lint/suspicious/noArrayIndexKey: as above.
              <MessagePart key={i} view={item} workspaceId={workspaceId} chatId={chatId} streaming={isStreaming} />
            ),
          )}
        </AnswerPlaceContext.Provider>
      </div>
      {meta.stopped && (
        <p className="flex items-center gap-1.5 text-xs text-neutral-500">
          <CircleStop className="h-3.5 w-3.5" aria-hidden />
          Stopped by you
        </p>
      )}
      {runError && <AnswerError error={runError} chatId={chatId} canRetry={isLast} />}
      {!isStreaming && <MessageFooter message={message} meta={meta} workspaceId={workspaceId} chatId={chatId} canRegenerate={isLast} />}
    </li>
  );
});

/** A failure recorded on the answer itself: shown where it happened, with Retry on the newest one. */
function AnswerError({ error, chatId, canRetry }: { error: RunErrorData; chatId: string; canRetry: boolean }) {
  const actions = useChatActions(chatId);
  const retry = canRetry && actions;
  return (
    <div className="w-full">
      <Alert
        action={
          retry ? (
            <Button variant="secondary" size="sm" onClick={actions.regenerate} disabled={actions.isBusy}>
              Retry
            </Button>
          ) : undefined
        }
      >
        {/* An interrupted or cut answer is no failure of the model: the message says what happened. */}
        {error.code === 'interrupted' || error.code === 'too_long' ? error.message : `The answer failed: ${error.message}`}
      </Alert>
    </div>
  );
}
