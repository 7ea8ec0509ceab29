'use client';

import { Paperclip } from 'lucide-react';
import { useRef } from 'react';

/**
 * Attach files: a button that opens the file picker (a hidden `<input type=file multiple>`),
 * the keyboard's way to add files where paste and drop are the pointer's — in the composer and
 * in a running sub-agent's steering box.
 */
export function AttachButton({ onFiles, disabled = false }: { onFiles: (files: File[]) => void; disabled?: boolean }) {
  const picker = useRef<HTMLInputElement>(null);
  return (
    <>
      <button
        type="button"
        aria-label="Attach files"
        title="Attach files (or paste, or drop them here)"
        disabled={disabled}
        onClick={() => picker.current?.click()}
        className="grid h-11 w-11 shrink-0 cursor-pointer place-items-center rounded-xl text-neutral-600 transition-colors hover:bg-neutral-100 hover:text-neutral-900 focus-visible:outline-2 focus-visible:outline-indigo-500 disabled:cursor-not-allowed disabled:opacity-40 md:h-9 md:w-9 dark:text-neutral-300 dark:hover:bg-neutral-800 dark:hover:text-white"
      >
        <Paperclip className="h-4 w-4" aria-hidden />
      </button>
      {/* No `accept`: the server reads the type from the bytes, and source code comes with any extension. */}
      <input
        ref={picker}
        type="file"
        multiple
        hidden
        tabIndex={-1}
        data-testid="attach-input"
        onChange={(event) => {
          onFiles(Array.from(event.target.files ?? []));
          // The same file chosen again (after removing it) must fire a change again.
          event.target.value = '';
        }}
      />
    </>
  );
}
