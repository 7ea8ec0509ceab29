'use client';

import { isSharedFileUrl, parseFileUrl } from '@baton/schemas';
import type { FileUIPart } from 'ai';
import { fileKindLabel, fileSizeText, isImageType } from '@/lib/attachments';
import { knownFileSize } from '@/lib/file-sizes';
import { FileTypeIcon } from './file-type-icon';

/**
 * The files a person's message carries (and a sub-chat's first message, what its sub-agent
 * was given): images as thumbnails that open the picture in a new tab, other files as cards
 * that open or download them. Only Baton's own file URLs (this origin, readable by whoever
 * reads the chat) and local data: URLs are loaded as pictures; any other URL is only a link.
 */
export function MessageFiles({ parts }: { parts: readonly FileUIPart[] }) {
  if (parts.length === 0) return null;
  const images = parts.filter((p) => isImageType(p.mediaType) && loadable(p.url));
  const others = parts.filter((p) => !images.includes(p));
  return (
    <div className="flex max-w-[85%] flex-col items-end gap-2">
      {images.length > 0 && (
        <ul aria-label="Images" className="flex flex-wrap justify-end gap-2">
          {images.map((part) => (
            <li key={part.url}>
              <a
                href={part.url}
                target="_blank"
                rel="noopener noreferrer"
                title={`Open ${nameOf(part)}`}
                className="block overflow-hidden rounded-xl border border-neutral-200 bg-neutral-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 dark:border-neutral-700 dark:bg-neutral-800"
              >
                {/* biome-ignore lint/performance/noImgElement: a chat's own upload behind the session cookie; next/image cannot fetch it. */}
                <img
                  src={part.url}
                  alt={nameOf(part)}
                  loading="lazy"
                  className={images.length === 1 ? 'max-h-64 w-auto max-w-full object-contain' : 'h-28 w-28 object-cover sm:h-36 sm:w-36'}
                />
              </a>
            </li>
          ))}
        </ul>
      )}
      {others.length > 0 && (
        <ul aria-label="Files" className="flex flex-wrap justify-end gap-2">
          {others.map((part) => (
            <li key={part.url} className="max-w-full">
              <FileCard part={part} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function FileCard({ part }: { part: FileUIPart }) {
  const name = nameOf(part);
  const size = knownFileSize(part.url);
  return (
    <a
      href={part.url}
      target="_blank"
      rel="noopener noreferrer"
      download={name}
      title={`Open ${name}`}
      className="flex max-w-full items-center gap-3 rounded-xl border border-neutral-200 bg-white py-2 pr-4 pl-2 text-left hover:bg-neutral-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 sm:max-w-72 dark:border-neutral-700 dark:bg-neutral-900 dark:hover:bg-neutral-800"
    >
      <span className="grid h-10 w-10 shrink-0 place-items-center rounded-lg bg-indigo-50 text-indigo-600 dark:bg-indigo-950 dark:text-indigo-300">
        <FileTypeIcon mediaType={part.mediaType} className="h-5 w-5" />
      </span>
      <span className="flex min-w-0 flex-col text-xs leading-snug">
        <span className="truncate text-sm font-medium text-neutral-900 dark:text-neutral-100">{name}</span>
        <span className="text-neutral-500">
          {fileKindLabel(part.mediaType, name)}
          {size !== undefined && ` · ${fileSizeText(size)}`}
        </span>
      </span>
    </a>
  );
}

const loadable = (url: string) => parseFileUrl(url) !== undefined || isSharedFileUrl(url) || url.startsWith('data:image/');
const nameOf = (part: FileUIPart) => part.filename || 'file';
