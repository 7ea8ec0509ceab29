import type { ReactNode } from 'react';
import { AppShell } from '@/components/app-shell';
import { routeParam } from '@/lib/route-param';

export default async function WorkspaceLayout({ children, params }: { children: ReactNode; params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = await params;
  return <AppShell workspaceId={routeParam(workspaceId)}>{children}</AppShell>;
}
