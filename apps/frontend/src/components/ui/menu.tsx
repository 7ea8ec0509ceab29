'use client';

import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import type { ComponentProps } from 'react';

/**
 * A menu opened from a button (Radix dropdown menu: arrow keys, typeahead, Escape, focus
 * returned to the trigger). Compose `Menu`, `MenuTrigger`, `MenuContent` and the items.
 */
export const Menu = DropdownMenu.Root;
export const MenuTrigger = DropdownMenu.Trigger;

export function MenuContent({ className = '', sideOffset = 6, ...props }: ComponentProps<typeof DropdownMenu.Content>) {
  return (
    <DropdownMenu.Portal>
      <DropdownMenu.Content
        sideOffset={sideOffset}
        collisionPadding={8}
        className={
          'z-50 min-w-56 max-w-[calc(100vw-1rem)] rounded-xl border border-neutral-200 bg-white p-1 text-sm shadow-lg ' +
          'dark:border-neutral-800 dark:bg-neutral-900 ' +
          className
        }
        {...props}
      />
    </DropdownMenu.Portal>
  );
}

export function MenuItem({ className = '', ...props }: ComponentProps<typeof DropdownMenu.Item>) {
  return (
    <DropdownMenu.Item
      className={
        'flex cursor-pointer select-none items-center gap-2 rounded-lg px-2 py-2 text-neutral-800 outline-none ' +
        'data-[highlighted]:bg-neutral-100 data-[disabled]:pointer-events-none data-[disabled]:opacity-50 ' +
        'dark:text-neutral-200 dark:data-[highlighted]:bg-neutral-800 ' +
        className
      }
      {...props}
    />
  );
}

export function MenuLabel({ className = '', ...props }: ComponentProps<typeof DropdownMenu.Label>) {
  return <DropdownMenu.Label className={`px-2 py-1.5 text-xs font-medium text-neutral-500 ${className}`} {...props} />;
}

export function MenuSeparator() {
  return <DropdownMenu.Separator className="my-1 h-px bg-neutral-200 dark:bg-neutral-800" />;
}
