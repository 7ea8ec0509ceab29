import type { ChatTrace, TraceNode } from '@baton/schemas';
import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { agent, chat, run, type RunStatus } from '../db/schema';
import { notFound } from '../errors';
import { chatSubtree } from './chat-subtree';
import { requireChat } from './chat-repository';
import type { ChatOwner } from './chat-rows';

/**
 * A chat's delegation tree, in two queries whatever its size: the chat (ownership and
 * 404), then every chat of its subtree with its agent's name and its runs folded into one
 * row (first start, last end, steps, latest status). The tree is put together here.
 */
export async function chatTrace(db: Database, owner: ChatOwner, chatId: string): Promise<ChatTrace> {
  const start = await requireChat(db, owner, chatId);
  const subtree = chatSubtree(db, chatId, owner);
  const runs = db
    .select({
      chatId: run.chatId,
      firstStart: sql<Date>`min(${run.startedAt})`.mapWith(run.startedAt).as('first_start'),
      lastEnd: sql<Date | null>`max(${run.endedAt})`.mapWith(run.endedAt).as('last_end'),
      steps: sql<number>`sum(${run.steps})`.mapWith(Number).as('steps'),
      // The newest run says how the chat stands now (a retried turn replaces a failed one).
      latestStatus: sql<RunStatus>`(array_agg(${run.status} order by ${run.startedAt} desc, ${run.id} desc))[1]`.as('latest_status'),
    })
    .from(run)
    .where(inArray(run.chatId, db.select({ id: subtree.id }).from(subtree.cte)))
    .groupBy(run.chatId)
    .as('run_totals');
  const rows = await db
    .with(subtree.cte)
    .select({
      level: subtree.level,
      id: chat.id,
      parentChatId: chat.parentChatId,
      agentId: chat.agentId,
      agentName: agent.name,
      task: chat.delegateTask,
      outcome: chat.outcome,
      createdAt: chat.createdAt,
      inputTokens: chat.inputTokens,
      outputTokens: chat.outputTokens,
      replacedInputTokens: chat.replacedInputTokens,
      replacedOutputTokens: chat.replacedOutputTokens,
      firstStart: runs.firstStart,
      lastEnd: runs.lastEnd,
      steps: runs.steps,
      latestStatus: runs.latestStatus,
    })
    .from(subtree.cte)
    .innerJoin(chat, eq(chat.id, subtree.id))
    .leftJoin(agent, eq(agent.id, chat.agentId))
    .leftJoin(runs, eq(runs.chatId, chat.id))
    .orderBy(asc(subtree.level), asc(chat.createdAt), asc(chat.id));

  const nodes = new Map<string, TraceNode>();
  for (const row of rows) {
    const startedAt = row.firstStart ?? row.createdAt;
    const status = row.latestStatus ?? null;
    // A chat still at work has not ended, whatever earlier runs did.
    const endedAt = status === null || status === 'running' ? null : row.lastEnd;
    const node: TraceNode = {
      chatId: row.id,
      agentId: row.agentId,
      agentName: row.agentName,
      task: row.task,
      depth: start.depth + row.level,
      status,
      outcome: row.outcome,
      startedAt: startedAt.toISOString(),
      endedAt: endedAt?.toISOString() ?? null,
      durationMs: endedAt ? endedAt.getTime() - startedAt.getTime() : null,
      steps: row.steps ?? 0,
      usage: { inputTokens: row.inputTokens, outputTokens: row.outputTokens },
      replacedUsage: { inputTokens: row.replacedInputTokens, outputTokens: row.replacedOutputTokens },
      children: [],
    };
    nodes.set(row.id, node);
    // Rows come level by level, so a parent is always placed before its children.
    if (row.level > 0) nodes.get(row.parentChatId!)?.children.push(node);
  }
  const root = nodes.get(start.id);
  // Deleted between the two queries.
  if (!root) throw notFound('Chat', chatId);
  return { root };
}
