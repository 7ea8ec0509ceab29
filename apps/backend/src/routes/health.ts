import { healthSchema, readinessSchema } from '@baton/schemas';
import { Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import { jsonResponse } from '../http/validation';
import { checkReadiness } from '../ops/readiness';
import type { AppDeps } from './deps';

export function healthRoutes({ databaseKind, db, runs }: AppDeps) {
  const bus = runs.bus;
  const redisPing = bus ? () => bus.checkReachable() : undefined;
  return new Hono()
    .get(
      '/',
      describeRoute({
        tags: ['Health'],
        summary: 'Liveness and which database is in use (public)',
        description: 'Answers while the process runs, whatever its dependencies do: restart the process only when this fails.',
        security: [],
        responses: { 200: jsonResponse('OK', healthSchema) },
      }),
      (c) => c.json({ status: 'ok' as const, database: databaseKind }),
    )
    .get(
      '/ready',
      describeRoute({
        tags: ['Health'],
        summary: 'Readiness: the database (and Redis when configured) answer (public)',
        description: '503 names what is down; it turns back to 200 by itself once the dependency returns. Route traffic by this one.',
        security: [],
        responses: { 200: jsonResponse('Ready', readinessSchema), 503: jsonResponse('A dependency is down', readinessSchema) },
      }),
      async (c) => {
        const readiness = await checkReadiness(db, redisPing);
        return c.json(readiness, readiness.status === 'ready' ? 200 : 503);
      },
    );
}
