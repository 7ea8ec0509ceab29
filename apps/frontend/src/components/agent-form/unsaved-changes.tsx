'use client';

import { useRouter } from 'next/navigation';
import { useEffect, useRef, useState } from 'react';
import { Button } from '../ui/button';
import { Dialog } from '../ui/dialog';
import { useBackButtonGuard } from './back-button-guard';

/** Where the person was going: a page inside the app, or back in the browser's history. */
type Leaving = { to: string } | { back: true };

/**
 * Keeps unsaved edits from being lost: while `dirty`, closing or reloading the tab asks
 * the browser's own question (beforeunload), and following a link inside the app (the
 * sidebar, "Agents", Cancel) or pressing the browser's Back asks first: Save, Discard or
 * Keep editing. `save` resolves true when the changes were saved; the person then goes
 * where they were going.
 */
export function useUnsavedChangesGuard({ dirty, save }: { dirty: boolean; save: () => Promise<boolean> }) {
  const router = useRouter();
  const [leaving, setLeaving] = useState<Leaving | null>(null);
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;
  const back = useBackButtonGuard({ dirty, onBack: () => setLeaving({ back: true }) });

  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      // Going Back to a page outside this document after "Discard": already answered.
      if (back.leavingRef.current) return;
      event.preventDefault();
      // Older browsers show the dialog only when a value is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty, back.leavingRef]);

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
      setLeaving({ to: url.pathname + url.search + url.hash });
    };
    document.addEventListener('click', onClick, true);
    return () => document.removeEventListener('click', onClick, true);
  }, []);

  const go = (where: Leaving) => {
    if ('back' in where) back.leave();
    else router.push(where.to);
  };
  const dialog = (
    <UnsavedChangesDialog
      open={leaving !== null}
      onKeepEditing={() => setLeaving(null)}
      onDiscard={() => {
        const where = leaving;
        dirtyRef.current = false;
        setLeaving(null);
        if (where) go(where);
      }}
      onSave={async () => {
        const where = leaving;
        const saved = await save();
        setLeaving(null);
        if (saved && where) {
          dirtyRef.current = false;
          go(where);
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
      // Three buttons side by side need the wider dialog; a label never breaks inside its button.
      size="md"
    >
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end [&>button]:whitespace-nowrap">
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
