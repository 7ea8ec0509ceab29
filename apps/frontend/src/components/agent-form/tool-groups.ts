import { parseMcpToolId, type WorkspaceTool } from '@baton/schemas';

/** One switch of the tools card. */
export interface ToolRow {
  id: string;
  name: string;
  description: string;
  selected: boolean;
  /** Can be switched on: the tool is listed and its server works. Selected rows can always be switched off. */
  available: boolean;
  /** Why the tool cannot be used right now. */
  hint?: string;
}

export interface ToolGroup {
  key: string;
  title: string;
  /** Built-in tools, or the MCP server these come from. */
  source: 'builtIn' | 'mcp';
  rows: ToolRow[];
}

const UNAVAILABLE = 'Unavailable: its tool server is disabled or could not be listed. Agents skip it until it works again.';
const NOT_LISTED = 'No longer listed by its tool server: remove it, or refresh the server in Settings → Tool servers.';
const NO_SERVER = 'Its tool server was removed: this tool is skipped. Remove it from the agent.';

/**
 * The tools card's groups: built-in tools first, then one group per MCP server (in the
 * order the catalog lists them). A selected id the catalog lacks stays visible, marked,
 * so it can be removed: under its server when that still exists, else in a group of its own.
 */
export function groupTools(tools: WorkspaceTool[], selected: string[]): ToolGroup[] {
  const chosen = new Set(selected);
  const builtIn: ToolGroup = { key: 'builtIn', title: 'Built-in', source: 'builtIn', rows: [] };
  const servers = new Map<string, ToolGroup>();
  const known = new Set<string>();

  for (const tool of tools) {
    known.add(tool.id);
    const row: ToolRow = { id: tool.id, name: tool.name, description: tool.description, selected: chosen.has(tool.id), available: tool.available };
    if (!tool.available) row.hint = UNAVAILABLE;
    if (tool.source === 'builtIn' || !tool.serverId) {
      builtIn.rows.push(row);
      continue;
    }
    let group = servers.get(tool.serverId);
    if (!group) {
      group = { key: `mcp:${tool.serverId}`, title: tool.serverName ?? 'Tool server', source: 'mcp', rows: [] };
      servers.set(tool.serverId, group);
    }
    group.rows.push(row);
  }

  const orphans: ToolGroup = { key: 'removed', title: 'Removed tool servers', source: 'mcp', rows: [] };
  for (const id of selected) {
    if (known.has(id)) continue;
    const mcp = parseMcpToolId(id);
    if (!mcp) {
      builtIn.rows.push({
        id,
        name: `Unknown tool (${id})`,
        description: '',
        selected: true,
        available: false,
        hint: 'This tool no longer exists: remove it.',
      });
      continue;
    }
    const row: ToolRow = { id, name: mcp.toolName, description: '', selected: true, available: false };
    const group = servers.get(mcp.serverId);
    if (group) group.rows.push({ ...row, hint: NOT_LISTED });
    else orphans.rows.push({ ...row, hint: NO_SERVER });
  }

  return [builtIn, ...servers.values(), orphans].filter((g) => g.rows.length > 0);
}
