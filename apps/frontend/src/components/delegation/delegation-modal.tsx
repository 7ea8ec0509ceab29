'use client';

import * as Dialog from '@radix-ui/react-dialog';
import { ExternalLink, Maximize2, Minus, PanelRight, X } from 'lucide-react';
import Link from 'next/link';
import { useEffect, useMemo, useRef, useState } from 'react';
import { focusedElement, restoreFocus } from '@/lib/return-focus';
import { batchTabs, isFinished, useDelegationStore, type Delegation } from '@/stores/delegation-store';
import { Button } from '../ui/button';
import { cancelDelegation } from './delegation-outcome';
import { DelegationTabs, panelId, tabId } from './delegation-tabs';
import { SubChatPanel } from './sub-chat-panel';
import { TaskText } from './task-text';
import { setSidePanelPreference, useMakeRoomForPanel, useSidePanelLayout } from './use-side-panel';

/**
 * The sub-agent modal of one parent chat: the sub-chats of the current batch, one tab
 * each. Closing it only minimises it; the sub-agents keep running (they live outside
 * React) and the delegation blocks in the transcript reopen it. On wide screens the person
 * may put it beside the chat as a side panel (not modal: the chat stays usable), a choice
 * kept for later; on phones it is a modal sheet.
 * When the batch's last sub-agent finishes it steps aside at once, so the parent's answer
 * shows, unless the person is working in it (then it stays, closable as ever).
 */
