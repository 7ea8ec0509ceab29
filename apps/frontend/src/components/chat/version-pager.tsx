'use client';

import type { ChatWithMessages, MessageVersions } from '@baton/schemas';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { useChatQuery } from '@/lib/use-api-query';
import { useChatActions } from './chat-actions';
import { iconButton } from './icon-button';

// The versions of each message by id, per copy of the stored chat (the query cache's).
const byChat = new WeakMap<ChatWithMessages, Map<string, MessageVersions>>();

function versionsOf(chat: ChatWithMessages, messageId: string): MessageVersions | undefined {
  let map = byChat.get(chat);
  if (!map) {
    map = new Map(chat.messages.flatMap((m) => (m.versions ? [[m.id, m.versions] as const] : [])));
    byChat.set(chat, map);
  }
  return map.get(messageId);
}

// Switching renders the chosen version as another message: its pager takes the focus the person's key press left.
let focusAfterSwitch: { messageId: string; button: 'previous' | 'next' } | null = null;

/**
 * `‹ 2/3 ›` under a message that has other versions (an edited question, a regenerated
 * answer): the stored chat says where it stands; the arrows switch the active branch on the
 * server, and the conversation below follows. Only in the live chat, and not while it answers.
 */
export function VersionPager({ workspaceId, chatId, messageId }: { workspaceId: string; chatId: string; messageId: string }) {
  const actions = useChatActions(chatId);
  const stored = useChatQuery(workspaceId, chatId, { enabled: false }).data;
  const versions = stored ? versionsOf(stored, messageId) : undefined;
  const previous = useRef<HTMLButtonElement>(null);
  const next = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!versions || focusAfterSwitch?.messageId !== messageId) return;
    const target = focusAfterSwitch.button === 'previous' ? previous.current : next.current;
    focusAfterSwitch = null;
    // At either end its own button is disabled: the other one takes the focus.
    (target && !target.disabled ? target : previous.current?.disabled ? next.current : previous.current)?.focus();
  }, [versions, messageId]);

  if (!versions || !actions) return null;
  const { index, count, ids } = versions;
  const go = (to: number, button: 'previous' | 'next') => {
    const id = ids[to - 1];
    if (!id) return;
    focusAfterSwitch = { messageId: id, button };
    actions.switchVersion(id);
  };
  return (
    <div role="group" aria-label="Versions of this message" className="flex items-center text-xs text-neutral-500" data-testid="version-pager">
      <button
        ref={previous}
        type="button"
        aria-label="Previous version"
        title="Previous version"
        className={iconButton}
        disabled={index <= 1 || actions.isBusy}
        onClick={() => go(index - 1, 'previous')}
      >
        <ChevronLeft className="h-3.5 w-3.5" aria-hidden />
      </button>
      <span className="min-w-8 text-center tabular-nums" aria-live="polite">
        <span aria-hidden>
          {index}/{count}
        </span>
        <span className="sr-only">
          Version {index} of {count}
        </span>
      </span>
      <button
        ref={next}
        type="button"
        aria-label="Next version"
        title="Next version"
        className={iconButton}
        disabled={index >= count || actions.isBusy}
        onClick={() => go(index + 1, 'next')}
      >
        <ChevronRight className="h-3.5 w-3.5" aria-hidden />
      </button>
    </div>
  );
}
