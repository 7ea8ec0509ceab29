import type { BatonUIMessage } from '@baton/schemas';
import { APICallError, DefaultChatTransport, type ChatTransport, type UIMessageChunk } from 'ai';
import { dropRunErrorEcho } from './run-error-echo';
import { replayAfter } from './run-replay';
import { fetchSignedIn } from './sign-in-redirect';
import { REATTACH_DELAYS_MS, reattachOnDrop, RunUnreachableError } from './stream-reattach';

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
 *   and follows it live (204: nothing is running);
 * - a stream that drops while the answer runs is read again after its last event
 *   (stream-reattach.ts): the chat sees one stream, never a "network error";
 * - a failed answer shows its stored reason, not the protocol's `error` chunk as well.
 */
export class BatonChatTransport extends DefaultChatTransport<BatonUIMessage> {
  private replay: ReplayStart | undefined;
  /** Whether the last resume found a running answer to read (false: the server answered 204). */
  lastResumeFoundRun = false;
  private readonly streamApi: (chatId: string) => string;
  /** Called when a dropped stream's run ended before this page could read it again: show the stored answer. */
  onEndedUnseen: () => void = () => {};
  /** Waits before each try to read a dropped stream's run again (tests shorten them). */
  reattachDelaysMs: readonly number[] = REATTACH_DELAYS_MS;

  constructor(workspaceId: string, body: Record<string, unknown> = {}) {
    const ws = encodeURIComponent(workspaceId);
    const streamApi = (chatId: string) => `/api/workspaces/${ws}/chats/${encodeURIComponent(chatId)}/stream`;
    super({
      api: `/api/workspaces/${ws}/chat`,
      fetch: (input, init) => this!.fetchReattaching(input, init),
      prepareSendMessagesRequest: ({ id, messages, trigger, body: requestBody }) => ({
        body: { ...body, ...requestBody, id, message: messages.at(-1), trigger },
      }),
      prepareReconnectToStreamRequest: ({ id }) => ({ api: streamApi(id) }),
    });
    this.streamApi = streamApi;
  }

  /**
   * The transport's fetch: a run's stream (the chat POST, or a resume GET of the stream URL)
   * is read again after a drop (stream-reattach.ts), under the request's own abort signal.
   */
  private async fetchReattaching(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    const res = await fetchSignedIn(input, init);
    if (!res.ok || !res.body || res.status === 204) return res;
    // The POST's body is this transport's own (prepareSendMessagesRequest): the chat's id is `id`.
    const streamUrl = init?.method === 'POST' ? this.streamApi(JSON.parse(String(init.body)).id) : String(input);
    const body = reattachOnDrop(res.body, {
      signal: init?.signal ?? undefined,
      delaysMs: this.reattachDelaysMs,
      onEndedUnseen: () => this.onEndedUnseen(),
      readAfter: async (afterSeq, signal) => {
        const again = await fetchSignedIn(streamUrl, { headers: { 'last-event-id': String(afterSeq) }, signal });
        if (again.status === 204) return 'ended';
        // The web app's proxy could not reach the backend (restarting): try again shortly.
        if (again.status >= 500) throw new RunUnreachableError(`the server answered HTTP ${again.status}`);
        if (!again.ok || !again.body) throw new Error(`The answer's stream could not be read again (HTTP ${again.status}).`);
        return again.body;
      },
    });
    return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
  }

  /** The chunks of a response, live or replayed: a failed answer's reason is its stored part (run-error-echo.ts). */
  protected override processResponseStream(stream: ReadableStream<Uint8Array>): ReadableStream<UIMessageChunk> {
    return super.processResponseStream(stream).pipeThrough(dropRunErrorEcho());
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
