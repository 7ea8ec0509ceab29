import type { Metadata } from 'next';
import { ProviderSettings } from '@/components/providers/provider-settings';
import { routeParam } from '@/lib/route-param';

export const metadata: Metadata = { title: 'Providers' };

export default async function ProvidersPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = await params;
  return <ProviderSettings workspaceId={routeParam(workspaceId)} />;
}
