'use client';

import { createContext, type ReactNode, useContext } from 'react';

/**
 * What the markdown renderer may load without asking (see remote-image.tsx):
 * - `hosts`: the operator's allow list (BATON_IMAGE_HOSTS, read by the root layout on the
 *   server at each request, the same list the Content-Security-Policy names);
 * - `quoted`: the text is a sub-agent's or a tool's output (a sub-chat, a delegation result),
 *   where nothing loads without a click, allow list or not.
 */
const ImageHostsContext = createContext<readonly string[]>([]);
const QuotedContext = createContext(false);

export function ImageHostsProvider({ hosts, children }: { hosts: readonly string[]; children: ReactNode }) {
  return <ImageHostsContext.Provider value={hosts}>{children}</ImageHostsContext.Provider>;
}

/** Wraps what a sub-agent or a tool wrote: its images wait for a click. */
export function QuotedOutput({ children }: { children: ReactNode }) {
  return <QuotedContext.Provider value>{children}</QuotedContext.Provider>;
}

export function useImagePolicy(): { hosts: readonly string[]; quoted: boolean } {
  return { hosts: useContext(ImageHostsContext), quoted: useContext(QuotedContext) };
}
