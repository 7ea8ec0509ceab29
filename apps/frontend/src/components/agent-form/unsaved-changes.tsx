'use client';

import { useRouter } from 'next/navigation';
import { useEffect, useRef, useState } from 'react';
import { Button } from '../ui/button';
import { Dialog } from '../ui/dialog';

/**
 * Keeps unsaved edits from being lost: while `dirty`, closing or reloading the tab asks
 * the browser's own question (beforeunload), and following a link inside the app (the
 * sidebar, "Agents", Cancel) asks first: Save, Discard or Keep editing. `save` resolves
 * true when the changes were saved; the person then goes where they were going.
 */
export function useUnsavedChangesGuard({ dirty, save }: { dirty: boolean; save: () => Promise<boolean> }) {
  const router = useRouter();
  const [leavingTo, setLeavingTo] = useState<string | null>(null);
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;

  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers show the dialog only when a value is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty]);

  useEffect(() => {
    // Capture phase on the document: before Next's <Link> handles the click on React's root.
    const onClick = (event: MouseEvent) => {
      if (!dirtyRef.current || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const link = (event.target as Element | null)?.closest?.('a[href]');
      if (!(link instanceof HTMLAnchorElement) || (link.target && link.target !== '_self') || link.hasAttribute('download')) return;
      const url = new URL(link.href, window.location.href);
      if (url.origin !== window.location.origin) return;
      if (url.pathname === window.location.pathname && url.search === window.location.search) return;
      event.preventDefault();
      event.stopPropagation();
      setLeavingTo(url.pathname + url.search + url.hash);
    };
    document.addEventListener('click', onClick, true);
    return () => document.removeEventListener('click', onClick, true);
  }, []);

  const dialog = (
    <UnsavedChangesDialog
      open={leavingTo !== null}
      onKeepEditing={() => setLeavingTo(null)}
      onDiscard={() => {
        const to = leavingTo;
        dirtyRef.current = false;
        setLeavingTo(null);
        if (to) router.push(to);
      }}
      onSave={async () => {
        const to = leavingTo;
        const saved = await save();
        setLeavingTo(null);
        if (saved && to) {
          dirtyRef.current = false;
          router.push(to);
        }
      }}
    />
  );
  return { dialog };
}

function UnsavedChangesDialog({
  open,
  onKeepEditing,
  onDiscard,
  onSave,
}: {
  open: boolean;
  onKeepEditing: () => void;
  onDiscard: () => void;
  onSave: () => Promise<void>;
}) {
  const [saving, setSaving] = useState(false);
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !next && !saving && onKeepEditing()}
      title="Save your changes?"
      description="This agent has changes that are not saved yet. Leaving now discards them."
    >
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onKeepEditing} disabled={saving}>
          Keep editing
        </Button>
        <Button variant="secondary" className="text-red-700 dark:text-red-400" onClick={onDiscard} disabled={saving}>
          Discard changes
        </Button>
        <Button
          disabled={saving}
          onClick={() => {
            setSaving(true);
            void onSave().finally(() => setSaving(false));
          }}
        >
          {saving ? 'Saving…' : 'Save and leave'}
        </Button>
      </div>
    </Dialog>
  );
}
