/**
 * Where focus goes when a dialog that was opened without a Radix `Dialog.Trigger` closes
 * (Radix then has nothing to return it to, and it would fall to the page's body): the
 * first of `candidates` that can still take it — connected, enabled, not inside an inert
 * part of the page.
 */
export function restoreFocus(...candidates: (Element | null | undefined)[]): void {
  const usable = (el: Element | null | undefined): el is HTMLElement =>
    el instanceof HTMLElement && el.isConnected && el !== document.body && !(el as HTMLButtonElement).disabled && !el.closest('[inert]');
  candidates.find(usable)?.focus();
}

/** What has focus now (a dialog's opener, read as it opens), or null for the body. */
export function focusedElement(): HTMLElement | null {
  const el = document.activeElement;
  return el instanceof HTMLElement && el !== document.body ? el : null;
}
