import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Hono } from 'hono';
import { openAPIRouteHandler } from 'hono-openapi';
import type { AppEnv } from '../http/access';

// Swagger UI is served from the installed package, not a CDN: Baton must work offline.
const swaggerDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const assets: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
};

const page = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8" />
  <meta name="viewport" content="width=device-width, initial-scale=1" />
  <title>Baton API reference</title>
  <link rel="stylesheet" href="/api/docs/assets/swagger-ui.css" />
</head>
<body>
  <div id="api-reference"></div>
  <script src="/api/docs/assets/swagger-ui-bundle.js"></script>
  <script>
    window.ui = SwaggerUIBundle({ url: '/api/openapi.json', dom_id: '#api-reference', deepLinking: true });
  </script>
</body>
</html>`;

/** `GET /api/openapi.json` (generated from the shared zod schemas) and `GET /api/docs`. */
export function docsRoutes(app: Hono<AppEnv>) {
  return new Hono()
    .get(
      '/openapi.json',
      openAPIRouteHandler(app, {
        exclude: ['/api/openapi.json', '/api/docs', '/api/docs/assets/:file'],
        documentation: {
          openapi: '3.1.0',
          info: {
            title: 'Baton API',
            version: '0.1.0',
            description:
              "Workspace-scoped REST API of Baton. Errors are `{ error: { code, message, details? } }`; lists are `{ data, nextCursor }` with `?limit` (1–100, default 20) and `?cursor`. Every route needs a session (sign in at `POST /api/auth/sign-in/email`) or an API key (`Authorization: Bearer <key>`, created under a workspace's API keys), except those marked as public.",
          },
          components: {
            securitySchemes: {
              apiKey: {
                type: 'http',
                scheme: 'bearer',
                description: 'An API key of yours for one workspace (`POST /api/workspaces/:ws/api-keys`, shown once).',
              },
              session: {
                type: 'apiKey',
                in: 'cookie',
                name: 'baton.session_token',
                description: 'The session cookie set by `POST /api/auth/sign-in/email` (browsers).',
              },
            },
          },
          security: [{ apiKey: [] }, { session: [] }],
        },
      }),
    )
    .get('/docs', (c) => c.html(page))
    .get('/docs/assets/:file', async (c) => {
      const file = c.req.param('file');
      const type = assets[file];
      if (!type) return c.notFound();
      const body = await readFile(join(swaggerDir, file));
      return c.body(body, 200, { 'content-type': type, 'cache-control': 'public, max-age=86400' });
    });
}
