'use client';

import { useChat, type Chat as ChatSession } from '@ai-sdk/react';
import type { BatonUIMessage, UsageSplit } from '@baton/schemas';
import { Coins } from 'lucide-react';
import { useChatQuery } from '@/lib/use-api-query';
import { answerMetadata, formatUsageSplit } from './message-metadata';

/**
 * The chat's tokens in its header: its own, what its delegations used (the whole tree),
 * and both, as `GET …/chats/:id` reports them — the query cache's copy, which the end of
 * every run refreshes (lib/run-ended.ts), so the header asks for nothing itself.
 */
export function ChatUsage({
  workspaceId,
  chatId,
  session,
  initial,
}: {
  workspaceId: string;
  chatId: string;
  session: ChatSession<BatonUIMessage>;
  initial?: UsageSplit;
}) {
  const { messages } = useChat({ chat: session });
  const cached = useChatQuery(workspaceId, chatId, { enabled: false }).data;
  const usage = cached?.usage ?? initial;
  // The chat's row keeps numbers only: whether its own tokens are (partly) an estimate is read from its answers.
  const estimated = messages.some((m) => m.role === 'assistant' && answerMetadata(m.metadata).usage?.own.estimated);
  const text = formatUsageSplit(usage && estimated ? { ...usage, own: { ...usage.own, estimated: true } } : usage);
  if (!text) return null;
  return (
    <span
      className="inline-flex items-center gap-1 whitespace-nowrap text-xs text-neutral-500 tabular-nums"
      title={`${text.detail}. Spent tokens stay counted: answers replaced by an edit or Regenerate too.`}
      data-testid="chat-usage"
    >
      <Coins className="h-3.5 w-3.5" aria-hidden />
      {text.short}
    </span>
  );
}
