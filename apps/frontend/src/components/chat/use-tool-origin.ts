'use client';

import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/queries';
import { useApiQuery } from '@/lib/use-api-query';
import { mcpToolOrigin } from './tool-output';

/** The MCP server a called tool comes from, once the workspace's tool catalog has loaded (one request per page load, shared). */
export function useToolOrigin(workspaceId: string, calledName: string) {
  const catalog = useApiQuery(queryKeys.tools(workspaceId), () => api.workspaceTools(workspaceId), { staleTime: Infinity }).data;
  return catalog ? mcpToolOrigin(calledName, catalog) : undefined;
}
