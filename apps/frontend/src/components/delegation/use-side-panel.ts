'use client';

import { useEffect, useSyncExternalStore } from 'react';

/** From this width on (Tailwind's `xl`) the sub-agents sit next to the chat instead of over it. */
export const SIDE_PANEL_QUERY = '(min-width: 1280px)';

function subscribe(onChange: () => void) {
  const query = window.matchMedia(SIDE_PANEL_QUERY);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

/** The person's choice, kept for the next delegations (this browser). */
const PREFERENCE_KEY = 'baton.delegation.sidePanel';
const PREFERENCE_EVENT = 'baton:side-panel-preference';

function subscribePreference(onChange: () => void) {
  window.addEventListener(PREFERENCE_EVENT, onChange);
  window.addEventListener('storage', onChange);
  return () => {
    window.removeEventListener(PREFERENCE_EVENT, onChange);
    window.removeEventListener('storage', onChange);
  };
}

function readPreference(): boolean {
  try {
    return window.localStorage.getItem(PREFERENCE_KEY) === 'on';
  } catch {
    return false;
  }
}

export function setSidePanelPreference(on: boolean) {
  try {
    window.localStorage.setItem(PREFERENCE_KEY, on ? 'on' : 'off');
  } catch {
    // Storage refused (private mode): the choice lasts until the event below is forgotten.
  }
  window.dispatchEvent(new Event(PREFERENCE_EVENT));
}

/**
 * How the sub-agents show: `wide` — the screen has room for a side panel next to the chat
 * (then the layout is offered); `sidePanel` — the person chose it there. Phones always get
 * the modal sheet.
 */
export function useSidePanelLayout(): { wide: boolean; sidePanel: boolean } {
  const wide = useSyncExternalStore(
    subscribe,
    () => window.matchMedia(SIDE_PANEL_QUERY).matches,
    () => false,
  );
  const preferred = useSyncExternalStore(subscribePreference, readPreference, () => false);
  return { wide, sidePanel: wide && preferred };
}

/**
 * Marks the page while the side panel is open, so the app's main column makes room for it
 * (globals.css: `body[data-delegation-panel]`) rather than lying under it.
 */
export function useMakeRoomForPanel(open: boolean) {
  useEffect(() => {
    if (!open) return;
    document.body.dataset.delegationPanel = 'open';
    return () => {
      delete document.body.dataset.delegationPanel;
    };
  }, [open]);
}
