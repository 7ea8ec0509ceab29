'use client';

import { useState, type ReactElement } from 'react';

/** Past this many characters a task is clamped to three lines, with a toggle for the rest. */
const LONG_TASK = 220;

/** A delegated task: short ones in full, long ones (a sub-agent may get pages) clamped. */
export function TaskText({ task, wrapText = (text) => text }: { task: string; wrapText?: (text: ReactElement) => ReactElement }) {
  const [expanded, setExpanded] = useState(false);
  const long = task.length > LONG_TASK;
  return (
    <div className="min-w-0">
      {wrapText(
        <p className={`whitespace-pre-wrap break-words ${long && !expanded ? 'line-clamp-3' : ''}`}>
          <span className="font-medium text-neutral-800 dark:text-neutral-200">Task: </span>
          {task || '…'}
        </p>,
      )}
      {long && (
        <button
          type="button"
          aria-expanded={expanded}
          onClick={() => setExpanded(!expanded)}
          className="mt-0.5 cursor-pointer text-xs font-medium text-indigo-600 hover:underline dark:text-indigo-400"
        >
          {expanded ? 'Show less' : 'Show the whole task'}
        </button>
      )}
    </div>
  );
}
