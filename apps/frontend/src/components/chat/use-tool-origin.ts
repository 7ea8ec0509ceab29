'use client';

import { useEffect, useState } from 'react';
import { cachedWorkspaceTools } from '@/lib/mcp-servers-api';
import { mcpToolOrigin } from './tool-output';

/** The MCP server a called tool comes from, once the workspace's tool catalog has loaded (one request per page load). */
export function useToolOrigin(workspaceId: string, calledName: string) {
  const [origin, setOrigin] = useState<ReturnType<typeof mcpToolOrigin>>();
  useEffect(() => {
    let live = true;
    void cachedWorkspaceTools(workspaceId).then((catalog) => {
      if (live) setOrigin(mcpToolOrigin(calledName, catalog));
    });
    return () => {
      live = false;
    };
  }, [workspaceId, calledName]);
  return origin;
}
