import type { Metadata } from 'next';
import { AgentEditor } from '@/components/agent-form/agent-editor';
import { routeParam } from '@/lib/route-param';

export const metadata: Metadata = { title: 'New agent' };

export default async function NewAgentPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = await params;
  return <AgentEditor workspaceId={routeParam(workspaceId)} />;
}
