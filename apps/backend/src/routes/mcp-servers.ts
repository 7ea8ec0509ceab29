import {
  mcpOAuthCallbackQuerySchema,
  mcpOAuthConnectSchema,
  mcpServerCreateSchema,
  mcpServerListSchema,
  mcpServerSchema,
  mcpServerUpdateSchema,
  workspaceToolListSchema,
} from '@baton/schemas';
import { Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import { type AppEnv, requireAdmin } from '../http/access';
import { errorResponses, jsonBody, jsonResponse, queryParams } from '../http/validation';
import { DEFAULT_PUBLIC_URL } from '../auth/better-auth';
import { isInstanceMcpServerId } from '../mcp/instance-servers';
import {
  getInstanceMcpServer,
  listInstanceMcpServers,
  refreshInstanceMcpServer,
  refuseInstanceMcpServerDelete,
  updateInstanceMcpServer,
} from '../services/instance-mcp-servers';
import { createMcpServer, deleteMcpServer, getMcpServer, listMcpServers, refreshMcpServer, updateMcpServer } from '../services/mcp-servers';
import { completeMcpOAuth, disconnectMcpOAuth, startMcpOAuth } from '../services/mcp-oauth';
import { listWorkspaceTools } from '../services/workspace-tools';
import type { AppDeps } from './deps';

const tags = ['MCP servers'];
const instanceNote =
  'Servers with `scope: "instance"` are the operator\'s (BATON_MCP_CONFIG: processes Baton runs over stdio, or URLs), listed in every workspace after its own, off until an admin switches them on (`PATCH {"enabled": true}`); nothing else of them can be changed here (403).';
const listingNote =
  'Baton connects (Streamable HTTP, SSE, or `auto`: HTTP then SSE) through the guarded outbound fetch and lists the tools; a failure (`unreachable`, `unauthorized`, `bad_protocol`, `refused_address`, `timeout`) is stored in `toolsError`, not returned as an HTTP error.';

/**
 * Mounted at /api/workspaces/:workspaceId/mcp-servers. Every member reads them and may
 * refresh a listing (it only re-reads what an admin configured); admins add, change and
 * remove them. Header values are write-only: only `headerNames` come back.
 */
export function mcpServerRoutes({ db, secrets, outbound, mcpTimeoutMs, instanceMcp, auth }: AppDeps) {
  const deps = { db, secrets, mcpFetch: outbound.providerFetch, mcpTimeoutMs };
  const oauthDeps = { ...deps, publicUrl: auth.publicUrl ?? DEFAULT_PUBLIC_URL };
  const instance = (id: string) => isInstanceMcpServerId(id);
  return new Hono<AppEnv, {}, '/:workspaceId/mcp-servers'>()
    .get(
      '/',
      describeRoute({
        tags,
        summary: 'List MCP servers',
        description: instanceNote,
        responses: { 200: jsonResponse('The servers, oldest first', mcpServerListSchema), 404: errorResponses[404] },
      }),
      async (c) => {
        const ws = c.req.param('workspaceId');
        return c.json({ data: [...(await listMcpServers(db, ws)), ...(await listInstanceMcpServers(db, instanceMcp, ws))] });
      },
    )
    .post(
      '/',
      describeRoute({
        tags,
        summary: 'Add an MCP server (admins)',
        description: `Adds the server and, when enabled, lists its tools. ${listingNote}`,
        responses: { 201: jsonResponse('The new server with its listing (header names, never values)', mcpServerSchema), ...errorResponses },
      }),
      requireAdmin,
      ...jsonBody(mcpServerCreateSchema),
      async (c) => c.json(await createMcpServer(deps, c.req.param('workspaceId'), c.req.valid('json')), 201),
    )
    .get(
      '/:id',
      describeRoute({ tags, summary: 'Get an MCP server', responses: { 200: jsonResponse('The server', mcpServerSchema), 404: errorResponses[404] } }),
      async (c) => {
        const [ws, id] = [c.req.param('workspaceId'), c.req.param('id')];
        return c.json(instance(id) ? await getInstanceMcpServer(db, instanceMcp, ws, id) : await getMcpServer(db, ws, id));
      },
    )
    .patch(
      '/:id',
      describeRoute({
        tags,
        summary: 'Update an MCP server (partial; admins)',
        description: `\`headers\`, when given, replaces all stored headers (\`{}\` removes them). A \`url\` on another origin (scheme, host, port) than the stored headers were entered for needs \`headers\` again (or \`{}\`): without them the update is \`400 secret_required\` and changes nothing. A new url, transport or headers, or enabling, lists the tools again. ${listingNote} ${instanceNote}`,
        responses: { 200: jsonResponse('The updated server', mcpServerSchema), ...errorResponses },
      }),
      requireAdmin,
      ...jsonBody(mcpServerUpdateSchema),
      async (c) => {
        const [ws, id] = [c.req.param('workspaceId'), c.req.param('id')];
        const patch = c.req.valid('json');
        return c.json(instance(id) ? await updateInstanceMcpServer(db, instanceMcp, ws, id, patch) : await updateMcpServer(deps, ws, id, patch));
      },
    )
    .post(
      '/:id/refresh',
      describeRoute({
        tags,
        summary: 'List the tools again (any member)',
        description: `${listingNote} A failed listing keeps the previous tools, marked unavailable in the tool catalog. An instance stdio server waiting to be restarted is started now.`,
        responses: { 200: jsonResponse('The server with its new listing or failure', mcpServerSchema), 404: errorResponses[404] },
      }),
      async (c) => {
        const [ws, id] = [c.req.param('workspaceId'), c.req.param('id')];
        return c.json(instance(id) ? await refreshInstanceMcpServer(db, instanceMcp, ws, id) : await refreshMcpServer(deps, ws, id));
      },
    )
    .post(
      '/:id/oauth/connect',
      describeRoute({
        tags,
        summary: 'Start connecting Baton to an OAuth server (admins)',
        description:
          'MCP authorization: Baton reads the server’s protected resource metadata and its authorization server’s metadata, registers itself there if it has not (dynamic client registration), and returns `authorizationUrl` — the authorization-code flow with PKCE — for the admin’s browser. The authorization server sends the browser back to `…/oauth/callback`, which stores the tokens (encrypted, never returned) and returns to the Tool servers page. `authorizationUrl` is null when stored tokens could be renewed without the browser.',
        responses: { 200: jsonResponse('Where to send the browser, and the server', mcpOAuthConnectSchema), ...errorResponses },
      }),
      requireAdmin,
      async (c) => c.json(await startMcpOAuth(oauthDeps, c.req.param('workspaceId'), c.req.param('id'), c.get('principal').userId)),
    )
    .get(
      '/:id/oauth/callback',
      describeRoute({
        tags,
        summary: 'OAuth callback (the browser of the admin who clicked Connect)',
        description:
          'Exchanges the code for tokens when `state` is the one this admin’s Connect made (within 10 minutes), then redirects to `/w/:workspaceId/settings/tool-servers?oauth=<connected|denied|expired|failed>&server=<id>`.',
        responses: { 302: { description: 'Back to the Tool servers page with the outcome' }, ...errorResponses },
      }),
      requireAdmin,
      queryParams(mcpOAuthCallbackQuerySchema),
      async (c) => {
        const [ws, id] = [c.req.param('workspaceId'), c.req.param('id')];
        const outcome = await completeMcpOAuth(oauthDeps, ws, id, c.get('principal').userId, c.req.valid('query'));
        const back = new URLSearchParams({ oauth: outcome, server: id });
        return c.redirect(`/w/${encodeURIComponent(ws)}/settings/tool-servers?${back}`, 302);
      },
    )
    .delete(
      '/:id/oauth',
      describeRoute({
        tags,
        summary: 'Disconnect: forget the OAuth tokens (admins)',
        description: 'Baton forgets the tokens it holds for the server; its listing then says it needs connecting.',
        responses: { 200: jsonResponse('The server, listed again', mcpServerSchema), ...errorResponses },
      }),
      requireAdmin,
      async (c) => c.json(await disconnectMcpOAuth(deps, c.req.param('workspaceId'), c.req.param('id'))),
    )
    .delete(
      '/:id',
      describeRoute({
        tags,
        summary: 'Remove an MCP server (admins)',
        description:
          'Agents keep its tool ids in `toolIds`; chats skip tools whose server is gone. An instance server cannot be removed here (403): switch it off.',
        responses: { 204: { description: 'Deleted' }, ...errorResponses },
      }),
      requireAdmin,
      async (c) => {
        if (instance(c.req.param('id'))) refuseInstanceMcpServerDelete(instanceMcp, c.req.param('id'));
        await deleteMcpServer(db, c.req.param('workspaceId'), c.req.param('id'));
        return c.body(null, 204);
      },
    );
}

/** Mounted at /api/workspaces/:workspaceId/tools: the catalog the agent editor picks from. */
export function workspaceToolRoutes({ db, instanceMcp }: AppDeps) {
  return new Hono<AppEnv, {}, '/:workspaceId/tools'>().get(
    '/',
    describeRoute({
      tags: ['Catalog'],
      summary: "Tools an agent of this workspace can use: built-in ones and the MCP servers' listed tools",
      description:
        'MCP tool ids are `mcp:<serverId>:<toolName>`. `available` is false while the server is disabled (an instance server: not switched on in this workspace) or its last listing failed.',
      responses: { 200: jsonResponse('Tools', workspaceToolListSchema), 404: errorResponses[404] },
    }),
    async (c) => c.json({ data: await listWorkspaceTools(db, c.req.param('workspaceId'), instanceMcp) }),
  );
}
