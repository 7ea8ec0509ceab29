import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';

/** What to show when a list is empty: what it is and what to do next. */
export function EmptyState({ icon: Icon, title, children, action }: { icon: LucideIcon; title: string; children: ReactNode; action?: ReactNode }) {
  return (
    <div className="flex flex-col items-center gap-3 rounded-xl border border-dashed border-neutral-300 px-6 py-10 text-center dark:border-neutral-700">
      <div className="rounded-full bg-neutral-100 p-3 dark:bg-neutral-800">
        <Icon className="h-6 w-6 text-neutral-500" aria-hidden />
      </div>
      <h2 className="text-base font-semibold text-neutral-900 dark:text-neutral-100">{title}</h2>
      <div className="max-w-md text-sm text-neutral-600 dark:text-neutral-400">{children}</div>
      {action}
    </div>
  );
}
