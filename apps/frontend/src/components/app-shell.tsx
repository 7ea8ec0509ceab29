'use client';

import * as RadixDialog from '@radix-ui/react-dialog';
import { Menu, X } from 'lucide-react';
import { usePathname } from 'next/navigation';
import { useEffect, useState, type ReactNode } from 'react';
import { refreshChatList } from '@/lib/chat-list';
import { useMembership } from '@/lib/session';
import { useDelegationViewer } from '@/stores/delegation-viewer-store';
import { DelegationViewer } from './delegation/delegation-viewer';
import { KeyboardShortcuts } from './keyboard-shortcuts';
import { SkipToMessageBox } from './chat/skip-to-message-box';
import { Sidebar } from './sidebar/sidebar';
import { WorkspaceGate } from './workspaces/workspace-gate';

/** A workspace's pages, for its members only (see WorkspaceGate). */
export function AppShell({ workspaceId, children }: { workspaceId: string; children: ReactNode }) {
  return (
    <WorkspaceGate workspaceId={workspaceId}>
      <ShellFrame workspaceId={workspaceId}>{children}</ShellFrame>
    </WorkspaceGate>
  );
}

/**
 * The page frame: a fixed sidebar from 768 px up; below that a top bar whose menu button
 * opens the same sidebar as a drawer.
 */
function ShellFrame({ workspaceId, children }: { workspaceId: string; children: ReactNode }) {
  const workspaceName = useMembership(workspaceId)?.workspaceName ?? 'Baton';
  const pathname = usePathname();
  const [drawerOpen, setDrawerOpen] = useState(false);

  useEffect(() => {
    refreshChatList(workspaceId);
  }, [workspaceId]);

  // Following a link in the drawer closes it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the route change is the trigger, not an input.
  useEffect(() => setDrawerOpen(false), [pathname]);
  // The delegation viewer belongs to the page it was opened on.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the route change is the trigger, not an input.
  useEffect(() => useDelegationViewer.getState().close(), [pathname]);

  // Growing past the drawer breakpoint closes it (the fixed sidebar takes over).
  useEffect(() => {
    const wide = window.matchMedia('(min-width: 768px)');
    const onChange = () => wide.matches && setDrawerOpen(false);
    wide.addEventListener('change', onChange);
    return () => wide.removeEventListener('change', onChange);
  }, []);

  return (
    <div className="flex h-dvh overflow-hidden bg-white text-neutral-900 dark:bg-neutral-950 dark:text-neutral-100">
      <SkipToMessageBox />
      <KeyboardShortcuts workspaceId={workspaceId} />
      <aside className="hidden w-72 shrink-0 border-r border-neutral-200 bg-neutral-50 md:block dark:border-neutral-800 dark:bg-neutral-900/60">
        <Sidebar workspaceId={workspaceId} />
      </aside>

      <div className="flex min-w-0 flex-1 flex-col">
        <RadixDialog.Root open={drawerOpen} onOpenChange={setDrawerOpen}>
          <header className="flex h-12 shrink-0 items-center gap-2 border-b border-neutral-200 px-2 md:hidden dark:border-neutral-800">
            <RadixDialog.Trigger
              aria-label="Open sidebar"
              className="grid h-11 w-11 place-items-center rounded-lg text-neutral-700 hover:bg-neutral-100 dark:text-neutral-300 dark:hover:bg-neutral-800"
            >
              <Menu className="h-5 w-5" aria-hidden />
            </RadixDialog.Trigger>
            <span className="min-w-0 truncate font-semibold tracking-tight">{workspaceName}</span>
          </header>
          <RadixDialog.Portal>
            <RadixDialog.Overlay className="fixed inset-0 z-40 bg-black/40 md:hidden" />
            <RadixDialog.Content className="fixed inset-y-0 left-0 z-50 w-[85vw] max-w-80 border-r border-neutral-200 bg-neutral-50 shadow-xl md:hidden dark:border-neutral-800 dark:bg-neutral-900">
              <RadixDialog.Title className="sr-only">Navigation</RadixDialog.Title>
              <RadixDialog.Description className="sr-only">
                Switch workspace, start a new chat, open a recent chat, manage agents, providers, tool servers, members and API keys, or sign out.
              </RadixDialog.Description>
              <RadixDialog.Close
                aria-label="Close sidebar"
                className="absolute right-1 top-1 z-10 grid h-11 w-11 place-items-center rounded-lg text-neutral-500 hover:bg-neutral-200 dark:hover:bg-neutral-800"
              >
                <X className="h-4 w-4" aria-hidden />
              </RadixDialog.Close>
              <Sidebar workspaceId={workspaceId} />
            </RadixDialog.Content>
          </RadixDialog.Portal>
        </RadixDialog.Root>

        <main className="min-h-0 flex-1 overflow-y-auto">{children}</main>
      </div>
      <DelegationViewer />
    </div>
  );
}
