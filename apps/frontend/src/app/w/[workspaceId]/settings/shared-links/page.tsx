import type { Metadata } from 'next';
import { SharedLinksSettings } from '@/components/shares/shared-links-settings';
import { routeParam } from '@/lib/route-param';

export const metadata: Metadata = { title: 'Shared links' };

export default async function SharedLinksPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = await params;
  return <SharedLinksSettings workspaceId={routeParam(workspaceId)} />;
}
