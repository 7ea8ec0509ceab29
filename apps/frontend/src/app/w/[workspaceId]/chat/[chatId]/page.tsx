import type { Metadata } from 'next';
import { ChatView } from '@/components/chat/chat-view';
import { routeParam } from '@/lib/route-param';

export const metadata: Metadata = { title: 'Chat' };

export default async function ChatPage({ params }: { params: Promise<{ workspaceId: string; chatId: string }> }) {
  const { workspaceId, chatId } = await params;
  return <ChatView workspaceId={routeParam(workspaceId)} chatId={routeParam(chatId)} />;
}
