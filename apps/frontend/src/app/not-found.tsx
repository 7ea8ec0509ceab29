import Link from 'next/link';
import { buttonClasses } from '@/components/ui/button';

export default function NotFound() {
  return (
    <main className="grid min-h-dvh place-items-center p-6 text-center">
      <div className="flex flex-col items-center gap-3">
        <h1 className="text-2xl font-semibold">Page not found</h1>
        <p className="text-sm text-neutral-600 dark:text-neutral-400">There is nothing at this address.</p>
        <Link href="/" className={buttonClasses('primary')}>
          Go to Baton
        </Link>
      </div>
    </main>
  );
}
