'use client';

import { useEffect, useState } from 'react';

type Highlighter = typeof import('rehype-highlight').default;

// highlight.js with its common languages is the largest part of the chat page's script:
// it is fetched once, the first time an answer contains a fenced code block with a language.
let loaded: Highlighter | undefined;
let loading: Promise<Highlighter> | undefined;

/**
 * A fence with a language (```ts): the only code rehype-highlight colours (detection is
 * off). Matched anywhere, as fences may sit in quotes and lists; a false hit only loads
 * the highlighter early.
 */
const LANGUAGE_FENCE = /(```|~~~)[ \t]*[\w#+.-]+/;

export function needsHighlighting(markdown: string): boolean {
  return LANGUAGE_FENCE.test(markdown);
}

/** The rehype-highlight plugin once loaded, when `needed`; undefined meanwhile (code shows plain). */
export function useCodeHighlighter(needed: boolean): Highlighter | undefined {
  const [highlighter, setHighlighter] = useState<Highlighter | undefined>(() => loaded);
  useEffect(() => {
    if (!needed || highlighter) return;
    let current = true;
    loading ??= import('rehype-highlight').then((module) => (loaded = module.default));
    void loading.then((plugin) => current && setHighlighter(() => plugin));
    return () => {
      current = false;
    };
  }, [needed, highlighter]);
  return needed ? highlighter : undefined;
}
