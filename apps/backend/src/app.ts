import { errorCodes } from '@baton/schemas';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { errorBody, handleError, notFoundRoute } from './http/errors';
import { DEFAULT_MODEL_TIMEOUTS } from './agent/model-timeouts';
import { RunRegistry } from './agent/runs/run-registry';
import { SnapshotWriter } from './agent/runs/snapshot-writer';
import { storablePathParams } from './http/validation';
import { agentRoutes } from './routes/agents';
import { chatRunRoutes } from './routes/chat-runs';
import { chatStreamRoutes } from './routes/chat-stream';
import { chatRoutes } from './routes/chats';
import type { AppDeps } from './routes/deps';
import { docsRoutes } from './routes/docs';
import { healthRoutes } from './routes/health';
import { providerRoutes } from './routes/providers';
import { catalogRoutes } from './routes/tools';
import { workspaceRoutes } from './routes/workspaces';
import { workspaceGuard } from './services/workspaces';

export const MAX_BODY_BYTES = 1024 * 1024;

type Defaulted = 'defaultModel' | 'runs' | 'modelTimeouts' | 'snapshots';
export type CreateAppOptions = Omit<AppDeps, Defaulted> & Partial<Pick<AppDeps, Defaulted>>;

/** The whole HTTP API, built from its dependencies so tests can run it on any database and model. */
export function createApp(options: CreateAppOptions) {
  const deps: AppDeps = {
    defaultModel: { kind: 'demo' },
    runs: new RunRegistry(),
    modelTimeouts: DEFAULT_MODEL_TIMEOUTS,
    snapshots: new SnapshotWriter(options.db),
    ...options,
  };
  const api = new Hono();
  api.use(
    '*',
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      // The rest of the body is never read, and the server closes the socket soon after.
      // Saying so lets a client that is still uploading read this answer instead of seeing
      // the connection drop ("other side closed"), and keeps it from reusing the socket.
      onError: (c) => {
        c.header('Connection', 'close');
        return c.json(errorBody(errorCodes.payloadTooLarge, 'the request body is over 1 MiB'), 413);
      },
    }),
  );
  api.use('*', storablePathParams);
  // An id of another workspace must look exactly like an id that does not exist.
  const requireWorkspace = workspaceGuard(deps.db);
  api.use('/workspaces/:workspaceId/*', async (c, next) => {
    await requireWorkspace(c.req.param('workspaceId')!);
    await next();
  });
  api.route('/health', healthRoutes(deps));
  api.route('/', catalogRoutes(deps));
  api.route('/workspaces', workspaceRoutes(deps));
  api.route('/workspaces/:workspaceId/agents', agentRoutes(deps));
  api.route('/workspaces/:workspaceId/providers', providerRoutes(deps));
  api.route('/workspaces/:workspaceId/chats', chatRoutes(deps));
  api.route('/workspaces/:workspaceId/chats', chatRunRoutes(deps));
  api.route('/workspaces/:workspaceId/chat', chatStreamRoutes(deps));

  const app = new Hono();
  app.route('/api', api);
  app.route('/api', docsRoutes(app));
  app.onError(handleError);
  app.notFound(notFoundRoute);
  return Object.assign(app, { deps });
}
