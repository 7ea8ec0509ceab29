'use client';

import type { BatonUIMessage } from '@baton/schemas';
import { Check, Copy, RefreshCw } from 'lucide-react';
import { toast } from 'sonner';
import { useCopyToClipboard } from '@/lib/use-copy-to-clipboard';
import { AnswerFeedback } from './answer-feedback';
import { useChatActions } from './chat-actions';
import { iconButton } from './icon-button';
import { formatDuration, formatTokens, formatUsageSplit, type AnswerMetadata } from './message-metadata';
import { readableText } from './message-parts';
import { MessageTime } from './message-time';
import { VersionPager } from './version-pager';

/**
 * Under a finished answer: its versions (`‹ 2/3 ›`, when regenerated), copy, rate (in the chat
 * itself), regenerate (newest answer only; the answer it replaces stays as a version), the agent
 * and model that wrote it, and the tokens it used.
 */
export function MessageFooter({
  message,
  meta,
  workspaceId,
  chatId,
  canRegenerate,
}: {
  message: BatonUIMessage;
  meta: AnswerMetadata;
  workspaceId: string;
  chatId: string;
  canRegenerate: boolean;
}) {
  const actions = useChatActions(chatId);
  const text = readableText(message);
  const usage = formatUsageSplit(meta.usage);
  const duration = formatDuration(meta.durationMs);
  // After the author: the model when no author is recorded (older answers), and the tokens.
  const rest = [meta.agentName ? null : meta.modelId, usage?.short].filter(Boolean).join(' · ');
  // Part of the output tokens: what the model spent thinking (the provider's reasoning_tokens).
  const reasoning = meta.reasoningTokens ? `${formatTokens(meta.reasoningTokens)} of thinking` : null;
  return (
    <div className="flex flex-wrap items-center gap-x-1 gap-y-1 text-xs text-neutral-500">
      <VersionPager workspaceId={workspaceId} chatId={chatId} messageId={message.id} />
      <MessageTime messageId={message.id} />
      {text && <CopyButton text={text} label="Copy answer" />}
      {/* Rated where the chat is the live one (not a sub-chat shown inside a delegation block). */}
      {actions && <AnswerFeedback workspaceId={workspaceId} chatId={chatId} messageId={message.id} />}
      {canRegenerate && actions && (
        <button
          type="button"
          aria-label="Regenerate answer"
          title="Regenerate answer"
          className={iconButton}
          onClick={actions.regenerate}
          disabled={actions.isBusy}
        >
          <RefreshCw className="h-3.5 w-3.5" aria-hidden />
        </button>
      )}
      {/* Who wrote it — the agent as it was named then, and the model (answers stored before the name was recorded show the model only) — and its tokens. */}
      {(meta.agentName || meta.modelId || usage) && (
        // Wraps rather than cuts: on a phone "Agent · model · 445 own + 164 delegated = 609 tokens" is wider than the screen.
        <span
          className="ml-1 min-w-0 [overflow-wrap:anywhere]"
          data-testid="answer-usage"
          title={[usage?.detail, reasoning, duration].filter(Boolean).join(' · ') || undefined}
        >
          {meta.agentName && (
            <span className="text-neutral-600 dark:text-neutral-400" data-testid="answer-author">
              {[meta.agentName, meta.modelId].filter(Boolean).join(' · ')}
            </span>
          )}
          {meta.agentName && rest ? ' · ' : ''}
          {rest}
        </span>
      )}
    </div>
  );
}

export function CopyButton({ text, label }: { text: string; label: string }) {
  const { copied, copy: copyText } = useCopyToClipboard();

  async function copy() {
    // Clipboard access needs a secure context and permission; say so instead of failing silently.
    if (!(await copyText(text))) toast.error('Could not copy: the browser denied clipboard access.');
  }

  return (
    <button type="button" aria-label={copied ? 'Copied' : label} title={label} className={iconButton} onClick={() => void copy()}>
      {copied ? <Check className="h-3.5 w-3.5 text-emerald-600" aria-hidden /> : <Copy className="h-3.5 w-3.5" aria-hidden />}
    </button>
  );
}
