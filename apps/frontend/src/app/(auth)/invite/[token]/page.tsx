import type { Metadata } from 'next';
import { InviteView } from '@/components/auth/invite-view';
import { routeParam } from '@/lib/route-param';

// The token is in the address: no page this one links to learns it.
export const metadata: Metadata = { title: 'Invitation', referrer: 'no-referrer' };

export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  return <InviteView token={routeParam(token)} />;
}
