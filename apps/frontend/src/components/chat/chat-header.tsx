/** The chat's title bar: title, the agent it talks to, and a badge for sub-agent chats. */
export function ChatHeader({
  title,
  agentLabel,
  subChatStatus,
}: {
  title: string;
  agentLabel?: string;
  /** Set for a sub-agent chat: its run status, or '' when unknown. */
  subChatStatus?: string | null;
}) {
  return (
    <header className="shrink-0 border-b border-neutral-200 px-4 py-3 md:px-8 dark:border-neutral-800">
      <div className="mx-auto flex max-w-3xl flex-wrap items-center gap-x-3 gap-y-1">
        <h1 className="min-w-0 truncate text-base font-semibold">{title.trim() || 'Untitled chat'}</h1>
        {agentLabel && <span className="text-sm text-neutral-500">{agentLabel}</span>}
        {subChatStatus !== undefined && (
          <span className="rounded-full bg-indigo-50 px-2 py-0.5 text-xs font-medium text-indigo-700 dark:bg-indigo-950 dark:text-indigo-300">
            Sub-agent{subChatStatus ? ` · ${subChatStatus}` : ''}
          </span>
        )}
      </div>
    </header>
  );
}
