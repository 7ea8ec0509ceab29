import { Network } from 'lucide-react';
import type { ReactNode } from 'react';

/** The chat's title bar: title, the agent it talks to (a picker in a top-level chat) and its model, a badge for sub-agent chats, its tokens and the trace. */
export function ChatHeader({
  title,
  agentLabel,
  agentPicker,
  model,
  subChatStatus,
  usage,
  onTrace,
  menu,
}: {
  title: string;
  agentLabel?: string;
  /** In place of the label: the agent as a menu to switch it (a top-level chat). */
  agentPicker?: ReactNode;
  /** The model that answers (see ChatModel). */
  model?: ReactNode;
  /** Set for a sub-agent chat: its status, or '' when unknown. */
  subChatStatus?: string | null;
  /** The chat's tokens (own / delegated / total). */
  usage?: ReactNode;
  /** Opens the chat's delegation tree (given only when the chat delegated). */
  onTrace?: () => void;
  /** The chat's actions (share, export): top-level chats only. */
  menu?: ReactNode;
}) {
  return (
    <header className="shrink-0 border-b border-neutral-200 px-4 py-3 md:px-8 dark:border-neutral-800">
      {/* The menu keeps the top-right corner however the rest wraps (at 390 px it would get a row of its own). */}
      <div className="mx-auto flex max-w-3xl items-start gap-2">
        <div className="flex min-w-0 flex-1 flex-wrap items-center gap-x-3 gap-y-1">
          <h1 className="min-w-0 truncate text-base font-semibold">{title.trim() || 'Untitled chat'}</h1>
          {agentPicker ?? (agentLabel && <span className="text-sm text-neutral-500">{agentLabel}</span>)}
          {model}
          {subChatStatus !== undefined && (
            <span className="rounded-full bg-indigo-50 px-2 py-0.5 text-xs font-medium text-indigo-700 dark:bg-indigo-950 dark:text-indigo-300">
              Sub-agent{subChatStatus ? ` · ${subChatStatus}` : ''}
            </span>
          )}
          {(usage || onTrace) && (
            <span className="ml-auto flex flex-wrap items-center justify-end gap-x-3 gap-y-1">
              {usage}
              {onTrace && (
                <button
                  type="button"
                  onClick={onTrace}
                  aria-label="Delegation tree"
                  className="inline-flex shrink-0 cursor-pointer items-center gap-1 whitespace-nowrap rounded-md px-1.5 py-1 text-xs font-medium text-neutral-600 hover:bg-neutral-100 hover:text-neutral-900 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-neutral-400 dark:hover:bg-neutral-800 dark:hover:text-neutral-100"
                >
                  <Network className="h-3.5 w-3.5" aria-hidden />
                  <span className="hidden sm:inline">Delegation tree</span>
                  <span className="sm:hidden">Tree</span>
                </button>
              )}
            </span>
          )}
        </div>
        {menu}
      </div>
    </header>
  );
}
