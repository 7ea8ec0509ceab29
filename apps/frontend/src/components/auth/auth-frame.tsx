import type { ReactNode } from 'react';

/** The frame of the pages a visitor sees before signing in: the Baton mark and one card. */
export function AuthFrame({ title, description, children, footer }: { title: string; description?: ReactNode; children?: ReactNode; footer?: ReactNode }) {
  return (
    <main className="grid min-h-dvh place-items-center bg-neutral-50 px-4 py-10 dark:bg-neutral-950">
      <div className="w-full max-w-sm">
        <div className="mb-6 flex items-center justify-center gap-2">
          <span className="grid h-8 w-8 place-items-center rounded-lg bg-indigo-600 text-base font-bold text-white" aria-hidden>
            B
          </span>
          <span className="text-lg font-semibold tracking-tight text-neutral-900 dark:text-neutral-50">Baton</span>
        </div>
        <section className="rounded-xl border border-neutral-200 bg-white p-6 shadow-sm dark:border-neutral-800 dark:bg-neutral-900">
          <h1 className="text-xl font-semibold tracking-tight text-neutral-900 dark:text-neutral-50">{title}</h1>
          {description && <div className="mt-1.5 text-sm text-neutral-600 dark:text-neutral-400">{description}</div>}
          {children && <div className="mt-5">{children}</div>}
        </section>
        {footer && <div className="mt-4 text-center text-sm text-neutral-600 dark:text-neutral-400">{footer}</div>}
      </div>
    </main>
  );
}
