import type { Metadata } from 'next';
import { SetupView } from '@/components/auth/setup-view';

export const metadata: Metadata = { title: 'Create the owner account' };

export default function SetupPage() {
  return <SetupView />;
}
