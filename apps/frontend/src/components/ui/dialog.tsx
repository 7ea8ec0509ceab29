'use client';

import * as RadixDialog from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import type { ReactNode } from 'react';

interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: ReactNode;
  children: ReactNode;
  /** Wider dialogs for forms. */
  size?: 'sm' | 'md';
}

/** A centred modal with the title and description every dialog must have (focus is trapped and returned). */
export function Dialog({ open, onOpenChange, title, description, children, size = 'sm' }: DialogProps) {
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-40 bg-black/40 backdrop-blur-[1px]" />
        <RadixDialog.Content
          className={
            'fixed left-1/2 top-1/2 z-50 max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] -translate-x-1/2 -translate-y-1/2 ' +
            'overflow-y-auto rounded-xl border border-neutral-200 bg-white p-5 shadow-xl ' +
            'dark:border-neutral-800 dark:bg-neutral-900 ' +
            (size === 'md' ? 'max-w-lg' : 'max-w-md')
          }
        >
          <div className="mb-4 flex items-start justify-between gap-4">
            <div>
              <RadixDialog.Title className="text-lg font-semibold text-neutral-900 dark:text-neutral-50">{title}</RadixDialog.Title>
              <RadixDialog.Description className="mt-1 text-sm text-neutral-600 dark:text-neutral-400">{description}</RadixDialog.Description>
            </div>
            <RadixDialog.Close
              aria-label="Close"
              className="rounded-md p-1 text-neutral-500 hover:bg-neutral-100 hover:text-neutral-900 dark:hover:bg-neutral-800 dark:hover:text-neutral-100"
            >
              <X className="h-4 w-4" aria-hidden />
            </RadixDialog.Close>
          </div>
          {children}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
