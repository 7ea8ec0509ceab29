'use client';

import { ChevronRight, NotebookPen } from 'lucide-react';
import { useState } from 'react';
import type { NoteGroupView } from './message-parts';
import { MessagePart } from './message-part';

/**
 * A sub-agent's note-taking steps as one line: "12 notes" and the newest one. Closed, it
 * renders nothing else, so a run of a hundred steps costs the page (and the keyboard) one
 * disclosure; opened, it shows each step's text and note call.
 */
export function NoteGroup({ group, workspaceId, chatId }: { group: NoteGroupView; workspaceId: string; chatId: string }) {
  const [open, setOpen] = useState(false);
  return (
    <details
      className="group w-full rounded-lg border border-neutral-200 text-xs dark:border-neutral-800"
      data-testid="note-group"
      onToggle={(event) => setOpen(event.currentTarget.open)}
    >
      <summary className="flex cursor-pointer list-none items-center gap-1.5 rounded-lg px-2.5 py-1.5 text-neutral-700 hover:bg-neutral-50 dark:text-neutral-300 dark:hover:bg-neutral-900 [&::-webkit-details-marker]:hidden">
        <ChevronRight className="h-3.5 w-3.5 shrink-0 transition-transform group-open:rotate-90" aria-hidden />
        <NotebookPen className="h-3.5 w-3.5 shrink-0" aria-hidden />
        <span className="shrink-0 font-medium">
          {group.notes} {group.notes === 1 ? 'note' : 'notes'}
        </span>
        {group.latest && <span className="min-w-0 truncate text-neutral-500">· {group.latest}</span>}
      </summary>
      {open && (
        <div className="flex flex-col gap-3 border-t border-neutral-200 px-2.5 py-2 text-sm dark:border-neutral-800">
          {group.views.map((view, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a group's steps only ever grow at the end.
            <MessagePart key={i} view={view} workspaceId={workspaceId} chatId={chatId} />
          ))}
        </div>
      )}
    </details>
  );
}
