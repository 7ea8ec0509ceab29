'use client';

import { Bot, KeyRound, PlugZap, Server, SquarePen, Users } from 'lucide-react';
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import type { LucideIcon } from 'lucide-react';
import { buttonClasses } from '../ui/button';
import { UserMenu } from '../workspaces/user-menu';
import { WorkspaceSwitcher } from '../workspaces/workspace-switcher';
import { ChatList } from './chat-list';
import { ChatSearch } from './chat-search';

/**
 * Navigation for one workspace: the workspace switcher, new chat, the workspace's pages,
 * the person's chat history, and their account at the bottom.
 */
export function Sidebar({ workspaceId }: { workspaceId: string }) {
  const base = `/w/${encodeURIComponent(workspaceId)}`;
  return (
    <nav aria-label="Sidebar" className="flex h-full min-h-0 flex-col gap-3 p-3">
      {/* Room on the right for the drawer's close button. */}
      <div className="pr-12 md:pr-0">
        <WorkspaceSwitcher workspaceId={workspaceId} />
      </div>
      <Link href={base} className={buttonClasses('secondary', 'md', 'w-full justify-start max-md:h-11')}>
        <SquarePen className="h-4 w-4" aria-hidden />
        New chat
      </Link>
      <ul className="flex flex-col gap-0.5">
        <NavLink href={`${base}/agents`} icon={Bot} label="Agents" />
        <NavLink href={`${base}/settings/providers`} icon={PlugZap} label="Providers" />
        <NavLink href={`${base}/settings/tool-servers`} icon={Server} label="Tool servers" />
        <NavLink href={`${base}/settings/members`} icon={Users} label="Members" />
        <NavLink href={`${base}/settings/api-keys`} icon={KeyRound} label="API keys" />
      </ul>
      <div className="mt-1 flex min-h-0 flex-1 flex-col">
        <ChatSearch
          workspaceId={workspaceId}
          list={
            <>
              <ChatList workspaceId={workspaceId} />
            </>
          }
        />
      </div>
      <div className="-mx-1 border-t border-neutral-200 pt-2 dark:border-neutral-800">
        <UserMenu workspaceId={workspaceId} />
      </div>
    </nav>
  );
}

function NavLink({ href, icon: Icon, label }: { href: string; icon: LucideIcon; label: string }) {
  const pathname = usePathname();
  const active = pathname === href || pathname.startsWith(`${href}/`);
  return (
    <li>
      <Link
        href={href}
        aria-current={active ? 'page' : undefined}
        className={
          'flex min-h-11 items-center gap-2 rounded-lg px-2 py-2 text-sm transition-colors md:min-h-0 ' +
          (active
            ? 'bg-neutral-200/80 font-medium text-neutral-900 dark:bg-neutral-800 dark:text-neutral-50'
            : 'text-neutral-700 hover:bg-neutral-200/50 dark:text-neutral-300 dark:hover:bg-neutral-800/60')
        }
      >
        <Icon className="h-4 w-4" aria-hidden />
        {label}
      </Link>
    </li>
  );
}
