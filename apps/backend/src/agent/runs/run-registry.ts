import { randomBytes } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { hostname } from 'node:os';
import type { RunStatus, BatonUIMessageChunk } from '@baton/schemas';
import type { ChatRow } from '../../services/chat-rows';
import type { RunRow } from '../../services/runs';
import type { RedisRunBus } from './redis-run-bus';
import { RunChannel, type RunEventReader } from './run-channel';

/** Why a run's model call was aborted; it decides how the run ends. */
export type RunAbortReason =
  /** The person pressed Stop (or deleted the chat): the run ends `cancelled`. */
  | { kind: 'stop' }
  /** This process is shutting down: the run ends `interrupted`, never "cancelled by user". */
  | { kind: 'shutdown' }
  /** Another replica already marked the run interrupted: write nothing more. */
  | { kind: 'lost' }
  /**
   * A sub-agent below waits for a person (nested approval): the run ends `awaiting_approval`
   * with its call unfinished, and is continued when that sub-chat has ended (paused-answers.ts).
   */
  | { kind: 'pause' };

/** A run whose end was stored (runs/execute-run.ts). */
export interface RunEnded {
  run: RunRow;
  chat: ChatRow;
  status: Exclude<RunStatus, 'running'>;
}

export interface LocalRun {
  row: RunRow;
  controller: AbortController;
  channel: RunChannel;
  /** Settles once the run's end is stored. */
  finished: Promise<unknown>;
}

/** How long a finished run's events stay readable here, for a tab that joins just after the end. */
const ENDED_RETENTION_MS = 60_000;

/**
 * The runs executing in this process, and the way to their events. The database says
 * which runs exist and who owns them; this registry holds what only the owning process
 * can have: the abort controller and the live event log.
 */
export class RunRegistry {
  /** Identifies this process in `run.owner`. */
  readonly owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private readonly runs = new Map<string, LocalRun>();
  private readonly recentlyEnded = new Map<string, RunChannel>();
  /** Set on shutdown: new runs are refused. */
  draining = false;
  private recoveredListener?: (runs: RunRow[], atStartup: boolean) => void;
  private recoveredEarly?: { runs: RunRow[]; atStartup: boolean };
  private endedListener?: (ended: RunEnded) => void;

  constructor(readonly bus?: RedisRunBus) {}

  start(row: RunRow): LocalRun {
    const controller = new AbortController();
    // Each sub-agent of a batch (up to 10) forwards the run's abort, next to the AI SDK's own
    // listeners: more than Node's default of 10 is expected, not a leak.
    setMaxListeners(64, controller.signal);
    const local: LocalRun = { row, controller, channel: new RunChannel(), finished: Promise.resolve() };
    this.runs.set(row.id, local);
    return local;
  }

  emit(local: LocalRun, chunk: BatonUIMessageChunk): void {
    const seq = local.channel.push(chunk);
    this.bus?.append(local.row.id, seq, chunk);
  }

  /** After the run's end is stored: readers finish, and the log lingers briefly for late joiners. */
  end(local: LocalRun): void {
    local.channel.end();
    this.bus?.end(local.row.id, local.channel.events.length - 1);
    this.runs.delete(local.row.id);
    this.recentlyEnded.set(local.row.id, local.channel);
    setTimeout(() => this.recentlyEnded.delete(local.row.id), ENDED_RETENTION_MS).unref();
  }

  /**
   * Runs of dead processes that recovery just ended: what waits on them is told (a paused
   * answer above a sub-agent, paused-answers.ts). Recovery at start-up comes before the app
   * listens; what it found is kept until it does, and is reported even when empty (a
   * previous process may have stopped before continuing a paused answer).
   */
  recovered(runs: RunRow[], atStartup = false): void {
    if (runs.length === 0 && !atStartup) return;
    if (this.recoveredListener) this.recoveredListener(runs, atStartup);
    else this.recoveredEarly = { runs: [...(this.recoveredEarly?.runs ?? []), ...runs], atStartup: atStartup || Boolean(this.recoveredEarly?.atStartup) };
  }

  onRecovered(listener: (runs: RunRow[], atStartup: boolean) => void): void {
    this.recoveredListener = listener;
    const early = this.recoveredEarly;
    this.recoveredEarly = undefined;
    if (early) listener(early.runs, early.atStartup);
  }

  /**
   * A run of this process stored its end: what waits on it is told (a paused answer above a
   * sub-agent, or a pausing answer whose sub-agents ended first: paused-answers.ts). An event
   * the composition root subscribes to, so the run loop does not import what its end starts.
   */
  runEnded(ended: RunEnded): void {
    this.endedListener?.(ended);
  }

  onRunEnded(listener: (ended: RunEnded) => void): void {
    this.endedListener = listener;
  }

  get(runId: string): LocalRun | undefined {
    return this.runs.get(runId);
  }

  ids(): string[] {
    return [...this.runs.keys()];
  }

  get size(): number {
    return this.runs.size;
  }

  abort(runId: string, reason: RunAbortReason): boolean {
    const local = this.runs.get(runId);
    if (!local) return false;
    if (!local.controller.signal.aborted) local.controller.abort(reason);
    return true;
  }

  /** Asks whichever process runs it to stop: here directly, elsewhere through Redis. */
  signalStop(runId: string): void {
    if (!this.abort(runId, { kind: 'stop' })) this.bus?.publishStop(runId);
  }

  /** Whether this process holds the run's events itself (it runs, or just ran, here). */
  hasEvents(runId: string): boolean {
    return this.runs.has(runId) || this.recentlyEnded.has(runId);
  }

  /**
   * A run's events after `afterSeq`: from this process when it runs (or just ran) here,
   * else from Redis. Undefined when neither has them.
   */
  read(runId: string, afterSeq: number, stillRunning: () => Promise<boolean>): RunEventReader | undefined {
    const channel = this.runs.get(runId)?.channel ?? this.recentlyEnded.get(runId);
    if (channel) return channel.read(afterSeq);
    return this.bus?.read(runId, afterSeq, stillRunning);
  }

  /**
   * Shutdown: refuse new runs, give the running ones `graceMs` to finish, then interrupt
   * the rest and wait until their state is stored.
   */
  async drain(graceMs: number): Promise<void> {
    this.draining = true;
    const all = () => Promise.allSettled([...this.runs.values()].map((r) => r.finished));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([all(), new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))]);
    clearTimeout(timer);
    for (const id of this.runs.keys()) this.abort(id, { kind: 'shutdown' });
    await all();
  }
}
