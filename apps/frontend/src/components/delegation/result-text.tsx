'use client';

import { useId, useState } from 'react';
import { QuotedOutput } from '../markdown/image-policy';
import { Markdown } from '../markdown/markdown';

/** Long results start collapsed: a transcript with several delegations stays scannable. */
const LONG_RESULT_CHARS = 600;
const LONG_RESULT_LINES = 10;

/** A sub-agent's result as markdown (images only on a click), collapsed behind "Show the full result" when long. */
export function ResultText({ result }: { result: string }) {
  const [expanded, setExpanded] = useState(false);
  const id = useId();
  const long = result.length > LONG_RESULT_CHARS || result.split('\n').length > LONG_RESULT_LINES;
  const collapsed = long && !expanded;
  return (
    <div className="min-w-0">
      <div id={id} className={`relative text-neutral-800 dark:text-neutral-200 ${collapsed ? 'max-h-40 overflow-hidden' : ''}`}>
        {/* A sub-agent's output: its images wait for a click, allow list or not. */}
        <QuotedOutput>
          <Markdown>{result}</Markdown>
        </QuotedOutput>
        {collapsed && (
          <div
            className="pointer-events-none absolute inset-x-0 bottom-0 h-12 bg-gradient-to-t from-neutral-50 to-transparent dark:from-neutral-900"
            aria-hidden
          />
        )}
      </div>
      {long && (
        <button
          type="button"
          aria-expanded={expanded}
          aria-controls={id}
          onClick={() => setExpanded(!expanded)}
          className="mt-1 cursor-pointer text-xs font-medium text-indigo-600 hover:underline dark:text-indigo-400"
        >
          {expanded ? 'Show less' : 'Show the full result'}
        </button>
      )}
    </div>
  );
}
