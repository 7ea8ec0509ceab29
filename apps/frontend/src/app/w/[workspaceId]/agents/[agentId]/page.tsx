import type { Metadata } from 'next';
import { AgentEditor } from '@/components/agent-form/agent-editor';
import { routeParam } from '@/lib/route-param';

export const metadata: Metadata = { title: 'Edit agent' };

export default async function EditAgentPage({ params }: { params: Promise<{ workspaceId: string; agentId: string }> }) {
  const { workspaceId, agentId } = await params;
  return <AgentEditor workspaceId={routeParam(workspaceId)} agentId={routeParam(agentId)} />;
}
