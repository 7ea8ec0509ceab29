import { z } from 'zod';
import { nameSchema, noNulBytes, storableString, timestampSchema } from './common';

/** The prefix of an MCP tool's id in `agent.toolIds`: `mcp:<serverId>:<toolName>`. */
export const MCP_TOOL_ID_PREFIX = 'mcp:';

export function mcpToolId(serverId: string, toolName: string): string {
  return `${MCP_TOOL_ID_PREFIX}${serverId}:${toolName}`;
}

/** The server and tool an MCP tool id names, or null for any other id (a built-in tool). */
export function parseMcpToolId(id: string): { serverId: string; toolName: string } | null {
  if (!id.startsWith(MCP_TOOL_ID_PREFIX)) return null;
  const rest = id.slice(MCP_TOOL_ID_PREFIX.length);
  const colon = rest.indexOf(':');
  if (colon <= 0 || colon === rest.length - 1) return null;
  return { serverId: rest.slice(0, colon), toolName: rest.slice(colon + 1) };
}

/**
 * How Baton talks to the server: Streamable HTTP, the older HTTP+SSE transport, or `auto`
 * (Streamable HTTP first, SSE when the server does not speak it).
 */
export const mcpTransportSchema = z.enum(['auto', 'http', 'sse']);
export type McpTransport = z.infer<typeof mcpTransportSchema>;

/** How a listed server is reached: a workspace's own are HTTP; the operator's (BATON_MCP_CONFIG) may also be processes Baton runs (`stdio`). */
export const mcpServerTransportSchema = z.enum([...mcpTransportSchema.options, 'stdio']);
export type McpServerTransport = z.infer<typeof mcpServerTransportSchema>;

/**
 * `workspace`: added by the workspace's admins. `instance`: configured by the operator for
 * every workspace (BATON_MCP_CONFIG), read-only here; admins only switch it on or off.
 */
export const mcpServerScopeSchema = z.enum(['workspace', 'instance']);
export type McpServerScope = z.infer<typeof mcpServerScopeSchema>;

/** `process_failed`: a stdio server's process could not start or exited (Baton restarts it). */
/** `needs_connection`: the server asks for OAuth and Baton holds no valid tokens for it: an admin clicks Connect. */
export const mcpFailureKinds = ['unreachable', 'unauthorized', 'bad_protocol', 'refused_address', 'timeout', 'process_failed', 'needs_connection'] as const;
export type McpFailureKind = (typeof mcpFailureKinds)[number];
export const mcpFailureSchema = z.object({ kind: z.enum(mcpFailureKinds), message: z.string() }).meta({ id: 'McpFailure' });
export type McpFailure = z.infer<typeof mcpFailureSchema>;

/** One tool as the server listed it the last time Baton asked. */
export const mcpToolSchema = z
  .object({
    /** `mcp:<serverId>:<toolName>`, what `agent.toolIds` holds. */
    id: z.string(),
    name: z.string(),
    description: z.string(),
    inputSchema: z.unknown().optional(),
  })
  .meta({ id: 'McpTool' });
export type McpTool = z.infer<typeof mcpToolSchema>;

export const mcpServerSchema = z
  .object({
    id: z.string(),
    workspaceId: z.string(),
    name: z.string(),
    scope: mcpServerScopeSchema,
    /** Null for a stdio server (its command is the operator's and is not shown). */
    url: z.string().nullable(),
    transport: mcpServerTransportSchema,
    /** Header values are write-only (stored encrypted, like provider keys): only their names come back. */
    headerNames: z.array(z.string()),
    enabled: z.boolean(),
    /** The last listing of the server's tools, and why it failed if it did. */
    tools: z.array(mcpToolSchema),
    toolsError: mcpFailureSchema.nullable(),
    /** A stdio server's last lines of stderr (values of its configured env masked); null for any other. */
    stderr: z.array(z.string()).nullable(),
    toolsCheckedAt: timestampSchema.nullable(),
    /**
     * Null until the server asks for OAuth (MCP authorization). Then whether Baton holds tokens
     * for it (`connected`; tokens themselves never come back) and since when.
     */
    oauth: z.object({ connected: z.boolean(), connectedAt: timestampSchema.nullable() }).nullable(),
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
  })
  .meta({ id: 'McpServer' });
