import {
  agentCreateSchema,
  agentDeleteQuerySchema,
  apiErrorSchema,
  agentPageSchema,
  agentSchema,
  agentUpdateSchema,
  listQuerySchema,
  remoteCardRequestSchema,
  remoteCardResultSchema,
} from '@baton/schemas';
import { Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import { errorResponses, jsonBody, jsonResponse, queryParams } from '../http/validation';
import { readRemoteCard } from '../agent/remote-card';
import { createAgent, deleteAgent, getAgent, listAgents, updateAgent } from '../services/agents';
import type { AppEnv } from '../http/access';
import type { AppDeps } from './deps';

const tags = ['Agents'];
const refused = jsonResponse(
  'Not yours to change: only the author or an admin may (or any member when the agent is shared, except deleting and sharing); the message says who',
  apiErrorSchema,
);
const nameTaken = jsonResponse('An agent of this name (ignoring case) already exists in the workspace; details point at name', apiErrorSchema);

/** Mounted at /api/workspaces/:workspaceId/agents. */
export function agentRoutes({ db, instanceMcp, secrets, outbound }: AppDeps) {
  const instanceServer = (id: string) => instanceMcp.has(id);
  return new Hono<AppEnv, {}, '/:workspaceId/agents'>()
    .get(
      '/',
      describeRoute({
        tags,
        summary: 'List agents',
        responses: { 200: jsonResponse('A page of agents', agentPageSchema), 400: errorResponses[400], 404: errorResponses[404] },
      }),
      queryParams(listQuerySchema),
      async (c) => c.json(await listAgents(db, c.get('access'), c.req.valid('query'))),
    )
    .post(
      '/',
      describeRoute({
        tags,
        summary: 'Create an agent',
        description:
          'The name must be unique in the workspace, ignoring case (409 otherwise). subAgentIds may not contain the agent itself, duplicates, or ids that are not agents of this workspace.',
        responses: { 201: jsonResponse('The new agent', agentSchema), ...errorResponses, 409: nameTaken },
      }),
      ...jsonBody(agentCreateSchema),
      async (c) => c.json(await createAgent(db, c.get('access'), c.req.valid('json'), instanceServer, secrets), 201),
    )
    .post(
      '/remote-card',
      describeRoute({
        tags,
        summary: 'Read a remote A2A agent’s card',
        description:
          'Fetches the Agent Card at `cardUrl` (a `….json` URL, or a base URL to which `/.well-known/agent-card.json` is added) with the `headers` given, or the stored headers of the remote agent `agentId` — only on the origin they were stored for (another origin is `400 secret_required`). A card that cannot be read answers 200 with `ok: false` and why.',
        responses: { 200: jsonResponse('The card’s name, description and skills, or why it could not be read', remoteCardResultSchema), ...errorResponses },
      }),
      ...jsonBody(remoteCardRequestSchema),
      async (c) => c.json(await readRemoteCard({ db, secrets, providerFetch: outbound.providerFetch }, c.req.param('workspaceId'), c.req.valid('json'))),
    )
    .get(
      '/:id',
      describeRoute({ tags, summary: 'Get an agent', responses: { 200: jsonResponse('The agent', agentSchema), 404: errorResponses[404] } }),
      async (c) => c.json(await getAgent(db, c.get('access'), c.req.param('id'))),
    )
    .patch(
      '/:id',
      describeRoute({
        tags,
        summary: 'Update an agent (partial)',
        description:
          'Allowed to the author and admins, and to every member when `editableBy` is `workspace`; `editableBy` itself only the author or an admin may change. Otherwise 403 with the reason.',
        responses: { 200: jsonResponse('The updated agent', agentSchema), ...errorResponses, 403: refused, 409: nameTaken },
      }),
      ...jsonBody(agentUpdateSchema),
      async (c) => c.json(await updateAgent(db, c.get('access'), c.req.param('id'), c.req.valid('json'), instanceServer)),
    )
    .delete(
      '/:id',
      describeRoute({
        tags,
        summary: 'Delete an agent',
        description:
          'The author or an admin only (403 with the reason otherwise). Also removes it from every other agent’s subAgentIds. Chats that used it stay readable (their agentId becomes null). When other people’s chats use it, answers `409 agent_in_use` with `details.otherChats` and deletes nothing, unless `?force=true` confirms.',
        responses: {
          204: { description: 'Deleted' },
          400: errorResponses[400],
          403: refused,
          404: errorResponses[404],
          409: jsonResponse('Other people’s chats use the agent: `details: { otherChats }`; repeat with ?force=true', apiErrorSchema),
        },
      }),
      queryParams(agentDeleteQuerySchema),
      async (c) => {
        await deleteAgent(db, c.get('access'), c.req.param('id'), { force: c.req.valid('query').force === 'true' });
        return c.body(null, 204);
      },
    );
}
