'use client';

import { type ClipboardEvent, useCallback, useEffect, useRef, useState } from 'react';
import { api } from '@/lib/api-client';
import { rememberFileSize } from '@/lib/file-sizes';
import { admitFiles, type Attachment, isImageType, nameOf, pastedFiles, tooManyFilesText, uploadErrorText } from '@/lib/attachments';

let nextKey = 0;

/**
 * The files of a message being written (the composer's, a steering box's): each one added is
 * uploaded at once (progress on its chip), removed with its upload cancelled, and its local
 * preview released when it goes. `clear` after a send keeps the uploads (the message now
 * holds them) and drops the chips. `paste` is a text box's paste handler.
 */
export function useAttachments(workspaceId: string | undefined) {
  const [attachments, setAttachments] = useState<Attachment[]>([]);
  // The latest list, for `add` (several drops before a render must not overfill the message).
  const current = useRef<Attachment[]>([]);
  const uploads = useRef(new Map<string, AbortController>());

  const update = useCallback((change: (list: Attachment[]) => Attachment[]) => {
    current.current = change(current.current);
    setAttachments(current.current);
  }, []);
  const patch = useCallback(
    (key: string, values: Partial<Attachment>) => update((list) => list.map((a) => (a.key === key ? { ...a, ...values } : a))),
    [update],
  );

  const add = useCallback(
    (files: readonly File[]) => {
      if (!workspaceId || files.length === 0) return;
      const { admitted, overLimit } = admitFiles(current.current, files);
      const chip = (file: File, values: Partial<Attachment>): Attachment => ({
        key: `attachment-${++nextKey}`,
        name: nameOf(file),
        size: file.size,
        mediaType: file.type,
        status: 'uploading',
        progress: 0,
        ...values,
      });
      const added = admitted.map((file) => ({ file, chip: chip(file, isImageType(file.type) ? { previewUrl: URL.createObjectURL(file) } : {}) }));
      const refused = overLimit.map((file) => chip(file, { status: 'failed', error: tooManyFilesText(nameOf(file)) }));
      update((list) => [...list, ...added.map((a) => a.chip), ...refused]);
      for (const {
        file,
        chip: { key, name },
      } of added) {
        const controller = new AbortController();
        uploads.current.set(key, controller);
        const named = file.name === name ? file : new File([file], name, { type: file.type });
        api.files
          .upload(workspaceId, named, { signal: controller.signal, onProgress: (progress) => patch(key, { progress }) })
          .then((stored) => {
            rememberFileSize(stored.url, stored.size);
            patch(key, { status: 'ready', progress: 1, file: stored, mediaType: stored.mediaType, name: stored.name });
          })
          .catch((err) => {
            if (!controller.signal.aborted) patch(key, { status: 'failed', error: uploadErrorText(name, err) });
          })
          .finally(() => uploads.current.delete(key));
      }
    },
    [workspaceId, update, patch],
  );

  const remove = useCallback(
    (key: string) => {
      uploads.current.get(key)?.abort();
      const gone = current.current.find((a) => a.key === key);
      if (gone?.previewUrl) URL.revokeObjectURL(gone.previewUrl);
      update((list) => list.filter((a) => a.key !== key));
    },
    [update],
  );

  const clear = useCallback(() => {
    for (const a of current.current) if (a.previewUrl) URL.revokeObjectURL(a.previewUrl);
    update(() => []);
  }, [update]);

  // A screenshot pasted from the clipboard (or files copied in a file manager) is attached;
  // pasted text stays the browser's.
  const paste = useCallback(
    (event: ClipboardEvent) => {
      const pasted = pastedFiles(event.clipboardData);
      if (pasted.length === 0 || !workspaceId) return;
      event.preventDefault();
      add(pasted);
    },
    [workspaceId, add],
  );

  // Leaving the page cancels uploads nobody can send any more and frees the previews.
  useEffect(
    () => () => {
      for (const controller of uploads.current.values()) controller.abort();
      for (const a of current.current) if (a.previewUrl) URL.revokeObjectURL(a.previewUrl);
    },
    [],
  );

  return { attachments, add, remove, clear, paste };
}
