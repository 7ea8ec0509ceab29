import { useId, type ReactNode } from 'react';

/** A titled section of a form or page (a landmark region named by its title). */
export function Card({ title, description, actions, children }: { title: string; description?: ReactNode; actions?: ReactNode; children: ReactNode }) {
  const titleId = useId();
  return (
    <section aria-labelledby={titleId} className="rounded-xl border border-neutral-200 bg-white p-4 md:p-5 dark:border-neutral-800 dark:bg-neutral-900">
      <div className="mb-4 flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h2 id={titleId} className="text-base font-semibold text-neutral-900 dark:text-neutral-50">
            {title}
          </h2>
          {description && <p className="mt-0.5 text-sm text-neutral-600 dark:text-neutral-400">{description}</p>}
        </div>
        {actions}
      </div>
      {children}
    </section>
  );
}
