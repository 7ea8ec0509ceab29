// Steering a running sub-agent: the AI SDK's experimental steering, fed from the database.
// When a step of the sub-agent's model loop ends, the run reads the messages queued for it
// (by any replica's POST) and hands them to the SDK, which adds them to the next step's input
// and streams a `steering-message` part before that step's output, so the delivered message is
// stored in the sub-chat's answer where the model saw it. A step that ended the answer
// without a tool call still gets a next step when a message is waiting.
//
// A message's files reach the model as a message's files do (file-contents.ts: images as
// images, PDFs as files, text files as text), read from the store when it is delivered; the
// stored part keeps their references, never the bytes.
import type { BatonUIMessageChunk, FileUIPartInput } from '@baton/schemas';
import { experimental_createSteering as createSteering, type Experimental_Steering as Steering, type UserContent } from 'ai';
import type { Database } from '../db/client';
import { logError } from '../error-text';
import { markSteeringDelivered, type QueuedSteering, undeliveredSteering } from '../services/steering';
import type { FileStore } from '../storage/file-store';
import { modelFileContent } from './file-contents';

export interface RunSteering {
  steering: Steering;
  /** Called when a step ends, before the SDK decides whether another step follows. */
  pickUp(): Promise<void>;
  /**
   * The run's UI chunks with each delivered message with files as it was sent (its file
   * references) in place of what the SDK streams (the files' contents, as the model got them).
   */
  storedParts(): TransformStream<BatonUIMessageChunk, BatonUIMessageChunk>;
}

type SteeringChunk = Extract<BatonUIMessageChunk, { type: 'steering-message' }>;

/** The message's parts as stored: its files (references), then its text, as a message holds them. */
function sentParts({ text, files }: Pick<QueuedSteering, 'text' | 'files'>): SteeringChunk['parts'] {
  const fileParts = files.map((f: FileUIPartInput) => ({
    type: 'file' as const,
    mediaType: f.mediaType,
    url: f.url,
    ...(f.filename === undefined ? {} : { filename: f.filename }),
  }));
  return [...fileParts, ...(text ? [{ type: 'text' as const, text }] : [])];
}

/** `track` receives the writes that record a delivery, so the run's end can wait for them. */
export function steeringForRun(
  db: Database,
  store: FileStore,
  chat: { workspaceId: string; id: string },
  runId: string,
  track: (write: Promise<unknown>) => void,
  /** As for the run's other messages: whether its provider takes PDFs as files (file-contents.ts). */
  fileOptions: { pdfAsFile: boolean },
): RunSteering {
  const steering = createSteering();
  const handedOver: string[] = [];
  // Messages with files, by id: what their `steering-message` chunk is turned back into.
  const withFiles = new Map<string, SteeringChunk['parts']>();

  /** What the model gets: the text alone as before, or the files' contents and the text. */
  async function modelMessage(message: QueuedSteering): Promise<string | { role: 'user'; content: UserContent }> {
    if (message.files.length === 0) return message.text;
    const contents = await Promise.all(message.files.map((f) => modelFileContent(db, store, chat, f, fileOptions)));
    return { role: 'user', content: [...contents, ...(message.text ? [{ type: 'text' as const, text: message.text }] : [])] };
  }

  return {
    steering,
    async pickUp() {
      let waiting: QueuedSteering[];
      try {
        waiting = await undeliveredSteering(db, runId, handedOver);
      } catch (err) {
        // A failed read only delays the message to the next step; the answer goes on.
        logError('reading steering messages failed', err);
        return;
      }
      for (const message of waiting) {
        const { id } = message;
        let input: Awaited<ReturnType<typeof modelMessage>>;
        try {
          input = await modelMessage(message);
        } catch (err) {
          // The store not answering (S3 down): like a failed read, the message waits for the next step.
          logError(`reading the files of steering message ${id} failed`, err);
          return;
        }
        handedOver.push(id);
        if (message.files.length > 0) withFiles.set(id, sentParts(message));
        // The SDK settles the outcome once the next step's prompt is built (or the run ends).
        track(
          steering.steer(input, { id }).then(async (outcome) => {
            if (outcome.type !== 'delivered') return;
            await markSteeringDelivered(db, id, outcome.stepNumber).catch((err) => logError('marking a steering message delivered failed', err));
          }),
        );
      }
    },
    storedParts: () =>
      new TransformStream({
        transform(chunk, controller) {
          const sent = chunk.type === 'steering-message' ? withFiles.get(chunk.id) : undefined;
          controller.enqueue(chunk.type === 'steering-message' && sent ? { ...chunk, parts: sent } : chunk);
        },
      }),
  };
}
