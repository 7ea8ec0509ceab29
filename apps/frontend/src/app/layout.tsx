import type { Metadata, Viewport } from 'next';
import { headers } from 'next/headers';
import type { ReactNode } from 'react';
import { ThemeProvider } from 'next-themes';
import { ImageHostsProvider } from '@/components/markdown/image-policy';
import { QueryProvider } from '@/components/query-provider';
import { parseImageHosts } from '@/lib/image-hosts';
import { ThemedToaster } from '@/components/theme/themed-toaster';
import { THEME_STORAGE_KEY } from '@/components/theme/theme';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'Baton', template: '%s · Baton' },
  description: 'Chat with AI agents that hand work to other agents.',
};

export const viewport: Viewport = {
  width: 'device-width',
  initialScale: 1,
  themeColor: [
    { media: '(prefers-color-scheme: light)', color: '#ffffff' },
    { media: '(prefers-color-scheme: dark)', color: '#0a0a0a' },
  ],
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // The nonce of this response's Content-Security-Policy (proxy.ts): next-themes' inline script
  // needs it; Next finds it by itself for its own scripts.
  const nonce = (await headers()).get('x-nonce') ?? undefined;
  // Read per request, like the policy's list, so the two always agree.
  const imageHosts = parseImageHosts(process.env.BATON_IMAGE_HOSTS);
  return (
    // next-themes sets the class on <html> before React hydrates (its inline script), so no wrong theme flashes.
    <html lang="en" suppressHydrationWarning>
      <body className="font-sans">
        <ThemeProvider attribute="class" defaultTheme="system" enableSystem storageKey={THEME_STORAGE_KEY} disableTransitionOnChange nonce={nonce}>
          <QueryProvider>
            <ImageHostsProvider hosts={imageHosts}>{children}</ImageHostsProvider>
          </QueryProvider>
          <ThemedToaster />
        </ThemeProvider>
      </body>
    </html>
  );
}
