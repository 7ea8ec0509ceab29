'use client';

import { useTheme } from 'next-themes';
import { Toaster } from 'sonner';

/** Toasts in the theme the page shows (the chosen one, not just the OS's). */
export function ThemedToaster() {
  const { resolvedTheme } = useTheme();
  return <Toaster position="top-right" theme={resolvedTheme === 'dark' ? 'dark' : 'light'} richColors closeButton />;
}
