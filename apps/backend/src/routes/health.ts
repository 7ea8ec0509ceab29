import { healthSchema } from '@baton/schemas';
import { Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import { jsonResponse } from '../http/validation';
import type { AppDeps } from './deps';

export function healthRoutes({ databaseKind }: AppDeps) {
  return new Hono().get(
    '/',
    describeRoute({
      tags: ['Health'],
      summary: 'Liveness and which database is in use (public)',
      security: [],
      responses: { 200: jsonResponse('OK', healthSchema) },
    }),
    (c) => c.json({ status: 'ok' as const, database: databaseKind }),
  );
}
