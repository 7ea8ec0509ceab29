'use client';

import { useChat, type Chat as ChatSession } from '@ai-sdk/react';
import { readMessageMetadata, type BatonUIMessage, type UsageSplit } from '@baton/schemas';
import { Coins } from 'lucide-react';
import { useEffect, useState } from 'react';
import { findSubChat } from '@/lib/sub-chats-api';
import { answerMetadata, formatUsageSplit } from './message-metadata';

/**
 * The chat's tokens in its header: its own, what its delegations used (the whole tree),
 * and both, as `GET …/chats/:id` reports them. Read again whenever an answer ends.
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
  const { status, messages } = useChat({ chat: session });
  const [usage, setUsage] = useState(initial);
  const settled = status === 'ready' || status === 'error';
  const answers = messages.filter((m) => m.role === 'assistant').length;
  const changed = lastAnswerSignature(messages);
  // A new answer that has ended (`answers`), or the last one written again without this tab
  // streaming it (`changed`: a retried delegation's continuation, a followed run, a reload of
  // the messages), is what makes it read again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: see above
  useEffect(() => {
    if (!settled) return;
    let current = true;
    findSubChat(workspaceId, chatId)
      .then((chat) => current && chat && setUsage(chat.usage))
      .catch(() => {});
    return () => {
      current = false;
    };
  }, [workspaceId, chatId, settled, answers, changed]);
  // The chat's row keeps numbers only: whether its own tokens are (partly) an estimate is read from its answers.
  const estimated = messages.some((m) => m.role === 'assistant' && answerMetadata(m.metadata).usage?.own.estimated);
  const text = formatUsageSplit(usage && estimated ? { ...usage, own: { ...usage.own, estimated: true } } : usage);
  if (!text) return null;
  return (
    <span className="inline-flex items-center gap-1 whitespace-nowrap text-xs text-neutral-500 tabular-nums" title={text.detail} data-testid="chat-usage">
      <Coins className="h-3.5 w-3.5" aria-hidden />
      {text.short}
    </span>
  );
}

/** What changes when the last answer is written again: its id, its parts, its calls' outputs and its tokens. */
function lastAnswerSignature(messages: BatonUIMessage[]): string {
  const last = [...messages].reverse().find((m) => m.role === 'assistant');
  if (!last) return '';
  let outputs = 0;
  for (const p of last.parts) if ('state' in p && (p.state === 'output-available' || p.state === 'output-error')) outputs++;
  const total = readMessageMetadata(last.metadata).usage?.total;
  return `${last.id}:${last.parts.length}:${outputs}:${total ? total.inputTokens + total.outputTokens : 0}`;
}
