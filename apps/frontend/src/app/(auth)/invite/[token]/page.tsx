import type { Metadata } from 'next';
import { InviteView } from '@/components/auth/invite-view';
import { routeParam } from '@/lib/route-param';

// The token is in the address: no page this one links to learns it.
export const metadata: Metadata = { title: 'Invitation', referrer: 'no-referrer' };

export default async function InvitePage({
  params,
  searchParams,
}: {
  params: Promise<{ token: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const [{ token }, { error }] = await Promise.all([params, searchParams]);
  // `error`: single sign-on started here came back without signing in (sso-errors.ts).
  return <InviteView token={routeParam(token)} ssoError={typeof error === 'string' ? error : undefined} />;
}
