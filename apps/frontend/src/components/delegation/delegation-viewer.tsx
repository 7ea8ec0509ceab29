'use client';

import * as Dialog from '@radix-ui/react-dialog';
import { ArrowLeft, ChevronRight, X } from 'lucide-react';
import Link from 'next/link';
import { useRef } from 'react';
import { focusedElement, restoreFocus } from '@/lib/return-focus';
import { useChatQuery } from '@/lib/use-api-query';
import { openSubChat, useDelegationViewer, type ViewerPage } from '@/stores/delegation-viewer-store';
import { useChatLineage } from './chat-lineage';
import { SubChatDetail } from './sub-chat-detail';
import { TraceView } from './trace-view';

/**
 * One dialog for looking into delegations at any depth: a sub-chat (read-only, followed
 * live while it runs) or a chat's delegation trace. A breadcrumb ("Assistant › Researcher
 * › Writer") places the sub-chat in its tree; each step above opens that sub-chat.
 */
export function DelegationViewer() {
  const workspaceId = useDelegationViewer((s) => s.workspaceId);
  const pages = useDelegationViewer((s) => s.pages);
  const back = useDelegationViewer((s) => s.back);
  const close = useDelegationViewer((s) => s.close);
  const page = pages.at(-1);
  const open = Boolean(page && workspaceId);
  // Opened from a button (a block's Tree, the chat header), not a Dialog.Trigger: focus goes back there on close.
  const opener = useRef<HTMLElement | null>(null);

  return (
    <Dialog.Root open={open} onOpenChange={(next) => !next && close()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-[60] bg-black/40 backdrop-blur-[1px]" />
        <Dialog.Content
          aria-describedby={undefined}
          onOpenAutoFocus={() => {
            opener.current = focusedElement();
          }}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            restoreFocus(opener.current, document.getElementById('message-input'));
          }}
          className={
            'fixed inset-x-0 bottom-0 z-[70] flex h-[94dvh] flex-col overflow-hidden rounded-t-2xl border border-neutral-200 bg-white shadow-xl ' +
            'sm:inset-auto sm:left-1/2 sm:top-1/2 sm:h-[min(85dvh,760px)] sm:w-[min(760px,calc(100vw-3rem))] sm:-translate-x-1/2 sm:-translate-y-1/2 sm:rounded-xl ' +
            'dark:border-neutral-800 dark:bg-neutral-950'
          }
        >
          {page && workspaceId && (
            <>
              <div className="flex shrink-0 items-start gap-2 border-b border-neutral-200 px-4 py-3 dark:border-neutral-800">
                {pages.length > 1 && (
                  <button
                    type="button"
                    onClick={back}
                    aria-label="Back"
                    className="grid h-8 w-8 shrink-0 cursor-pointer place-items-center rounded-md text-neutral-500 hover:bg-neutral-100 hover:text-neutral-900 dark:hover:bg-neutral-800 dark:hover:text-neutral-100"
                  >
                    <ArrowLeft className="h-4 w-4" aria-hidden />
                  </button>
                )}
                <div className="min-w-0 flex-1">
                  <Dialog.Title className="text-base font-semibold text-neutral-900 dark:text-neutral-50">
                    {page.kind === 'trace' ? 'Delegation tree' : 'Sub-chat'}
                  </Dialog.Title>
                  <Breadcrumb workspaceId={workspaceId} page={page} onLeave={close} />
                </div>
                <Dialog.Close
                  aria-label="Close"
                  className="grid h-8 w-8 shrink-0 cursor-pointer place-items-center rounded-md text-neutral-500 hover:bg-neutral-100 hover:text-neutral-900 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:hover:bg-neutral-800 dark:hover:text-neutral-100"
                >
                  <X className="h-4 w-4" aria-hidden />
                </Dialog.Close>
              </div>
              <div className="min-h-0 flex-1 overflow-y-auto px-4 py-4" key={`${page.kind}:${page.chatId}`}>
                {page.kind === 'trace' ? (
                  <TraceView workspaceId={workspaceId} chatId={page.chatId} onOpenChat={(chatId) => openSubChat(workspaceId, chatId)} />
                ) : (
                  <SubChatDetail workspaceId={workspaceId} chatId={page.chatId} />
                )}
              </div>
            </>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** "Assistant › Researcher › Writer": the top-level chat is a link to its page, sub-chats open here. */
function Breadcrumb({ workspaceId, page, onLeave }: { workspaceId: string; page: ViewerPage; onLeave: () => void }) {
  const chat = useChatQuery(workspaceId, page.chatId).data ?? undefined;
  const steps = useChatLineage(workspaceId, chat);
  if (!steps) return <p className="mt-0.5 h-5 text-sm text-neutral-400">…</p>;
  return (
    <nav aria-label="Delegation path" className="mt-0.5">
      <ol className="flex flex-wrap items-center gap-x-1 text-sm text-neutral-600 dark:text-neutral-400">
        {steps.map((step, i) => {
          const last = i === steps.length - 1;
          return (
            <li key={step.chatId} className="flex items-center gap-1">
              {i > 0 && <ChevronRight className="h-3.5 w-3.5 text-neutral-400" aria-hidden />}
              {last && page.kind === 'sub-chat' ? (
                <span aria-current="page" className="font-medium text-neutral-900 dark:text-neutral-100">
                  {step.agentName}
                </span>
              ) : step.topLevel ? (
                <Link
                  href={`/w/${encodeURIComponent(workspaceId)}/chat/${encodeURIComponent(step.chatId)}`}
                  onClick={onLeave}
                  className="hover:text-neutral-900 hover:underline dark:hover:text-neutral-100"
                >
                  {step.agentName}
                </Link>
              ) : (
                <button
                  type="button"
                  onClick={() => openSubChat(workspaceId, step.chatId)}
                  className="cursor-pointer hover:text-neutral-900 hover:underline dark:hover:text-neutral-100"
                >
                  {step.agentName}
                </button>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
