'use client';

import { Paperclip } from 'lucide-react';
import { type DragEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { filesOf } from '@/lib/attachments';

const carriesFiles = (event: DragEvent) => Array.from(event.dataTransfer?.types ?? []).includes('Files');

/**
 * An area (a chat, the new-chat page) that takes files dropped anywhere on it and hands them
 * to `onFiles` (the composer's), with a "Drop files to attach" overlay while a drag with
 * files is over it. Drags of text or links are left to the browser. Enter and leave fire for
 * every child crossed, hence the depth count.
 */
export function FileDropZone({ onFiles, className, children }: { onFiles: (files: File[]) => void; className?: string; children: ReactNode }) {
  const [dragging, setDragging] = useState(false);
  const depth = useRef(0);

  // A file dropped just beside the area (the sidebar, a margin) would make the browser leave
  // the page to show it, and the draft with it: while the area is on the page, such a drop does nothing.
  useEffect(() => {
    const ignore = (event: globalThis.DragEvent) => {
      // The area itself took it (its handlers run first and prevent the default).
      if (event.defaultPrevented || !event.dataTransfer?.types.includes('Files')) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = 'none';
    };
    window.addEventListener('dragover', ignore);
    window.addEventListener('drop', ignore);
    return () => {
      window.removeEventListener('dragover', ignore);
      window.removeEventListener('drop', ignore);
    };
  }, []);

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: dropping is a pointer shortcut; the composer's Attach button is the keyboard's way.
    <div
      className={`relative ${className ?? ''}`}
      onDragEnter={(event) => {
        if (!carriesFiles(event)) return;
        event.preventDefault();
        depth.current += 1;
        setDragging(true);
      }}
      onDragOver={(event) => {
        if (!carriesFiles(event)) return;
        // Without this the browser opens the dropped file instead of giving it to the page.
        event.preventDefault();
        event.dataTransfer.dropEffect = 'copy';
      }}
      onDragLeave={(event) => {
        if (!carriesFiles(event)) return;
        depth.current = Math.max(0, depth.current - 1);
        if (depth.current === 0) setDragging(false);
      }}
      onDrop={(event) => {
        if (!carriesFiles(event)) return;
        event.preventDefault();
        depth.current = 0;
        setDragging(false);
        onFiles(filesOf(event.dataTransfer));
      }}
    >
      {children}
      {dragging && (
        <div className="pointer-events-none absolute inset-2 z-20 grid place-items-center rounded-2xl border-2 border-dashed border-indigo-500 bg-indigo-50/90 dark:bg-indigo-950/80">
          <p className="flex items-center gap-2 text-sm font-medium text-indigo-700 dark:text-indigo-200">
            <Paperclip className="h-4 w-4" aria-hidden />
            Drop files to attach them to your message
          </p>
        </div>
      )}
    </div>
  );
}
