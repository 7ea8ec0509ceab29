import { AppError } from '../errors';

interface Run {
  controller: AbortController;
  finished: Promise<unknown>;
}

/**
 * The turns running in this process, by chat id: one at a time per chat, so the explicit
 * Stop can abort it and a second submit does not interleave with the first.
 */
export class ActiveRuns {
  private readonly runs = new Map<string, Run>();

  begin(chatId: string): AbortController {
    if (this.runs.has(chatId)) {
      throw new AppError(409, 'conflict', 'this chat is already answering: wait for it to finish, or stop it first');
    }
    const controller = new AbortController();
    this.runs.set(chatId, { controller, finished: Promise.resolve() });
    return controller;
  }

  track(chatId: string, finished: Promise<unknown>): void {
    const run = this.runs.get(chatId);
    if (!run) return;
    run.finished = finished;
    const cleanup = () => {
      if (this.runs.get(chatId) === run) this.runs.delete(chatId);
    };
    finished.then(cleanup, cleanup);
  }

  end(chatId: string): void {
    this.runs.delete(chatId);
  }

  isRunning(chatId: string): boolean {
    return this.runs.has(chatId);
  }

  /** Aborts the chat's running turn and waits until what it produced is stored. */
  async stop(chatId: string): Promise<boolean> {
    const run = this.runs.get(chatId);
    if (!run) return false;
    run.controller.abort(new Error('stopped by the user'));
    await run.finished.catch(() => {});
    return true;
  }

  /** For shutdown: let running turns store their state. */
  async stopAll(): Promise<void> {
    await Promise.all([...this.runs.keys()].map((id) => this.stop(id)));
  }
}
