import type { Metadata } from 'next';
import { ArchivedChats } from '@/components/archived/archived-chats';
import { routeParam } from '@/lib/route-param';

export const metadata: Metadata = { title: 'Archived chats' };

export default async function ArchivedChatsPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = await params;
  return <ArchivedChats workspaceId={routeParam(workspaceId)} />;
}
