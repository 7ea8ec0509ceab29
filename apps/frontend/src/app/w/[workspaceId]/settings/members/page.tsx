import type { Metadata } from 'next';
import { MembersSettings } from '@/components/members/members-settings';
import { routeParam } from '@/lib/route-param';

export const metadata: Metadata = { title: 'Members' };

export default async function MembersPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = await params;
  return <MembersSettings workspaceId={routeParam(workspaceId)} />;
}
