import { mcpToolId, type WorkspaceTool } from '@baton/schemas';
import type { Database } from '../db/client';
import { listBuiltInTools } from './built-in-tools';
import type { InstanceMcpServers } from '../mcp/instance-servers';
import { listInstanceMcpServers } from './instance-mcp-servers';
import { listMcpServers } from './mcp-servers';

/**
 * What an agent of this workspace can be given: the built-in tools, then each MCP server's
 * last listing (the workspace's own, then the operator's). A server's tools are unavailable while it is disabled or its last listing
 * failed (they are still shown, so an agent's selection stays readable).
 */
export async function listWorkspaceTools(db: Database, workspaceId: string, instance?: InstanceMcpServers): Promise<WorkspaceTool[]> {
  const builtIn: WorkspaceTool[] = listBuiltInTools().map((t) => ({ ...t, source: 'builtIn', serverId: null, serverName: null, available: true }));
  const servers = [...(await listMcpServers(db, workspaceId)), ...(instance ? await listInstanceMcpServers(db, instance, workspaceId) : [])];
  const mcp = servers.flatMap((server) =>
    server.tools.map(
      (t): WorkspaceTool => ({
        id: mcpToolId(server.id, t.name),
        name: t.name,
        description: t.description,
        source: 'mcp',
        serverId: server.id,
        serverName: server.name,
        available: server.enabled && server.toolsError === null,
      }),
    ),
  );
  return [...builtIn, ...mcp];
}
