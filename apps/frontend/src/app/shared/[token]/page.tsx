import type { Metadata } from 'next';
import { SharedChatView } from '@/components/shared/shared-chat-view';
import { routeParam } from '@/lib/route-param';

// The token is in the address: no page this one links to learns it, and no search engine lists it.
export const metadata: Metadata = { title: 'Shared chat', referrer: 'no-referrer', robots: { index: false, follow: false } };

/** A chat shared by a link: open to anyone holding it, signed in or not (proxy.ts lets it through). */
export default async function SharedChatPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  return <SharedChatView token={routeParam(token)} />;
}
