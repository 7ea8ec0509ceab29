'use client';

import { AlertCircle, X } from 'lucide-react';
import { type Attachment, fileKindLabel, fileSizeText } from '@/lib/attachments';
import { FileTypeIcon } from './file-type-icon';

/**
 * The files of the message being written, above its text: a thumbnail or the type's icon,
 * name and size, progress while uploading, the reason when refused, and Remove.
 */
export function AttachmentChips({ attachments, onRemove }: { attachments: readonly Attachment[]; onRemove: (key: string) => void }) {
  if (attachments.length === 0) return null;
  return (
    <ul aria-label="Attached files" className="flex max-h-60 flex-wrap gap-2 overflow-y-auto px-1 pt-1 pb-2">
      {attachments.map((a) => (
        <AttachmentChip key={a.key} attachment={a} onRemove={() => onRemove(a.key)} />
      ))}
    </ul>
  );
}

function AttachmentChip({ attachment: a, onRemove }: { attachment: Attachment; onRemove: () => void }) {
  const failed = a.status === 'failed';
  const uploading = a.status === 'uploading';
  const percent = Math.round(a.progress * 100);
  return (
    <li
      aria-label={a.name}
      data-status={a.status}
      // A row each on a phone (two side by side left no room for a name); a refusal is wider, its reason is the point.
      className={`relative flex min-w-0 basis-full items-center gap-2 overflow-hidden rounded-xl border py-1.5 pr-1 pl-1.5 text-left sm:basis-auto ${
        failed
          ? 'border-red-300 bg-red-50 sm:max-w-md dark:border-red-900 dark:bg-red-950/40'
          : 'border-neutral-200 bg-neutral-50 sm:max-w-72 dark:border-neutral-700 dark:bg-neutral-800'
      }`}
    >
      <span className="grid h-10 w-10 shrink-0 place-items-center overflow-hidden rounded-lg bg-white dark:bg-neutral-900">
        {failed ? (
          <AlertCircle className="h-5 w-5 text-red-600 dark:text-red-400" aria-hidden />
        ) : a.previewUrl ? (
          // biome-ignore lint/performance/noImgElement: a local blob: preview; next/image cannot optimise it.
          <img src={a.previewUrl} alt="" className="h-full w-full object-cover" />
        ) : (
          <FileTypeIcon mediaType={a.mediaType} className="h-5 w-5 text-neutral-500" />
        )}
      </span>
      <span className="flex min-w-0 flex-1 flex-col text-xs leading-snug">
        <span className="truncate font-medium text-neutral-900 dark:text-neutral-100" title={a.name}>
          {a.name}
        </span>
        {failed ? (
          <span role="alert" className="text-red-700 dark:text-red-300">
            <ErrorText name={a.name} error={a.error ?? ''} />
          </span>
        ) : (
          <span className="truncate text-neutral-500">
            {uploading ? `Uploading… ${percent}%` : `${fileKindLabel(a.mediaType, a.name)} · ${fileSizeText(a.size)}`}
          </span>
        )}
      </span>
      <button
        type="button"
        onClick={onRemove}
        aria-label={`Remove ${a.name}`}
        title="Remove"
        className="grid h-11 w-11 shrink-0 cursor-pointer place-items-center self-start rounded-lg text-neutral-500 hover:bg-neutral-200 hover:text-neutral-900 focus-visible:outline-2 focus-visible:outline-indigo-500 md:h-7 md:w-7 dark:hover:bg-neutral-700 dark:hover:text-neutral-100"
      >
        <X className="h-4 w-4" aria-hidden />
      </button>
      {uploading && (
        <span
          role="progressbar"
          aria-label={`Uploading ${a.name}`}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
          className="absolute inset-x-0 bottom-0 h-0.5 bg-neutral-200 dark:bg-neutral-700"
        >
          <span className="block h-full bg-indigo-500 transition-[width]" style={{ width: `${percent}%` }} />
        </span>
      )}
    </li>
  );
}

/** The reason without the name the chip shows just above it, which a screen reader still hears with the alert. */
function ErrorText({ name, error }: { name: string; error: string }) {
  const prefix = `${name}: `;
  if (!error.startsWith(prefix)) return error;
  return (
    <>
      <span className="sr-only">{prefix}</span>
      {/* Capitalised by CSS only: what is read out and copied stays the one sentence. */}
      <span className="inline-block first-letter:uppercase">{error.slice(prefix.length)}</span>
    </>
  );
}
