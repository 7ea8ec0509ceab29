'use client';

import { useCallback, useEffect, useRef } from 'react';

// Marks the history entry the guard pushes: same URL as the editor, one step above it.
const GUARD_KEY = '__batonUnsavedGuard';

const isGuardEntry = (state: unknown) => Boolean(state && typeof state === 'object' && (state as Record<string, unknown>)[GUARD_KEY]);

/** The Navigation API where the browser has it (Chromium, Firefox, Safari 26). */
function canGoBackInApp(): boolean {
  const navigation = (window as { navigation?: { canGoBack?: boolean } }).navigation;
  return navigation?.canGoBack ?? true;
}

/**
 * Makes the browser's Back button ask before unsaved edits are lost. While `dirty`, an
 * extra history entry with the editor's own URL sits on top; Back leaves it for the entry
 * below (same URL, so nothing visible happens), the popstate is kept from Next's router,
 * the guard entry is put back and `onBack` asks the question. `leave()` then goes back
 * past both entries, really leaving; keeping the edits needs nothing more.
 *
 * A page that was the first of the tab's in-app history gets no guard: Back leaves the
 * document there, and the browser's own beforeunload question covers that.
 */
export function useBackButtonGuard({ dirty, onBack }: { dirty: boolean; onBack: () => void }) {
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;
  const onBackRef = useRef(onBack);
  onBackRef.current = onBack;
  // Set once the person chose to leave: nothing may ask again on the way out.
  const leavingRef = useRef(false);
  // Whether the current history entry is the guard; popstate only tells where we arrive.
  const onGuardRef = useRef(false);

  const pushGuard = useCallback(() => {
    if (isGuardEntry(window.history.state)) {
      onGuardRef.current = true;
      return;
    }
    // Spreading the current state keeps Next's own keys (__NA, its tree), so its patched
    // pushState passes the entry through untouched and Back/Forward onto it restore this page.
    window.history.pushState({ ...(window.history.state ?? {}), [GUARD_KEY]: true }, '', window.location.href);
    onGuardRef.current = true;
  }, []);

  useEffect(() => {
    // Checked here, not at render: StrictMode runs this twice and must not push twice.
    if (dirty && !leavingRef.current && canGoBackInApp()) pushGuard();
  }, [dirty, pushGuard]);

  useEffect(() => {
    // Coming Back/Forward onto a guard entry left by an earlier visit: it is ours now.
    onGuardRef.current = isGuardEntry(window.history.state);
    const onPopState = (event: PopStateEvent) => {
      const leftGuard = onGuardRef.current && !isGuardEntry(event.state);
      onGuardRef.current = isGuardEntry(event.state);
      if (!leftGuard || leavingRef.current) return;
      // Capture phase on window runs before Next's listener; the entry below has the same
      // URL, so there is nothing for the router to do.
      event.stopImmediatePropagation();
      if (dirtyRef.current) {
        pushGuard();
        onBackRef.current();
      } else {
        // Saved since the guard went up: it is a duplicate of this page, so Back goes on
        // to the page before in one press.
        window.history.back();
      }
    };
    window.addEventListener('popstate', onPopState, true);
    return () => window.removeEventListener('popstate', onPopState, true);
  }, [pushGuard]);

  const leave = useCallback(() => {
    leavingRef.current = true;
    // From the guard entry: past the editor's own entry to the page before it.
    window.history.go(onGuardRef.current ? -2 : -1);
  }, []);

  return { leave, leavingRef };
}
