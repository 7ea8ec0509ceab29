'use client';

import { Check, Copy } from 'lucide-react';
import { useEffect, useRef, useState, type ComponentProps } from 'react';

/** A fenced code block with a Copy button, as in every chat product people know. */
export function CodeBlock(props: ComponentProps<'pre'>) {
  const pre = useRef<HTMLPreElement>(null);
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(pre.current?.textContent ?? '');
      setCopied(true);
    } catch {
      // No clipboard access (insecure context, denied): the code stays selectable by hand.
    }
  }

  return (
    <div className="markdown-code">
      <pre ref={pre} {...props} />
      <button type="button" onClick={() => void copy()} aria-label={copied ? 'Copied' : 'Copy code'} title="Copy code" className="markdown-code-copy">
        {copied ? <Check className="h-3.5 w-3.5" aria-hidden /> : <Copy className="h-3.5 w-3.5" aria-hidden />}
      </button>
    </div>
  );
}
