import type { ReactNode } from 'react';

export function PageContainer({ children, width = 'md' }: { children: ReactNode; width?: 'md' | 'lg' }) {
  return <div className={`mx-auto w-full px-4 py-6 md:px-8 md:py-10 ${width === 'lg' ? 'max-w-5xl' : 'max-w-3xl'}`}>{children}</div>;
}
