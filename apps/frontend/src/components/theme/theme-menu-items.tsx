'use client';

import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { Check, Monitor, Moon, Sun } from 'lucide-react';
import { useTheme } from 'next-themes';
import { useEffect, useState } from 'react';
import { MenuLabel } from '../ui/menu';
import { THEMES } from './theme';

const icons = { system: Monitor, light: Sun, dark: Moon };

/** System / Light / Dark as radio items of a menu; the choice is remembered in this browser. */
export function ThemeMenuItems() {
  const { theme, setTheme } = useTheme();
  // The stored choice is only known in the browser: until mounted, nothing is shown as checked.
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  return (
    <DropdownMenu.Group>
      <MenuLabel>Theme</MenuLabel>
      <DropdownMenu.RadioGroup value={mounted ? (theme ?? 'system') : ''} onValueChange={setTheme}>
        {THEMES.map(({ value, label }) => {
          const Icon = icons[value];
          return (
            <DropdownMenu.RadioItem
              key={value}
              value={value}
              // Picking a theme keeps the menu open, so the change can be seen and changed again.
              onSelect={(e) => e.preventDefault()}
              className="flex min-h-11 cursor-pointer select-none items-center gap-2 rounded-lg px-2 py-2 text-neutral-800 outline-none data-[highlighted]:bg-neutral-100 md:min-h-0 dark:text-neutral-200 dark:data-[highlighted]:bg-neutral-800"
            >
              <Icon className="h-4 w-4" aria-hidden />
              <span className="flex-1">{label}</span>
              <DropdownMenu.ItemIndicator>
                <Check className="h-4 w-4" aria-hidden />
              </DropdownMenu.ItemIndicator>
            </DropdownMenu.RadioItem>
          );
        })}
      </DropdownMenu.RadioGroup>
    </DropdownMenu.Group>
  );
}
