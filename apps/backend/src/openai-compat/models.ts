import type { OpenAiModel } from '@baton/schemas';
import { and, asc, eq, or, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { agent } from '../db/schema';
import type { AgentRow } from '../services/agents';
import { OpenAiHttpError } from './errors';

/** An agent as an OpenAI model object: its id is the model id, its name is shown as the owner. */
export function toOpenAiModel(row: AgentRow): OpenAiModel {
  return {
    id: row.id,
    object: 'model',
    created: Math.floor(row.createdAt.getTime() / 1000),
    owned_by: row.name,
    name: row.name,
    description: row.description,
  };
}

/** Every agent of the workspace (a model list is not paged), oldest first like the agents page. */
export async function listModelAgents(db: Database, workspaceId: string): Promise<AgentRow[]> {
  return db.select().from(agent).where(eq(agent.workspaceId, workspaceId)).orderBy(asc(agent.createdAt), asc(agent.id));
}

/**
 * The agent a `model` names: its id, or its name (case-insensitive, as names are unique
 * that way) — many clients let a person type the model, and a name is easier to type.
 */
export async function requireModelAgent(db: Database, workspaceId: string, model: string): Promise<AgentRow> {
  // A NUL byte cannot be in a stored id or name (and Postgres refuses it in a query).
  const rows = model.includes('\u0000')
    ? []
    : await db
        .select()
        .from(agent)
        .where(and(eq(agent.workspaceId, workspaceId), or(eq(agent.id, model), eq(sql`lower(${agent.name})`, model.toLowerCase()))))
        .limit(2);
  const row = rows.find((r) => r.id === model) ?? rows[0];
  if (!row) {
    throw new OpenAiHttpError(
      404,
      'invalid_request_error',
      'model_not_found',
      `The model "${model}" does not exist: use an agent id from GET /v1/models`,
      'model',
    );
  }
  return row;
}
