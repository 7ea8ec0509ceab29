'use client';

import { usePathname } from 'next/navigation';

/** The composer's id (message-composer.tsx): a chat page and the new-chat page have one. */
const MESSAGE_BOX_ID = 'message-input';

/**
 * The first thing Tab reaches on a page with a message box: a link that jumps past the
 * sidebar to it. Hidden until focused, as skip links are.
 */
export function SkipToMessageBox() {
  const pathname = usePathname();
  // The new-chat page (/w/:ws) and a chat (/w/:ws/chat/:id) are the pages with a message box.
  if (!/^\/w\/[^/]+(\/chat\/[^/]+)?\/?$/.test(pathname)) return null;
  return (
    <a
      href={`#${MESSAGE_BOX_ID}`}
      onClick={(e) => {
        const box = document.getElementById(MESSAGE_BOX_ID);
        if (!box) return;
        e.preventDefault();
        box.focus();
      }}
      className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-[60] focus:rounded-lg focus:bg-indigo-600 focus:px-4 focus:py-3 focus:text-sm focus:font-medium focus:text-white focus:shadow-lg"
    >
      Skip to message box
    </a>
  );
}
