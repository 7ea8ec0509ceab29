'use client';

import { Check, Copy } from 'lucide-react';
import { toast } from 'sonner';
import { useCopyToClipboard } from '@/lib/use-copy-to-clipboard';
import { Button } from './button';
import { Input } from './input';

/** A secret or link shown for copying: read-only, selected on focus, with a copy button. */
export function CopyField({ id, label, value }: { id: string; label: string; value: string }) {
  const { copied, copy } = useCopyToClipboard();

  async function onCopy() {
    if (!(await copy(value))) toast.error('The browser did not allow copying: select the text and copy it by hand.');
  }

  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-neutral-800 dark:text-neutral-200">
        {label}
      </label>
      <div className="flex gap-2">
        <Input id={id} readOnly value={value} onFocus={(ev) => ev.currentTarget.select()} spellCheck={false} className="font-mono text-[13px]" />
        <Button variant="secondary" onClick={() => void onCopy()} aria-label={`Copy ${label.toLowerCase()}`} className="shrink-0">
          {copied ? <Check className="h-4 w-4 text-emerald-600" aria-hidden /> : <Copy className="h-4 w-4" aria-hidden />}
          {copied ? 'Copied' : 'Copy'}
        </Button>
      </div>
    </div>
  );
}
