import type { McpServer, McpServerCreate, McpServerUpdate, ToolInfo, WorkspaceTool } from '@baton/schemas';
import { ApiError, api, request } from './api-client';

const base = (workspaceId: string) => `/workspaces/${encodeURIComponent(workspaceId)}`;
const servers = (workspaceId: string) => `${base(workspaceId)}/mcp-servers`;
const one = (workspaceId: string, serverId: string) => `${servers(workspaceId)}/${encodeURIComponent(serverId)}`;

/** The workspace's MCP tool servers (`/api/workspaces/:ws/mcp-servers`). */
export const mcpServersApi = {
  list: async (workspaceId: string) => (await request<{ data: McpServer[] }>('GET', servers(workspaceId))).data,
  create: (workspaceId: string, input: McpServerCreate) => request<McpServer>('POST', servers(workspaceId), input),
  update: (workspaceId: string, serverId: string, patch: McpServerUpdate) => request<McpServer>('PATCH', one(workspaceId, serverId), patch),
  remove: (workspaceId: string, serverId: string) => request<void>('DELETE', one(workspaceId, serverId)),
  /** Lists the server's tools again; a server that fails is stored in `toolsError`, not a thrown error. */
  refresh: (workspaceId: string, serverId: string) => request<McpServer>('POST', `${one(workspaceId, serverId)}/refresh`),
};

const builtIn = (t: ToolInfo): WorkspaceTool => ({ ...t, source: 'builtIn', serverId: null, serverName: null, available: true });

/**
 * Every tool an agent of the workspace can be given: built-ins and MCP tools. A backend
 * without the workspace catalog (404) still offers its built-in tools.
 */
export async function listWorkspaceTools(workspaceId: string): Promise<WorkspaceTool[]> {
  try {
    return (await request<{ data: WorkspaceTool[] }>('GET', `${base(workspaceId)}/tools`)).data;
  } catch (err) {
    if (err instanceof ApiError && err.isNotFound) return (await api.tools.list()).map(builtIn);
    throw err;
  }
}

// One catalog request per workspace for every tool call a transcript shows.
const catalogs = new Map<string, Promise<WorkspaceTool[]>>();

/** The workspace's tool catalog, fetched once per page load and shared (for naming tool calls). */
export function cachedWorkspaceTools(workspaceId: string): Promise<WorkspaceTool[]> {
  let pending = catalogs.get(workspaceId);
  if (!pending) {
    pending = listWorkspaceTools(workspaceId).catch(() => {
      catalogs.delete(workspaceId);
      return [];
    });
    catalogs.set(workspaceId, pending);
  }
  return pending;
}

/** Forget the cached catalog, e.g. after servers or their tools changed. */
export function forgetWorkspaceTools(workspaceId: string) {
  catalogs.delete(workspaceId);
}
