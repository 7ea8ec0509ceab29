/*
 * Sizes of the files uploaded in this tab, by URL. A message's `file` part carries name, type
 * and URL but no size, and the API has no call that says it without the bytes; the file cards
 * of the messages sent from this tab show it from here (after a reload, cards go without).
 */
const sizes = new Map<string, number>();

export function rememberFileSize(url: string, size: number): void {
  sizes.set(url, size);
}

export const knownFileSize = (url: string): number | undefined => sizes.get(url);
