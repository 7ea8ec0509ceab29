import type { Metadata } from 'next';
import { AgentList } from '@/components/agents/agent-list';
import { routeParam } from '@/lib/route-param';

export const metadata: Metadata = { title: 'Agents' };

export default async function AgentsPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = await params;
  return <AgentList workspaceId={routeParam(workspaceId)} />;
}