export function DelegationModal({ workspaceId, parentChatId }: { workspaceId: string; parentChatId: string }) {
  const modal = useDelegationStore((s) => s.modals[parentChatId]);
  const delegations = useDelegationStore((s) => s.delegations);
  const minimise = useDelegationStore((s) => s.minimiseModal);
  const selectTab = useDelegationStore((s) => s.selectTab);

  const tabs = useMemo(() => (modal ? batchTabs(delegations, parentChatId, modal.batchId) : []), [delegations, parentChatId, modal]);
  const active = tabs.find((t) => t.key === modal?.activeKey) ?? tabs[0];
  const allFinished = tabs.length > 0 && tabs.every((t) => isFinished(t.status));
  const open = Boolean(modal?.open && active);

  const returnFocus = useRef<HTMLElement | null>(null);
  const { pin } = useAutoClose({ open, allFinished, batchId: modal?.batchId, onClose: () => minimise(parentChatId) });
  const { wide, sidePanel } = useSidePanelLayout();
  useMakeRoomForPanel(open && sidePanel);

  return (
    <Dialog.Root open={open} onOpenChange={(next) => !next && minimise(parentChatId)} modal={!sidePanel}>
      <Dialog.Portal>
        {!sidePanel && <Dialog.Overlay className="fixed inset-0 z-40 bg-black/40 backdrop-blur-[1px]" />}
        <Dialog.Content
          data-layout={sidePanel ? 'side-panel' : 'modal'}
          // Radix returns focus to a Dialog.Trigger; this modal opens by itself or from a
          // block's button. The side panel leaves focus where it was (the chat stays usable).
          onOpenAutoFocus={(event) => {
            returnFocus.current = focusedElement();
            event.preventDefault();
            if (!sidePanel) focusOnOpen(event.target as HTMLElement);
          }}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            focusAfterClose(returnFocus.current, active?.key);
          }}
          // The side panel stays while the person works in the chat next to it.
          onInteractOutside={(event) => sidePanel && event.preventDefault()}
          // Any interaction means the user is reading: the modal then stays until they close it.
          // Steering is not reading (see useAutoClose).
          onPointerDownCapture={pin}
          onKeyDownCapture={pin}
          className={
            sidePanel
              ? 'fixed top-0 right-0 bottom-0 z-30 flex w-[28rem] flex-col overflow-hidden border-l border-neutral-200 bg-white shadow-lg dark:border-neutral-800 dark:bg-neutral-950'
              : 'fixed inset-x-0 bottom-0 z-50 flex h-[94dvh] flex-col overflow-hidden rounded-t-2xl border border-neutral-200 bg-white shadow-xl ' +
                'sm:inset-auto sm:left-1/2 sm:top-1/2 sm:h-[min(85dvh,760px)] sm:w-[min(760px,calc(100vw-3rem))] sm:-translate-x-1/2 sm:-translate-y-1/2 sm:rounded-xl ' +
                'dark:border-neutral-800 dark:bg-neutral-950'
          }
        >
          {active && (
            <>
              <ModalHeader delegation={active} allFinished={allFinished} layout={wide ? (sidePanel ? 'side-panel' : 'modal') : undefined} />
              {tabs.length > 1 && <DelegationTabs tabs={tabs} activeKey={active.key} onSelect={(key) => selectTab(parentChatId, key)} />}
              <div
                key={active.key}
                className="flex min-h-0 flex-1 flex-col"
                {...(tabs.length > 1 ? { role: 'tabpanel', id: panelId(active.key), 'aria-labelledby': tabId(active.key) } : {})}
              >
                <SubChatPanel delegation={active} />
              </div>
              <ModalFooter key={`footer:${active.key}`} workspaceId={workspaceId} delegation={active} onLeave={() => minimise(parentChatId)} />
            </>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/**
 * Closes the modal as soon as its last sub-agent finishes, so the parent's continuing
 * answer shows and nothing stands in front of the chat. Only that moment counts (a
 * finished batch reopened from a block stays open), and not when the user has been
 * interacting with the modal (it then stays, and closes with its button or Escape).
 * Writing to the sub-agent in the steering box does not count: a steered run that ends has
 * done what it was told, and what the person waits for next is the parent's answer with
 * its result — the modal steps aside as for any run, focus goes back where it was, and the
 * result stays one click away in the delegation block.
 */
function useAutoClose({ open, allFinished, batchId, onClose }: { open: boolean; allFinished: boolean; batchId?: string; onClose: () => void }) {
  const wasRunning = useRef(false);
  const pinnedBatch = useRef<string | undefined>(undefined);
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;
  useEffect(() => {
    const justFinished = wasRunning.current && allFinished;
    wasRunning.current = !allFinished;
    if (open && justFinished && batchId && pinnedBatch.current !== batchId) onCloseRef.current();
  }, [open, allFinished, batchId]);
  return {
    pin: (event: { target: EventTarget | null }) => {
      if (event.target instanceof Element && event.target.closest('[data-steering-form]')) return;
      pinnedBatch.current = batchId;
    },
  };
}

/**
 * Where focus lands when the modal opens: the steering box while its sub-agent runs (what
 * a person can do here), else the dialog's heading, which a screen reader reads with the
 * task. Never the first button (Radix's default: the dock toggle), and never a trip through
 * the transcript before the steering box.
 */
function focusOnOpen(content: HTMLElement) {
  const target = content.querySelector<HTMLElement>('[data-steer-input]') ?? content.querySelector<HTMLElement>('[data-dialog-heading]');
  target?.focus();
}

/**
 * Where focus goes when the modal closes: back to what had it when it opened (a block's
 * Reopen button, the composer) if that can still take it; else the delegation's block in
 * the transcript; else the composer. Never lost on the page's body.
 */
function focusAfterClose(previous: HTMLElement | null, key: string | undefined) {
  const block = key ? document.querySelector(`[data-delegation-key="${CSS.escape(key)}"]`) : null;
  restoreFocus(previous, block, document.getElementById('message-input'));
}

function ModalHeader({ delegation, allFinished, layout }: { delegation: Delegation; allFinished: boolean; layout?: 'modal' | 'side-panel' }) {
  return (
    <div className="flex shrink-0 items-start gap-3 border-b border-neutral-200 px-4 py-3 dark:border-neutral-800">
      <div className="min-w-0 flex-1">
        <Dialog.Title
          tabIndex={-1}
          data-dialog-heading
          className="flex min-w-0 items-center gap-2 text-base font-semibold text-neutral-900 outline-none dark:text-neutral-50"
        >
          <span className="truncate">{delegation.subAgentName}</span>
          <span className="shrink-0 rounded-full bg-indigo-50 px-2 py-0.5 text-xs font-medium text-indigo-700 dark:bg-indigo-950 dark:text-indigo-300">
            Sub-agent
          </span>
        </Dialog.Title>
        <div className="mt-1 text-sm text-neutral-600 dark:text-neutral-400">
          {/* The task is the dialog's description; the "whole task" toggle stays out of it. */}
          <TaskText task={delegation.task} wrapText={(text) => <Dialog.Description asChild>{text}</Dialog.Description>} />
        </div>
      </div>
      {layout && (
        <button
          type="button"
          onClick={() => setSidePanelPreference(layout === 'modal')}
          aria-label={layout === 'modal' ? 'Show beside the chat' : 'Show over the chat'}
          title={layout === 'modal' ? 'Show beside the chat (the chat stays usable)' : 'Show over the chat'}
          className="grid h-8 w-8 shrink-0 cursor-pointer place-items-center rounded-md text-neutral-500 hover:bg-neutral-100 hover:text-neutral-900 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:hover:bg-neutral-800 dark:hover:text-neutral-100"
        >
          {layout === 'modal' ? <PanelRight className="h-4 w-4" aria-hidden /> : <Maximize2 className="h-4 w-4" aria-hidden />}
        </button>
      )}
      <Dialog.Close
        aria-label={allFinished ? 'Close' : 'Minimise'}
        title={allFinished ? 'Close' : 'Minimise (the sub-agents keep running)'}
        className="grid h-8 w-8 shrink-0 cursor-pointer place-items-center rounded-md text-neutral-500 hover:bg-neutral-100 hover:text-neutral-900 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:hover:bg-neutral-800 dark:hover:text-neutral-100"
      >
        {allFinished ? <X className="h-4 w-4" aria-hidden /> : <Minus className="h-4 w-4" aria-hidden />}
      </Dialog.Close>
    </div>
  );
}

function ModalFooter({ workspaceId, delegation, onLeave }: { workspaceId: string; delegation: Delegation; onLeave: () => void }) {
  const running = !isFinished(delegation.status);
  const [cancelling, setCancelling] = useState(false);
  return (
    <div className="flex shrink-0 flex-wrap items-center justify-between gap-2 border-t border-neutral-200 px-4 py-3 dark:border-neutral-800">
      {delegation.subChatId ? (
        <Link
          href={`/w/${encodeURIComponent(workspaceId)}/chat/${encodeURIComponent(delegation.subChatId)}`}
          // Leaving for the sub-chat's page minimises the modal: it must not pop up again on return.
          onClick={onLeave}
          className="inline-flex items-center gap-1 text-sm font-medium text-indigo-600 hover:underline dark:text-indigo-400"
        >
          <ExternalLink className="h-3.5 w-3.5" aria-hidden />
          Open sub-chat
        </Link>
      ) : (
        <span />
      )}
      {running && (
        <Button
          variant="secondary"
          size="sm"
          disabled={cancelling}
          className="text-red-700 dark:text-red-400"
          onClick={() => {
            setCancelling(true);
            void cancelDelegation(delegation.key).finally(() => setCancelling(false));
          }}
        >
          {cancelling ? 'Cancelling…' : 'Cancel sub-agent'}
        </Button>
      )}
    </div>
  );
}
