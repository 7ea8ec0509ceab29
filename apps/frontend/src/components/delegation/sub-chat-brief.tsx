'use client';

import { parseMcpToolId, type Chat, type ContextMode, type WorkspaceTool } from '@baton/schemas';
import { ChevronRight, NotebookPen, Wrench } from 'lucide-react';
import { useState } from 'react';
import { api } from '@/lib/api-client';
import { useApiQuery } from '@/lib/use-api-query';
import { queryKeys } from '@/lib/queries';

const CONTEXT_LABELS: Record<ContextMode, string> = {
  task_only: 'The task only',
  summary: 'A summary of the parent conversation, then the task',
  full: 'The parent conversation, then the task',
};

/**
 * What a sub-agent was given and kept, above its transcript: the context it received
 * besides the task (stored on the sub-chat, not a message), the tools it could use, and
 * its scratchpad notes.
 */
export function SubChatBrief({ chat }: { chat: Pick<Chat, 'workspaceId' | 'contextMode' | 'delegateContext' | 'effectiveToolIds' | 'notes'> }) {
  const tools = useApiQuery(queryKeys.tools(chat.workspaceId), () => api.workspaceTools(chat.workspaceId), { staleTime: Infinity }).data;
  if (!chat.contextMode && chat.effectiveToolIds === null && chat.notes.length === 0) return null;
  return (
    <div className="flex flex-col gap-2 text-sm" aria-label="What the sub-agent was given" role="group">
      {chat.contextMode && (
        <details className="group rounded-lg border border-neutral-200 bg-neutral-50 px-3 py-2 dark:border-neutral-800 dark:bg-neutral-900">
          <summary className="flex cursor-pointer list-none items-center gap-1.5 font-medium text-neutral-800 dark:text-neutral-200">
            <ChevronRight className="h-3.5 w-3.5 shrink-0 transition-transform group-open:rotate-90" aria-hidden />
            Context given: <span className="font-normal text-neutral-600 dark:text-neutral-400">{CONTEXT_LABELS[chat.contextMode]}</span>
          </summary>
          <p className="mt-2 max-h-64 overflow-y-auto whitespace-pre-wrap break-words text-neutral-700 dark:text-neutral-300">
            {chat.delegateContext || (chat.contextMode === 'task_only' ? 'Nothing besides the task.' : 'No context text was stored.')}
          </p>
        </details>
      )}
      {chat.effectiveToolIds !== null && <EffectiveToolList ids={chat.effectiveToolIds} tools={tools} />}
      {chat.notes.length > 0 && <NoteList notes={chat.notes} />}
    </div>
  );
}

/**
 * The sub-agent's notes, closed at first (a long run keeps dozens): the count is the
 * summary, and the list is only built once someone opens it.
 */
function NoteList({ notes }: { notes: Chat['notes'] }) {
  const [open, setOpen] = useState(false);
  return (
    <details className="group rounded-lg border border-neutral-200 px-3 py-2 dark:border-neutral-800" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary className="flex cursor-pointer list-none items-center gap-1.5 font-medium text-neutral-800 dark:text-neutral-200">
        <ChevronRight className="h-3.5 w-3.5 shrink-0 transition-transform group-open:rotate-90" aria-hidden />
        <NotebookPen className="h-3.5 w-3.5 shrink-0" aria-hidden />
        Notes ({notes.length})
      </summary>
      {open && (
        <ol className="mt-2 flex list-decimal flex-col gap-1 pl-6 text-neutral-700 dark:text-neutral-300" aria-label="Notes">
          {notes.map((note) => (
            <li key={`${note.createdAt}:${note.text}`} className="whitespace-pre-wrap break-words">
              {note.text}
            </li>
          ))}
        </ol>
      )}
    </details>
  );
}

function EffectiveToolList({ ids, tools }: { ids: string[]; tools?: WorkspaceTool[] }) {
  const byId = new Map((tools ?? []).map((t) => [t.id, t]));
  // An MCP tool reads "lookup_fact (Facts)"; one its server no longer lists still by its own name.
  const label = (id: string) => {
    const tool = byId.get(id);
    if (tool) return tool.serverName ? `${tool.name} (${tool.serverName})` : tool.name;
    return parseMcpToolId(id)?.toolName ?? id;
  };
  return (
    <p className="flex items-start gap-1.5 px-1 text-xs text-neutral-600 dark:text-neutral-400">
      <Wrench className="mt-0.5 h-3.5 w-3.5 shrink-0" aria-hidden />
      <span>Tools it could use: {ids.length ? ids.map(label).join(', ') : 'none'}</span>
    </p>
  );
}
