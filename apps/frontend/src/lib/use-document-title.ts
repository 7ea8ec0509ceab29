'use client';

import { useEffect } from 'react';

/**
 * Titles the tab while the calling component is shown. The route's static metadata title
 * ("Chat · Baton") is React's own <title>, which Next may render again after a client-side
 * navigation, after this effect ran; so the title is held while mounted (a head observer
 * puts it back) and the one it replaced is restored on unmount.
 */
export function useDocumentTitle(title: string | undefined) {
  useEffect(() => {
    if (!title) return;
    const before = document.title;
    const apply = () => {
      if (document.title !== title) document.title = title;
    };
    apply();
    const observer = new MutationObserver(apply);
    observer.observe(document.head, { subtree: true, childList: true, characterData: true });
    return () => {
      observer.disconnect();
      if (document.title === title) document.title = before;
    };
  }, [title]);
}
