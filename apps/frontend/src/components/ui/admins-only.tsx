import { ShieldCheck } from 'lucide-react';
import type { ReactNode } from 'react';

/** What a member sees in place of something only workspace admins may do. */
export function AdminsOnly({ children }: { children: ReactNode }) {
  return (
    <div
      role="note"
      aria-label="Admins only"
      className="flex items-start gap-3 rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:border-amber-900/60 dark:bg-amber-950/40 dark:text-amber-200"
    >
      <ShieldCheck className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
      <div>
        <p className="font-medium">Admins only</p>
        <div className="mt-0.5 text-amber-800 dark:text-amber-300">{children}</div>
      </div>
    </div>
  );
}
