import type { Metadata, Viewport } from 'next';
import type { ReactNode } from 'react';
import { Toaster } from 'sonner';
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

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="font-sans">
        {children}
        {/* Top centre: a toast never covers a form's button bar (bottom) or a page header's actions (top right). */}
        <Toaster position="top-center" theme="system" richColors closeButton />
      </body>
    </html>
  );
}
