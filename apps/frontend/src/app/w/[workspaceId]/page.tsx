import type { Metadata } from 'next';
import { NewChatView } from '@/components/new-chat/new-chat-view';
import { routeParam } from '@/lib/route-param';

export const metadata: Metadata = { title: 'New chat' };

export default async function NewChatPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = await params;
  return <NewChatView workspaceId={routeParam(workspaceId)} />;
}
