'use client';

import { Braces, Ellipsis, FileText, Share2 } from 'lucide-react';
import { useState } from 'react';
import { api } from '@/lib/api-client';
import { ShareDialog } from '../shares/share-dialog';
import { Menu, MenuContent, MenuItem, MenuLabel, MenuSeparator, MenuTrigger } from '../ui/menu';

/** Downloads through a plain link: the session cookie goes with it, and the answer is an attachment with its own file name. */
function download(url: string) {
  const a = document.createElement('a');
  a.href = url;
  a.download = '';
  document.body.append(a);
  a.click();
  a.remove();
}

/** The chat header's menu: share the chat read-only, or take it away as Markdown or JSON (which Import reads back). */
export function ChatMenu({ workspaceId, chatId }: { workspaceId: string; chatId: string }) {
  const [sharing, setSharing] = useState(false);
  return (
    <>
      <Menu>
        <MenuTrigger
          aria-label="Chat actions"
          className="inline-flex h-8 w-8 shrink-0 cursor-pointer items-center justify-center rounded-md text-neutral-600 hover:bg-neutral-100 hover:text-neutral-900 focus-visible:outline-2 focus-visible:outline-indigo-500 data-[state=open]:bg-neutral-100 max-md:h-11 max-md:w-11 dark:text-neutral-400 dark:hover:bg-neutral-800 dark:hover:text-neutral-100 dark:data-[state=open]:bg-neutral-800"
        >
          <Ellipsis className="h-4 w-4" aria-hidden />
        </MenuTrigger>
        <MenuContent align="end">
          <MenuItem onSelect={() => setSharing(true)}>
            <Share2 className="h-4 w-4" aria-hidden />
            Share…
          </MenuItem>
          <MenuSeparator />
          <MenuLabel>Export</MenuLabel>
          <MenuItem onSelect={() => download(api.chats.exportUrl(workspaceId, chatId, 'markdown'))}>
            <FileText className="h-4 w-4" aria-hidden />
            Export as Markdown
          </MenuItem>
          <MenuItem onSelect={() => download(api.chats.exportUrl(workspaceId, chatId, 'json'))}>
            <Braces className="h-4 w-4" aria-hidden />
            Export as JSON
          </MenuItem>
        </MenuContent>
      </Menu>
      <ShareDialog workspaceId={workspaceId} chatId={chatId} open={sharing} onOpenChange={setSharing} />
    </>
  );
}
