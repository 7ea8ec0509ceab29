import { Chat } from '@ai-sdk/react';
import type { BatonUIMessage, ChatWithMessages } from '@baton/schemas';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BatonChatTransport } from './baton-transport';
import { followServerRun } from './follow-server-run';

/*
 * Two tabs on one chat: this one (the second) did not send the parent's continuation; the
 * other did. The server is the boundary here: `fetch` answers this tab's reads in an order a
 * real server cannot be made to keep on cue — a read issued before the continuation began
 * answering after this tab learnt of it (CI, 2026-11-27: the second tab kept the result
 * without the answer to it).
 */

const CHAT = 'chat_join';
const call = {
  type: 'tool-newTask',
  toolCallId: 'c1',
  state: 'output-available',
  input: { subAgentId: 'a', task: 't' },
  output: { result: 'r', outcome: 'success' },
};
const stored = (parts: unknown[], activeRun: unknown = null) =>
  ({
    id: CHAT,
    activeRun,
    messages: [
      { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'go' }], createdAt: '2026-11-28T00:00:00.000Z' },
      { id: 'a1', role: 'assistant', parts, createdAt: '2026-11-28T00:00:00.000Z' },
    ],
  }) as unknown as ChatWithMessages;

afterEach(() => vi.unstubAllGlobals());

describe('a follow joined by a caller with a newer copy', () => {
  it('reads the chat again once the follow under way ends, and shows the continuation', async () => {
    const waiting = stored([{ ...call, state: 'input-available', output: undefined }]);
    const answered = stored([call, { type: 'step-start' }, { type: 'text', text: 'Here is what came back', state: 'done' }]);
    let releaseOld!: () => void;
    const reads: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        reads.push(url);
        // The first read left before the continuation began and answers last; later reads see the end.
        if (reads.length === 1) await new Promise<void>((resolve) => (releaseOld = resolve));
        return Response.json(reads.length === 1 ? waiting : answered);
      }),
    );
    const chat = new Chat<BatonUIMessage>({ id: CHAT, messages: [] });
    const target = { workspaceId: 'default', chatId: CHAT, chat, transport: new BatonChatTransport('default') };

    const underWay = followServerRun(target);
    await vi.waitFor(() => expect(reads).toHaveLength(1));
    // Another tab's continuation has ended by the time this tab reads about it.
    const joined = followServerRun(target, answered);
    releaseOld();
    await underWay;
    await joined;

    expect(reads).toHaveLength(2);
    expect(chat.messages.at(-1)!.parts.at(-1)).toMatchObject({ type: 'text', text: 'Here is what came back' });
  });
});