export type McpServer = z.infer<typeof mcpServerSchema>;

// "user:pass@" in the authority, whatever the URL parser makes of it.
const userInfo = /^[a-z][a-z\d+.-]*:[\\/]*[^\\/?#]*@/i;

export const mcpServerUrlSchema = z
  .url({ protocol: /^https?$/, error: 'must be a valid http(s) URL' })
  .check(noNulBytes)
  .max(2_000)
  .refine((s) => !userInfo.test(s), 'must not contain a user name or password: put the secret in a header')
  .refine((s) => !s.includes('#'), 'must not contain a fragment (#…)');

const headerName = storableString
  .trim()
  .min(1)
  .max(200)
  .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'must be a valid HTTP header name');
const headerValue = storableString.max(8_000).refine((s) => !/[\r\n]/.test(s), 'must not contain line breaks');

/** Headers sent with every request to the server (e.g. `Authorization`); a given map replaces the stored one. */
export const mcpHeadersSchema = z.record(headerName, headerValue).refine((h) => Object.keys(h).length <= 20, 'at most 20 headers');

const mcpServerFields = {
  name: nameSchema,
  url: mcpServerUrlSchema,
  transport: mcpTransportSchema,
  headers: mcpHeadersSchema,
  enabled: z.boolean(),
};

export const mcpServerCreateSchema = z
  .strictObject({
    name: mcpServerFields.name,
    url: mcpServerFields.url,
    transport: mcpServerFields.transport.default('auto'),
    headers: mcpServerFields.headers.default({}),
    enabled: mcpServerFields.enabled.default(true),
  })
  .meta({ id: 'McpServerCreate' });
export type McpServerCreate = z.input<typeof mcpServerCreateSchema>;
export type McpServerCreateParsed = z.output<typeof mcpServerCreateSchema>;

export const mcpServerUpdateSchema = z.strictObject(mcpServerFields).partial().meta({ id: 'McpServerUpdate' });
export type McpServerUpdate = z.infer<typeof mcpServerUpdateSchema>;

/**
 * `POST …/mcp-servers/:id/oauth/connect`: where to send the admin's browser to authorize Baton
 * (`authorizationUrl`), or null when Baton was already authorized (a refresh token still worked).
 */
export const mcpOAuthConnectSchema = z.object({ authorizationUrl: z.string().nullable(), server: mcpServerSchema }).meta({ id: 'McpOAuthConnect' });
export type McpOAuthConnect = z.infer<typeof mcpOAuthConnectSchema>;

/** What the authorization server sends back to Baton's callback (RFC 6749 §4.1.2); anything else in the query is ignored. */
export const mcpOAuthCallbackQuerySchema = z.object({
  code: z.string().max(4_000).optional(),
  state: z.string().max(500).optional(),
  error: z.string().max(200).optional(),
});

export const mcpServerListSchema = z.object({ data: z.array(mcpServerSchema) }).meta({ id: 'McpServerList' });

/**
 * A tool an agent of this workspace can be given (`GET /api/workspaces/:ws/tools`): the
 * built-in ones and those of the workspace's MCP servers. `available` is false when the
 * server is disabled or its last listing failed or no longer has the tool.
 */
export const workspaceToolSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    source: z.enum(['builtIn', 'mcp']),
    serverId: z.string().nullable(),
    serverName: z.string().nullable(),
    available: z.boolean(),
  })
  .meta({ id: 'WorkspaceTool' });
export type WorkspaceTool = z.infer<typeof workspaceToolSchema>;
export const workspaceToolListSchema = z.object({ data: z.array(workspaceToolSchema) }).meta({ id: 'WorkspaceToolList' });

/**
 * The model-facing name of an MCP tool whose own name cannot be used in a turn (invalid as an
 * OpenAI function name, or taken): `<server name slug>_<tool name>`, cut to 64 characters. The
 * runtime adds `_2`, `_3`… when even that is taken; the web app reads a call's server back from it.
 */
export function mcpPrefixedToolName(serverName: string, toolName: string): string {
  const slug =
    serverName
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .slice(0, 24) || 'mcp';
  return `${slug}_${toolName.replace(/[^a-zA-Z0-9_-]/g, '_')}`.slice(0, 64);
}
