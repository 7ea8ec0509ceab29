'use client';

import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/queries';
import { useApiQuery } from '@/lib/use-api-query';
import { useSharedChat } from '../shared/shared-chat-context';
import { mcpToolOrigin } from './tool-output';

/** The MCP server a called tool comes from, once the workspace's tool catalog has loaded (one request per page load, shared). */
export function useToolOrigin(workspaceId: string, calledName: string) {
  // A shared chat's visitor cannot read the workspace's catalog: its tools are shown by name alone.
  const shared = useSharedChat();
  const catalog = useApiQuery(queryKeys.tools(workspaceId), () => api.workspaceTools(workspaceId), { staleTime: Infinity, enabled: !shared }).data;
  return catalog ? mcpToolOrigin(calledName, catalog) : undefined;
}
