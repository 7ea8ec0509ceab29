import type { Metadata } from 'next';
import { ResetPasswordView } from '@/components/auth/reset-password-view';
import { routeParam } from '@/lib/route-param';

// The token is in the address: no page this one links to learns it.
export const metadata: Metadata = { title: 'Set a new password', referrer: 'no-referrer' };

export default async function ResetPasswordPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  return <ResetPasswordView token={routeParam(token)} />;
}
