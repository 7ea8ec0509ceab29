'use client';

import { useEffect, useState } from 'react';

const FEEDBACK_MS = 2_000;

/**
 * Copies text and reports `copied` for a moment, for a button's check-mark feedback.
 * `copy` resolves false when the browser refuses clipboard access (insecure context, denied).
 */
export function useCopyToClipboard(): { copied: boolean; copy: (text: string) => Promise<boolean> } {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), FEEDBACK_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  async function copy(text: string) {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      return true;
    } catch {
      return false;
    }
  }
  return { copied, copy };
}
