import { errorCodes } from '@baton/schemas';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { errorBody, handleError, notFoundRoute } from './http/errors';
import { agentRoutes } from './routes/agents';
import { chatRoutes } from './routes/chats';
import type { AppDeps } from './routes/deps';
import { docsRoutes } from './routes/docs';
import { healthRoutes } from './routes/health';
import { providerRoutes } from './routes/providers';
import { workspaceRoutes } from './routes/workspaces';
import { requireWorkspace } from './services/workspaces';

export const MAX_BODY_BYTES = 1024 * 1024;

/** The whole HTTP API, built from its dependencies so tests can run it on any database. */
export function createApp(deps: AppDeps) {
  const api = new Hono();
  api.use(
    '*',
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: (c) => c.json(errorBody(errorCodes.payloadTooLarge, 'the request body is over 1 MiB'), 413),
    }),
  );
  // An id of another workspace must look exactly like an id that does not exist.
  api.use('/workspaces/:workspaceId/*', async (c, next) => {
    await requireWorkspace(deps.db, c.req.param('workspaceId')!);
    await next();
  });
  api.route('/health', healthRoutes(deps));
  api.route('/workspaces', workspaceRoutes(deps));
  api.route('/workspaces/:workspaceId/agents', agentRoutes(deps));
  api.route('/workspaces/:workspaceId/providers', providerRoutes(deps));
  api.route('/workspaces/:workspaceId/chats', chatRoutes(deps));

  const app = new Hono();
  app.route('/api', api);
  app.route('/api', docsRoutes(api));
  app.onError(handleError);
  app.notFound(notFoundRoute);
  return app;
}
