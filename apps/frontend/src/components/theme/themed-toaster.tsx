'use client';

import { useTheme } from 'next-themes';
import { Toaster } from 'sonner';

/**
 * Toasts in the theme the page shows (the chosen one, not just the OS's), at the top centre:
 * a toast never covers a form's button bar (bottom) or a page header's actions (top right).
 */
export function ThemedToaster() {
  const { resolvedTheme } = useTheme();
  return <Toaster position="top-center" theme={resolvedTheme === 'dark' ? 'dark' : 'light'} richColors closeButton />;
}
