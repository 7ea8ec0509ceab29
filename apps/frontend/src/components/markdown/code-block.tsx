'use client';

import { Check, Copy } from 'lucide-react';
import { useRef, type ComponentProps } from 'react';
import { useCopyToClipboard } from '@/lib/use-copy-to-clipboard';

/** A fenced code block with a Copy button, as in every chat product people know. */
export function CodeBlock(props: ComponentProps<'pre'>) {
  const pre = useRef<HTMLPreElement>(null);
  // Without clipboard access the code stays selectable by hand.
  const { copied, copy: copyText } = useCopyToClipboard();
  const copy = () => copyText(pre.current?.textContent ?? '');

  return (
    <div className="markdown-code">
      <pre ref={pre} {...props} />
      <button type="button" onClick={() => void copy()} aria-label={copied ? 'Copied' : 'Copy code'} title="Copy code" className="markdown-code-copy">
        {copied ? <Check className="h-3.5 w-3.5" aria-hidden /> : <Copy className="h-3.5 w-3.5" aria-hidden />}
      </button>
    </div>
  );
}
