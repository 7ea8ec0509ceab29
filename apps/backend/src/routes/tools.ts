import { modelsInfoSchema, toolListSchema } from '@baton/schemas';
import { Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import { describeDefaultModel } from '../agent/models';
import { listBuiltInTools } from '../services/built-in-tools';
import { jsonResponse } from '../http/validation';
import type { AppDeps } from './deps';

/** Mounted at /api: the built-in tools agents can use, and which default model is active. */
export function catalogRoutes(deps: AppDeps) {
  return new Hono()
    .get(
      '/tools',
      describeRoute({ tags: ['Catalog'], summary: 'Built-in server tools (for agent.toolIds)', responses: { 200: jsonResponse('Tools', toolListSchema) } }),
      (c) => c.json({ data: listBuiltInTools() }),
    )
    .get(
      '/models',
      describeRoute({
        tags: ['Catalog'],
        summary: 'Which model answers agents without a provider: the offline demo model or an OpenAI-compatible default',
        responses: { 200: jsonResponse('The default model', modelsInfoSchema) },
      }),
      (c) => c.json({ default: describeDefaultModel(deps.defaultModel) }),
    );
}
