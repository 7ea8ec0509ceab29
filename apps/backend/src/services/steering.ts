// Messages a person sends to a running sub-agent ("steering"). They are rows first and
// model input second: the run that was running when one was sent picks it up at its next
// step, on whichever replica it runs (agent/steering.ts). Files go with them under the rules of
// a message's files (message-files.ts): they become files of the sub-chat when queued.
import type { FileUIPartInput, SteeringMessage } from '@baton/schemas';
import { and, asc, eq, isNull, notInArray } from 'drizzle-orm';
import type { Database } from '../db/client';
import { run, steeringMessage } from '../db/schema';
import { AppError } from '../errors';
import { newId } from '../ids';
import { lockChat, requireChat } from './chat-repository';
import type { ChatOwner, ChatRow } from './chat-rows';
import { type FileSettings, putInChat } from './files';
import { readUserParts, resolveMessageFiles } from './message-files';
import { findActiveRun } from './runs';

type SteeringRow = typeof steeringMessage.$inferSelect;

function toSteeringMessage(row: SteeringRow, runRunning: boolean): SteeringMessage {
  return {
    id: row.id,
    chatId: row.chatId,
    text: row.text,
    files: row.files,
    // A message its run never delivered stays queued only while that run is still at work.
    status: row.deliveredAt ? 'delivered' : runRunning ? 'queued' : 'not_delivered',
    stepNumber: row.stepNumber,
    createdAt: row.createdAt.toISOString(),
    deliveredAt: row.deliveredAt?.toISOString() ?? null,
  };
}

const notRunning = (chat: ChatRow) =>
  new AppError(
    409,
    'conflict',
    chat.outcome
      ? `this sub-agent is not running any more (it ended: ${chat.outcome}), so it cannot take a message; retry the delegation from the parent chat to run it again`
      : 'this sub-agent is not running, so it cannot take a message',
  );

/**
 * Queues a message for the running sub-agent of `chat` (already known to be a sub-chat of the
 * caller): its text and files, the files checked and stored as a message's are (count limit,
 * an upload of the sender in this workspace or a `data:` URL) and put into the sub-chat. The
 * chat is locked, so the check for a running run and the insert see the same state as the
 * run's end, which locks the chat too; a refused file leaves nothing behind.
 */
export async function queueSteeringMessage(
  db: Database,
  settings: FileSettings,
  owner: ChatOwner,
  chatId: string,
  message: { text: string; files: readonly FileUIPartInput[] },
): Promise<SteeringMessage> {
  // Files first, then the text, as a message from the web app or REST holds them.
  const read = readUserParts({ parts: [...message.files, ...(message.text ? [{ type: 'text', text: message.text }] : [])] }, settings.limits);
  return db.transaction(async (tx) => {
    const chat = await lockChat(tx, owner, chatId);
    if (!chat) throw new AppError(404, 'not_found', `Chat "${chatId}" was not found`);
    const active = await findActiveRun(tx, chat.id);
    if (!active) throw notRunning(chat);
    const resolved = read.files.length > 0 ? await resolveMessageFiles(tx, settings, owner, chat.id, read) : { parts: [], files: [] };
    await putInChat(tx, chat.id, resolved.files);
    const [row] = await tx
      .insert(steeringMessage)
      .values({
        id: newId('steer'),
        chatId: chat.id,
        runId: active.id,
        text: read.text,
        files: resolved.parts.flatMap((p) => (p.type === 'file' ? [p] : [])),
      })
      .returning();
    return toSteeringMessage(row!, true);
  });
}

/** Every message sent to a sub-chat, oldest first, with whether it reached the sub-agent. */
export async function listSteeringMessages(db: Database, owner: ChatOwner, chatId: string): Promise<SteeringMessage[]> {
  const chat = await requireChat(db, owner, chatId);
  const rows = await db
    .select({ row: steeringMessage, runStatus: run.status })
    .from(steeringMessage)
    .innerJoin(run, eq(run.id, steeringMessage.runId))
    .where(eq(steeringMessage.chatId, chat.id))
    .orderBy(asc(steeringMessage.createdAt), asc(steeringMessage.id));
  return rows.map(({ row, runStatus }) => toSteeringMessage(row, runStatus === 'running'));
}

/** A queued message as its run delivers it. */
export interface QueuedSteering {
  id: string;
  text: string;
  files: FileUIPartInput[];
}

/** The run's messages not delivered yet, oldest first, leaving out those already handed to the model call. */
export async function undeliveredSteering(db: Database, runId: string, handedOver: string[]): Promise<QueuedSteering[]> {
  return db
    .select({ id: steeringMessage.id, text: steeringMessage.text, files: steeringMessage.files })
    .from(steeringMessage)
    .where(
      and(
        eq(steeringMessage.runId, runId),
        isNull(steeringMessage.deliveredAt),
        handedOver.length > 0 ? notInArray(steeringMessage.id, handedOver) : undefined,
      ),
    )
    .orderBy(asc(steeringMessage.createdAt), asc(steeringMessage.id));
}

export async function markSteeringDelivered(db: Database, id: string, stepNumber: number): Promise<void> {
  await db.update(steeringMessage).set({ deliveredAt: new Date(), stepNumber }).where(eq(steeringMessage.id, id));
}
