'use client';

import { MAX_IMPORT_BYTES } from '@baton/schemas';
import { Upload } from 'lucide-react';
import { useRouter } from 'next/navigation';
import { useRef, useState } from 'react';
import { toast } from 'sonner';
import { api } from '@/lib/api-client';
import { refreshChatList } from '@/lib/chat-list';
import { Button } from '../ui/button';

/**
 * Import a chat exported as JSON (a chat's ⋯ → Export as JSON, here or on another Baton):
 * it becomes a new chat of this workspace, with its sub-chats, and opens.
 */
export function ImportChatButton({ workspaceId }: { workspaceId: string }) {
  const router = useRouter();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);

  async function importFile(file: File) {
    if (file.size > MAX_IMPORT_BYTES) {
      toast.error(`${file.name} is too large to import: at most ${MAX_IMPORT_BYTES / 1024 / 1024} MiB.`);
      return;
    }
    let exported: unknown;
    try {
      exported = JSON.parse(await file.text());
    } catch {
      toast.error(`${file.name} is not a JSON file. Import takes a chat exported with Export as JSON.`);
      return;
    }
    setBusy(true);
    try {
      const { id } = await api.chats.import(workspaceId, exported);
      refreshChatList(workspaceId);
      toast.success('Chat imported');
      router.push(`/w/${encodeURIComponent(workspaceId)}/chat/${encodeURIComponent(id)}`);
    } catch (err) {
      toast.error(`Could not import ${file.name}: ${(err as Error).message}`);
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <input
        ref={input}
        type="file"
        accept=".json,application/json"
        className="hidden"
        aria-label="Chat export to import"
        onChange={(ev) => {
          const file = ev.target.files?.[0];
          ev.target.value = '';
          if (file) void importFile(file);
        }}
      />
      <Button variant="ghost" size="sm" onClick={() => input.current?.click()} disabled={busy}>
        <Upload className="h-4 w-4" aria-hidden />
        {busy ? 'Importing…' : 'Import a chat'}
      </Button>
    </>
  );
}
