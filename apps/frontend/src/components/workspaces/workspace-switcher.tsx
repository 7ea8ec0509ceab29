'use client';

import { Check, ChevronsUpDown, Plus } from 'lucide-react';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { ROLE_LABELS } from '@/lib/roles';
import { useSession } from '@/lib/session';
import { Menu, MenuContent, MenuItem, MenuLabel, MenuSeparator, MenuTrigger } from '../ui/menu';
import { NewWorkspaceDialog } from './new-workspace-dialog';

/** The current workspace's name; opens the list of the person's workspaces and "New workspace". */
export function WorkspaceSwitcher({ workspaceId }: { workspaceId: string }) {
  const router = useRouter();
  const memberships = useSession((s) => s.me?.memberships ?? []);
  const [creating, setCreating] = useState(false);
  const current = memberships.find((m) => m.workspaceId === workspaceId);

  return (
    <>
      <Menu>
        <MenuTrigger
          aria-label={`Workspace: ${current?.workspaceName ?? workspaceId}. Switch workspace`}
          className="flex w-full min-w-0 cursor-pointer items-center gap-2 rounded-lg px-2 py-1.5 text-left hover:bg-neutral-200/60 focus-visible:outline-2 focus-visible:outline-indigo-500 data-[state=open]:bg-neutral-200/60 dark:hover:bg-neutral-800 dark:data-[state=open]:bg-neutral-800"
        >
          <span className="grid h-7 w-7 shrink-0 place-items-center rounded-lg bg-indigo-600 text-sm font-bold text-white" aria-hidden>
            B
          </span>
          <span className="min-w-0 flex-1">
            <span className="block truncate text-sm font-semibold text-neutral-900 dark:text-neutral-50">{current?.workspaceName ?? 'Baton'}</span>
            <span className="block truncate text-xs text-neutral-500">{current ? ROLE_LABELS[current.role] : 'Workspace'}</span>
          </span>
          <ChevronsUpDown className="h-4 w-4 shrink-0 text-neutral-500" aria-hidden />
        </MenuTrigger>
        <MenuContent align="start" className="w-64">
          <MenuLabel>Your workspaces</MenuLabel>
          {memberships.map((m) => (
            <MenuItem key={m.workspaceId} onSelect={() => router.push(`/w/${encodeURIComponent(m.workspaceId)}`)}>
              <span className="min-w-0 flex-1 truncate">{m.workspaceName}</span>
              <span className="text-xs text-neutral-500">{ROLE_LABELS[m.role]}</span>
              {m.workspaceId === workspaceId ? <Check className="h-4 w-4 text-indigo-600" aria-label="current" /> : <span className="w-4" />}
            </MenuItem>
          ))}
          <MenuSeparator />
          <MenuItem onSelect={() => setCreating(true)}>
            <Plus className="h-4 w-4" aria-hidden />
            New workspace
          </MenuItem>
        </MenuContent>
      </Menu>
      <NewWorkspaceDialog open={creating} onOpenChange={setCreating} />
    </>
  );
}
