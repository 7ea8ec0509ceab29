'use client';

import type { DynamicToolUIPart, ToolUIPart } from 'ai';
import { type BatonFile, INLINE_FILE_TYPES } from '@baton/schemas';
import { ChevronRight, Hourglass, LoaderCircle, Paperclip, Server, TriangleAlert, Wrench } from 'lucide-react';
import { toolCallState, toolInputText, toolOutputView } from './tool-output';
import { useToolOrigin } from './use-tool-origin';

/**
 * A tool call (the calculator, an MCP server's tool, an API client's own tool) as a compact
 * line; expanding it shows the input and the output. A call the answer ended on without an
 * output (not `streaming`) waits for the API client that offered the tool. An MCP tool is
 * named with its server. Native <details>, so it works with keyboard and screen readers as
 * is; values render as text, never HTML.
 */
export function ToolCallBlock({
  workspaceId,
  name,
  part,
  streaming = false,
}: {
  workspaceId: string;
  name: string;
  part: ToolUIPart | DynamicToolUIPart;
  streaming?: boolean;
}) {
  const origin = useToolOrigin(workspaceId, name);
  const output = part.state === 'output-available' ? toolOutputView(part.output) : undefined;
  const { label, tone } = toolCallState(part.state, output?.isError ?? false, streaming);
  // The server's error arrives as `String(error)`: "Error: …" says nothing the block does not.
  const errorText = part.state === 'output-error' ? part.errorText.replace(/^Error: /, '') : part.state === 'output-denied' ? 'The call was denied.' : '';
  const shownName = origin?.toolName ?? name;
  const details = (
    <details className="group w-fit max-w-full rounded-lg border border-neutral-200 text-xs dark:border-neutral-800">
      <summary
        aria-label={`Tool call ${shownName}${origin ? ` from ${origin.serverName}` : ''}, ${label}`}
        className="flex cursor-pointer list-none flex-wrap items-center gap-1.5 rounded-lg px-2.5 py-1.5 text-neutral-700 hover:bg-neutral-50 dark:text-neutral-300 dark:hover:bg-neutral-900 [&::-webkit-details-marker]:hidden"
      >
        <ChevronRight className="h-3.5 w-3.5 shrink-0 transition-transform group-open:rotate-90" aria-hidden />
        {origin ? <Server className="h-3.5 w-3.5 shrink-0" aria-hidden /> : <Wrench className="h-3.5 w-3.5 shrink-0" aria-hidden />}
        <span className="min-w-0 break-all font-mono font-medium">{shownName}</span>
        {origin && <span className="min-w-0 truncate text-neutral-500">· {origin.serverName}</span>}
        {tone === 'running' && <LoaderCircle className="h-3.5 w-3.5 animate-spin text-neutral-400" aria-hidden />}
        {tone === 'waiting' && <Hourglass className="h-3.5 w-3.5 text-neutral-400" aria-hidden />}
        {tone === 'failed' && <TriangleAlert className="h-3.5 w-3.5 text-red-600 dark:text-red-400" aria-hidden />}
        <span className={tone === 'failed' ? 'text-red-700 dark:text-red-400' : 'text-neutral-500'}>{label}</span>
      </summary>
      <div className="flex flex-col gap-2 border-t border-neutral-200 px-2.5 py-2 dark:border-neutral-800">
        <ToolValue title="Input" value={toolInputText(part.input)} />
        {output && <ToolValue title={output.isError ? 'Error reported by the tool' : 'Output'} value={output.text} isError={output.isError} />}
        {errorText && <ToolValue title="Error" value={errorText} isError />}
      </div>
    </details>
  );
  if (!output?.files) return details;
  // What the tool gave as images or documents is shown with the call, not only inside it.
  return (
    <div className="flex max-w-full flex-col gap-1.5">
      {details}
      <ToolFiles files={output.files} />
    </div>
  );
}

/** Files an MCP tool's result held, stored in the chat: raster images as thumbnails (served inline), others as links. */
function ToolFiles({ files }: { files: BatonFile[] }) {
  return (
    <ul aria-label="Files from the tool" className="flex flex-wrap items-end gap-2 text-xs">
      {files.map((f) => (
        <li key={f.id}>
          <a
            href={f.url}
            target="_blank"
            rel="noopener noreferrer"
            className="inline-flex items-center gap-1 text-indigo-600 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-indigo-400"
          >
            {INLINE_FILE_TYPES.includes(f.mediaType) ? (
              // biome-ignore lint/performance/noImgElement: a stored file served by the API, not a static asset for next/image
              <img
                src={f.url}
                alt={f.name}
                className="max-h-32 min-h-10 max-w-48 min-w-10 rounded-md border border-neutral-200 object-contain dark:border-neutral-800"
              />
            ) : (
              <>
                <Paperclip className="h-3.5 w-3.5 shrink-0" aria-hidden />
                {f.name}
              </>
            )}
          </a>
        </li>
      ))}
    </ul>
  );
}

function ToolValue({ title, value, isError = false }: { title: string; value: string; isError?: boolean }) {
  return (
    <div className="min-w-0">
      <div className="mb-1 font-medium text-neutral-500">{title}</div>
      <pre
        className={
          'max-h-64 overflow-auto rounded-md bg-neutral-50 px-2 py-1.5 font-mono whitespace-pre-wrap break-words dark:bg-neutral-900 ' +
          (isError ? 'text-red-700 dark:text-red-300' : 'text-neutral-800 dark:text-neutral-200')
        }
      >
        {value || '—'}
      </pre>
    </div>
  );
}
