'use client';

import { KeyRound, Link2, LogOut } from 'lucide-react';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { ThemeMenuItems } from '../theme/theme-menu-items';
import { signOut } from '@/lib/sign-out';
import { useSession } from '@/lib/session';
import { Menu, MenuContent, MenuItem, MenuSeparator, MenuTrigger } from '../ui/menu';
import { ChangePasswordDialog } from './change-password-dialog';

function initials(name: string): string {
  const letters = name
    .trim()
    .split(/\s+/)
    .slice(0, 2)
    .map((word) => word[0]?.toUpperCase() ?? '');
  return letters.join('') || '?';
}

/** Who is signed in, their shared links, the theme, the password, and sign-out. */
export function UserMenu({ workspaceId }: { workspaceId: string }) {
  const user = useSession((s) => s.me?.user);
  const router = useRouter();
  const [changingPassword, setChangingPassword] = useState(false);
  if (!user) return null;
  return (
    <>
      <Menu>
        <MenuTrigger
          aria-label={`Account: ${user.name}`}
          className="flex w-full min-w-0 cursor-pointer items-center gap-2 rounded-lg px-2 py-1.5 text-left hover:bg-neutral-200/60 focus-visible:outline-2 focus-visible:outline-indigo-500 data-[state=open]:bg-neutral-200/60 dark:hover:bg-neutral-800 dark:data-[state=open]:bg-neutral-800"
        >
          <span
            className="grid h-8 w-8 shrink-0 place-items-center rounded-full bg-neutral-200 text-xs font-semibold text-neutral-700 dark:bg-neutral-700 dark:text-neutral-200"
            aria-hidden
          >
            {initials(user.name)}
          </span>
          <span className="min-w-0 flex-1">
            <span className="block truncate text-sm font-medium text-neutral-900 dark:text-neutral-50">{user.name}</span>
            <span className="block truncate text-xs text-neutral-500">{user.email}</span>
          </span>
        </MenuTrigger>
        <MenuContent align="start" side="top" className="w-64">
          <div className="px-2 py-1.5">
            <p className="truncate text-sm font-medium text-neutral-900 dark:text-neutral-50">{user.name}</p>
            <p className="truncate text-xs text-neutral-500">{user.email}</p>
          </div>
          <MenuSeparator />
          <MenuItem onSelect={() => router.push(`/w/${encodeURIComponent(workspaceId)}/settings/shared-links`)}>
            <Link2 className="h-4 w-4" aria-hidden />
            Shared links
          </MenuItem>
          <MenuSeparator />
          <ThemeMenuItems />
          <MenuSeparator />
          <MenuItem onSelect={() => setChangingPassword(true)}>
            <KeyRound className="h-4 w-4" aria-hidden />
            Change password
          </MenuItem>
          <MenuItem onSelect={() => void signOut()}>
            <LogOut className="h-4 w-4" aria-hidden />
            Sign out
          </MenuItem>
        </MenuContent>
      </Menu>
      <ChangePasswordDialog open={changingPassword} onOpenChange={setChangingPassword} />
    </>
  );
}
