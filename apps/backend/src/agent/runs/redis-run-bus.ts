import type { BatonUIMessageChunk } from '@baton/schemas';
import { Redis } from 'ioredis';
import { SafeMessageError } from '../../errors';
import { log } from '../../ops/logger';
import { eventLogFailed, eventLogWritten } from '../../ops/metrics';
import type { RunEvent, RunEventReader } from './run-channel';

const STOP_CHANNEL = 'baton:run-stop';
/** A log outlives its run briefly, for a tab that reconnects just after the end. */
const ENDED_TTL_S = 600;
/** A log whose writer died without ending it still goes away eventually. */
const OPEN_TTL_S = 24 * 3600;
const BLOCK_MS = 2_000;
/** How long a resume waits to learn whether Redis answers before saying it does not. */
const REACHABLE_TIMEOUT_MS = 2_000;

/**
 * Redis does not answer, so this replica cannot read an answer another replica is running.
 * Its text is for the person (and the API client): what happened and what to do.
 */
export class RunEventsUnavailableError extends SafeMessageError {
  constructor() {
    super(
      'This answer is being written on another Baton server, and this one cannot follow it because Redis is not answering. Reload the chat to see the answer once it is stored, or try again in a moment.',
    );
    this.name = 'RunEventsUnavailableError';
  }
}

const keyOf = (runId: string) => `baton:run:${runId}:events`;
// Redis stream ids carry the run's own sequence number (seq n → id 0-(n+1)), so a reader
// resumes after any sequence number without a lookup.
const idOf = (seq: number) => `0-${seq + 1}`;
const seqOf = (id: string) => Number(id.slice(id.indexOf('-') + 1)) - 1;

/**
 * What lets several backend replicas share runs through Redis: each run's events are
 * mirrored into a Redis Stream (so any replica can serve a resumed stream), and Stop is
 * broadcast with pub/sub (so the replica running the turn aborts it at once).
 */
export class RedisRunBus {
  private readonly commands: Redis;
  private subscriber: Redis | undefined;
  private readonly readers = new Set<Redis>();

  constructor(url: string) {
    // Auto-pipelining batches the per-chunk XADDs of all runs issued in one tick into one write.
    this.commands = new Redis(url, { enableAutoPipelining: true, maxRetriesPerRequest: 3, lazyConnect: false });
    this.commands.on('error', (err: Error) => log.error({ error: err.message }, 'redis error'));
  }

  append(runId: string, seq: number, chunk: BatonUIMessageChunk): void {
    const key = keyOf(runId);
    this.commands.xadd(key, idOf(seq), 'c', JSON.stringify(chunk)).then(eventLogWritten(seq), logFailure);
    if (seq === 0) this.commands.expire(key, OPEN_TTL_S).catch(logFailure);
  }

  end(runId: string, lastSeq: number): void {
    const key = keyOf(runId);
    this.commands.xadd(key, idOf(lastSeq + 1), 'end', '1').then(eventLogWritten(lastSeq + 1, true), logFailure);
    this.commands.expire(key, ENDED_TTL_S).catch(logFailure);
  }

  /**
   * Resolves when Redis answers a PING within `timeoutMs`; otherwise throws
   * RunEventsUnavailableError. Asked before a resume answers 200 with a stream, so a client
   * gets a JSON error it can act on instead of a stream that breaks at its first read.
   */
  async checkReachable(timeoutMs = REACHABLE_TIMEOUT_MS): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new RunEventsUnavailableError()), timeoutMs);
    });
    try {
      await Promise.race([this.commands.ping(), timeout]);
    } catch {
      throw new RunEventsUnavailableError();
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * The events after `afterSeq`, live until the end marker, in batches (what one XREAD returns). `stillRunning` is asked when
   * nothing arrives for a while: a writer that died leaves no end marker behind.
   */
  read(runId: string, afterSeq: number, stillRunning: () => Promise<boolean>): RunEventReader {
    const key = keyOf(runId);
    // XREAD BLOCK holds its connection, so every follower has its own.
    const connection = this.commands.duplicate({ enableAutoPipelining: false });
    connection.on('error', () => {});
    this.readers.add(connection);
    let last = idOf(afterSeq);
    let done = false;
    const close = () => {
      done = true;
      this.readers.delete(connection);
      connection.disconnect();
    };
    return {
      next: async () => {
        while (!done) {
          let reply: [string, [string, string[]][]][] | null;
          try {
            reply = (await connection.xread('COUNT', 1000, 'BLOCK', BLOCK_MS, 'STREAMS', key, last)) as typeof reply;
          } catch {
            // Cancelled while waiting: the connection was closed under the read.
            if (done) return undefined;
            // Redis went away (ioredis gives up after its retries): say why, the stream ends.
            close();
            throw new RunEventsUnavailableError();
          }
          const entries = reply?.[0]?.[1] ?? [];
          if (entries.length === 0) {
            if (!(await stillRunning())) close();
            continue;
          }
          const batch: RunEvent[] = [];
          for (const [id, fields] of entries) {
            last = id;
            if (fields[0] === 'end') {
              close();
              break;
            }
            batch.push({ seq: seqOf(id), chunk: JSON.parse(fields[1]!) as BatonUIMessageChunk });
          }
          if (batch.length > 0) return batch;
        }
        return undefined;
      },
      cancel: close,
    };
  }

  publishStop(runId: string): void {
    this.commands.publish(STOP_CHANNEL, runId).catch(logFailure);
  }

  async onStop(handler: (runId: string) => void): Promise<void> {
    this.subscriber ??= this.commands.duplicate({ enableAutoPipelining: false });
    this.subscriber.on('error', (err: Error) => log.error({ error: err.message }, 'redis subscriber error'));
    this.subscriber.on('message', (channel: string, runId: string) => {
      if (channel === STOP_CHANNEL) handler(runId);
    });
    await this.subscriber.subscribe(STOP_CHANNEL);
  }

  async close(): Promise<void> {
    for (const reader of this.readers) reader.disconnect();
    this.readers.clear();
    this.subscriber?.disconnect();
    await this.commands.quit().catch(() => this.commands.disconnect());
  }
}

function logFailure(err: Error) {
  eventLogFailed();
  log.error({ error: err.message }, 'redis command failed');
}
