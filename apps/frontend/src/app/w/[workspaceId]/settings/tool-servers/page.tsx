import type { Metadata } from 'next';
import { McpServerSettings } from '@/components/mcp-servers/mcp-server-settings';
import { routeParam } from '@/lib/route-param';

export const metadata: Metadata = { title: 'Tool servers' };

export default async function ToolServersPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = await params;
  return <McpServerSettings workspaceId={routeParam(workspaceId)} />;
}
