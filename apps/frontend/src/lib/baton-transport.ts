import type { BatonUIMessage } from '@baton/schemas';
import { APICallError, DefaultChatTransport, type ChatTransport, type UIMessageChunk } from 'ai';
import { replayAfter } from './run-replay';
import { fetchSignedIn } from './sign-in-redirect';

type SendOptions = Parameters<ChatTransport<BatonUIMessage>['sendMessages']>[0];
type ReconnectOptions = Parameters<ChatTransport<BatonUIMessage>['reconnectToStream']>[0];

/**
 * A replay starts from the run's beginning: `beforeReplay` puts the transcript back to
 * that point, and `base` is what the run's message held then (a continuation), rebuilt in
 * front of the replay.
 */
export interface ReplayStart {
  beforeReplay: () => void;
  base?: BatonUIMessage;
}

/**
 * Baton's wire format for one chat:
 * - sending: the server keeps the history, so only the newest message goes out
 *   (`POST /api/workspaces/:ws/chat`);
 * - resuming: `GET …/chats/:id/stream` replays the chat's running answer from its start
 *   and follows it live (204: nothing is running).
 */
export class BatonChatTransport extends DefaultChatTransport<BatonUIMessage> {
  private replay: ReplayStart | undefined;
  /** Whether the last resume found a running answer to read (false: the server answered 204). */
  lastResumeFoundRun = false;

  constructor(workspaceId: string, body: Record<string, unknown> = {}) {
    const ws = encodeURIComponent(workspaceId);
    super({
      api: `/api/workspaces/${ws}/chat`,
      fetch: fetchSignedIn,
      prepareSendMessagesRequest: ({ id, messages, trigger, body: requestBody }) => ({
        body: { ...body, ...requestBody, id, message: messages.at(-1), trigger },
      }),
      prepareReconnectToStreamRequest: ({ id }) => ({ api: `/api/workspaces/${ws}/chats/${encodeURIComponent(id)}/stream` }),
    });
  }

  /** How the next resume meets the replay of the run it finds (see ReplayStart). */
  expectReplay(replay: ReplayStart): void {
    this.replay = replay;
  }

  override async reconnectToStream(options: ReconnectOptions): Promise<ReadableStream<UIMessageChunk> | null> {
    const replay = this.replay;
    this.replay = undefined;
    const stream = await super.reconnectToStream(options);
    this.lastResumeFoundRun = stream !== null;
    if (!stream || !replay) return stream;
    // Only now that there is a replay to show does the transcript go back to the run's start,
    // so a chat with nothing to resume never blinks.
    replay.beforeReplay();
    return replay.base ? stream.pipeThrough(replayAfter(replay.base)) : stream;
  }

  /**
   * A continuation (the parent's message with its newTask outputs) that another tab sent
   * first is refused with 409 once its answer is over. That is no failure: nothing is
   * streamed here, and the session's continuation check (continue-or-follow.ts), which runs
   * again when this empty answer ends, finds the answer on the server and shows it.
   */
  override async sendMessages(options: SendOptions): Promise<ReadableStream<UIMessageChunk>> {
    try {
      return await super.sendMessages(options);
    } catch (err) {
      const continuation = options.trigger === 'submit-message' && options.messages.at(-1)?.role === 'assistant';
      if (continuation && APICallError.isInstance(err) && err.statusCode === 409) return new ReadableStream({ start: (c) => c.close() });
      throw err;
    }
  }
}
