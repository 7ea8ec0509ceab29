'use client';

import { usePathname, useRouter } from 'next/navigation';
import { useEffect, useState } from 'react';
import { listedChatsInOrder } from '@/lib/chat-list';
import { useChatListSource } from '@/lib/chat-list-view';
import { modKey } from '@/lib/platform-keys';
import { Dialog } from './ui/dialog';

/*
 * The workspace's keyboard shortcuts, in one place (the shell mounts this once, whereas the
 * sidebar is rendered twice). Ctrl/⌘+K (search) lives with the search box it focuses.
 *   Ctrl/⌘+Shift+O  new chat
 *   Alt+↑ / Alt+↓   previous / next chat of the sidebar's list
 *   Ctrl/⌘+/        this list
 */

type Shortcut = 'new-chat' | 'previous-chat' | 'next-chat' | 'help';

function shortcutOf(e: KeyboardEvent): Shortcut | null {
  const mod = e.ctrlKey || e.metaKey;
  if (mod && e.shiftKey && !e.altKey && e.key.toLowerCase() === 'o') return 'new-chat';
  if (e.altKey && !mod && !e.shiftKey && e.key === 'ArrowUp') return 'previous-chat';
  if (e.altKey && !mod && !e.shiftKey && e.key === 'ArrowDown') return 'next-chat';
  if (mod && !e.altKey && e.key === '/') return 'help';
  return null;
}

export function KeyboardShortcuts({ workspaceId }: { workspaceId: string }) {
  const router = useRouter();
  const pathname = usePathname();
  const source = useChatListSource();
  const [helpOpen, setHelpOpen] = useState(false);

  useEffect(() => {
    const base = `/w/${encodeURIComponent(workspaceId)}`;
    const onKey = (e: KeyboardEvent) => {
      const shortcut = shortcutOf(e);
      if (!shortcut || e.defaultPrevented || e.isComposing) return;
      e.preventDefault();
      if (shortcut === 'help') setHelpOpen((open) => !open);
      else if (shortcut === 'new-chat') router.push(base);
      else {
        const chats = listedChatsInOrder(workspaceId, source);
        if (chats.length === 0) return;
        const at = chats.findIndex((c) => pathname === `${base}/chat/${encodeURIComponent(c.id)}`);
        // From a page that is not a listed chat, down starts at the top and up at the bottom.
        const next =
          at < 0 ? (shortcut === 'next-chat' ? 0 : chats.length - 1) : Math.min(chats.length - 1, Math.max(0, at + (shortcut === 'next-chat' ? 1 : -1)));
        const chat = chats[next];
        if (chat && next !== at) router.push(`${base}/chat/${encodeURIComponent(chat.id)}`);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [workspaceId, pathname, source, router]);

  const mod = modKey();
  const rows: [string, string][] = [
    [`${mod} Shift O`, 'New chat'],
    [`${mod} K`, 'Search chats'],
    ['Alt ↑', 'Previous chat'],
    ['Alt ↓', 'Next chat'],
    ['F2', 'Rename the focused chat of the list'],
    ['Enter / Shift Enter', 'Send / new line'],
    ['Esc', 'Stop selecting chats, cancel a rename'],
    [`${mod} /`, 'These shortcuts'],
  ];
  return (
    <Dialog open={helpOpen} onOpenChange={setHelpOpen} title="Keyboard shortcuts" description="They work anywhere in the workspace.">
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
        {rows.map(([keys, what]) => (
          <div key={keys} className="contents">
            <dt>
              <kbd className="rounded border border-neutral-300 bg-neutral-50 px-1.5 py-0.5 font-mono text-xs dark:border-neutral-700 dark:bg-neutral-800">
                {keys}
              </kbd>
            </dt>
            <dd className="text-neutral-700 dark:text-neutral-300">{what}</dd>
          </div>
        ))}
      </dl>
    </Dialog>
  );
}
