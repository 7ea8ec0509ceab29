// Steering a running sub-agent: the AI SDK's experimental steering, fed from the database.
// When a step of the sub-agent's model loop ends, the run reads the messages queued for it
// (by any replica's POST) and hands them to the SDK, which adds them to the next step's input
// and streams a `steering-message` part before that step's output, so the delivered message is
// stored in the sub-chat's answer where the model saw it. A step that ended the answer
// without a tool call still gets a next step when a message is waiting.
import { experimental_createSteering as createSteering, type Experimental_Steering as Steering } from 'ai';
import type { Database } from '../db/client';
import { logError } from '../error-text';
import { markSteeringDelivered, undeliveredSteering } from '../services/steering';

export interface RunSteering {
  steering: Steering;
  /** Called when a step ends, before the SDK decides whether another step follows. */
  pickUp(): Promise<void>;
}

/** `track` receives the writes that record a delivery, so the run's end can wait for them. */
export function steeringForRun(db: Database, runId: string, track: (write: Promise<unknown>) => void): RunSteering {
  const steering = createSteering();
  const handedOver: string[] = [];
  return {
    steering,
    async pickUp() {
      let waiting: { id: string; text: string }[];
      try {
        waiting = await undeliveredSteering(db, runId, handedOver);
      } catch (err) {
        // A failed read only delays the message to the next step; the answer goes on.
        logError('reading steering messages failed', err);
        return;
      }
      for (const { id, text } of waiting) {
        handedOver.push(id);
        // The SDK settles the outcome once the next step's prompt is built (or the run ends).
        track(
          steering.steer(text, { id }).then(async (outcome) => {
            if (outcome.type !== 'delivered') return;
            await markSteeringDelivered(db, id, outcome.stepNumber).catch((err) => logError('marking a steering message delivered failed', err));
          }),
        );
      }
    },
  };
}
