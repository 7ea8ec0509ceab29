import type { Metadata } from 'next';
import { ApiKeySettings } from '@/components/api-keys/api-key-settings';
import { routeParam } from '@/lib/route-param';

export const metadata: Metadata = { title: 'API keys' };

export default async function ApiKeysPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = await params;
  return <ApiKeySettings workspaceId={routeParam(workspaceId)} />;
}
