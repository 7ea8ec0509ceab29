'use client';

import { Paperclip } from 'lucide-react';
import type { TaskAttachment } from './task-attachments';

/** The files a delegation gives its sub-agent: a plain list of names, each opening the file. */
export function TaskAttachmentList({ files }: { files: readonly TaskAttachment[] }) {
  if (files.length === 0) return null;
  return (
    <div className="mt-1.5 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs">
      <span className="font-medium text-neutral-800 dark:text-neutral-200">{files.length === 1 ? 'File:' : `${files.length} files:`}</span>
      <ul aria-label="Files given to the sub-agent" className="contents">
        {files.map((f) => (
          <li key={f.id} className="min-w-0">
            <a
              href={f.url}
              target="_blank"
              rel="noopener noreferrer"
              className="inline-flex max-w-full items-center gap-1 text-indigo-600 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-indigo-400"
            >
              <Paperclip className="h-3.5 w-3.5 shrink-0" aria-hidden />
              <span className="truncate">{f.name}</span>
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}
