'use client';

import type { Chat } from '@ai-sdk/react';
import type { BatonUIMessage, BatonUITools, ChatWithMessages } from '@baton/schemas';
import { isToolUIPart, lastAssistantMessageIsCompleteWithToolCalls } from 'ai';
import { create } from 'zustand';
import type { BatonChatTransport } from './baton-transport';
import { readChat } from './queries';
import { transcriptAtRunStart } from './run-replay';
import { toUIMessages } from './stored-messages';

/*
 * Following a chat's answer that this tab did not ask for: a page opened or reloaded while
 * the server answers, a second tab, a sub-chat started before a reload. The session resumes
 * the run's stream with the AI SDK's own `resumeStream`, so the answer continues token by
 * token and Stop works as in the tab that asked. When the run ends, the stored transcript is
 * shown; a run that began meanwhile (another tab's continuation) is followed in turn.
 */

export interface FollowTarget {
  workspaceId: string;
  chatId: string;
  chat: Chat<BatonUIMessage>;
  transport: BatonChatTransport;
}

/** A run whose stream cannot be read (its process died and is not recovered yet) is looked at again this often. */
const UNREADABLE_RETRY_MS = 1_000;

const useFollowingStore = create<{ following: Record<string, true> }>(() => ({ following: {} }));

function setFollowing(chatId: string, on: boolean) {
  const { following } = useFollowingStore.getState();
  if (Boolean(following[chatId]) === on) return;
  const next = { ...following };
  if (on) next[chatId] = true;
  else delete next[chatId];
  useFollowingStore.setState({ following: next });
}

/**
 * True while the chat follows a server-side answer, including the moments between
 * reading the snapshot and the first replayed chunk, or between two runs: the page shows
 * the answer as coming (and Stop) rather than a finished or unanswered chat.
 */
export function useFollowingRun(chatId: string): boolean {
  return useFollowingStore((s) => Boolean(s.following[chatId]));
}

/**
 * Calls `listener` each time the chat starts following a server-side answer (outside React:
 * a delegation's status is kept in a store, not a component).
 */
export function whenFollowingRun(chatId: string, listener: () => void): () => void {
  return useFollowingStore.subscribe((state, previous) => {
    if (state.following[chatId] && !previous.following[chatId]) listener();
  });
}

const follows = new Map<string, { done: Promise<ChatWithMessages | undefined>; stop: AbortController }>();

export interface FollowOptions {
  /** The caller just changed the chat: read it afresh, after any follow under way. */
  fresh?: boolean;
  /** A copy of the chat read this recently serves as the first read (the caller's own stream of it just ended, and that end read it). */
  recentMs?: number;
}

/**
 * Shows the stored chat and follows its running answer, if any, until nothing runs any
 * more. `snapshot` is a stored copy just read (saves a request). Resolves with the stored
 * chat at the end, undefined when the chat does not exist. One follow per chat at a time:
 * a second call (React StrictMode's double effects) joins the first — unless `fresh`, for a
 * caller that just changed the chat (a decision on an approval): a follow under way may have
 * read it before, so this one reads it again once that follow ends.
 */
export function followServerRun(target: FollowTarget, snapshot?: ChatWithMessages, opts: FollowOptions = {}): Promise<ChatWithMessages | undefined> {
  const current = follows.get(target.chatId);
  // A caller with news — a copy it just read (a continuation another tab sent), a change it
  // just made — may come after the follow under way read the chat: that follow would end on
  // its older copy, so the chat is read again once it has ended.
  if (current) return opts.fresh || snapshot ? current.done.then(() => followServerRun(target, undefined, opts)) : current.done;
  const stop = new AbortController();
  const done = follow(target, snapshot, stop.signal, opts).finally(() => {
    follows.delete(target.chatId);
    setFollowing(target.chatId, false);
  });
  follows.set(target.chatId, { done, stop });
  return done;
}

/** Ends the follow of a chat (Stop, Cancel): no further run is resumed. The caller stops the session's stream. */
export function stopFollowing(chatId: string): void {
  follows.get(chatId)?.stop.abort();
  setFollowing(chatId, false);
}

const isBusy = (chat: Chat<BatonUIMessage>) => chat.status === 'submitted' || chat.status === 'streaming';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type ToolPart = Extract<BatonUIMessage['parts'][number], { toolCallId: string }>;

const isWaiting = (p: BatonUIMessage['parts'][number]) => isToolUIPart(p) && (p.state === 'input-available' || p.state === 'approval-responded');

/**
 * The stored transcript, keeping the outputs this tab already has for calls the stored copy
 * still waits for (`unsent`): they reach the server with the continuation, once every call
 * has one. The stored copy matters all the same — it brings decisions made meanwhile (a
 * call approved after another one's sub-agent finished here) — and dropping those outputs
 * would lose them: a parent session receives each output once (delegation-outcome.ts).
 */
export function withUnsentOutputs(local: BatonUIMessage[], stored: BatonUIMessage[]): { messages: BatonUIMessage[]; unsent: ToolPart[] } {
  const last = local.at(-1);
  const storedLast = stored.at(-1);
  if (last?.role !== 'assistant' || storedLast?.id !== last.id) return { messages: stored, unsent: [] };
  const outputs = new Map(last.parts.flatMap((p) => (isToolUIPart(p) && p.state.startsWith('output-') ? [[p.toolCallId, p as ToolPart] as const] : [])));
  const unsent: ToolPart[] = [];
  const parts = storedLast.parts.map((p) => {
    const output = isWaiting(p) ? outputs.get((p as ToolPart).toolCallId) : undefined;
    if (output) unsent.push(output);
    return output ?? p;
  });
  return unsent.length ? { messages: [...stored.slice(0, -1), { ...storedLast, parts }], unsent } : { messages: stored, unsent };
}

/**
 * Whether a stored copy is older than what the page shows: it lacks a message the page has,
 * or holds fewer parts of the page's last message (a continuation this tab streamed or
 * resumed after the copy was read). At worst (a stored message keeps fewer parts than its
 * stream had) the chat is read once more.
 */
export function isBehindShown(shown: BatonUIMessage[], stored: BatonUIMessage[]): boolean {
  if (shown.some((m) => !stored.some((s) => s.id === m.id))) return true;
  const last = shown.at(-1);
  const storedLast = last && stored.find((s) => s.id === last.id);
  return Boolean(storedLast && storedLast.parts.length < last!.parts.length);
}

/**
 * Shows the stored transcript of a chat with no running answer. When it brings the last
 * decision of an answer whose other calls have their outputs here (the last call rejected
 * after the others ran), nothing here would send the continuation — the session's own
 * automatic send only follows an output — so an output is handed over again to trigger it.
 */
function showStored(chat: Chat<BatonUIMessage>, stored: ChatWithMessages) {
  const before = chat.messages;
  const { messages, unsent } = withUnsentOutputs(before, toUIMessages(stored.messages));
  chat.messages = messages;
  const nowComplete = lastAssistantMessageIsCompleteWithToolCalls({ messages }) && !lastAssistantMessageIsCompleteWithToolCalls({ messages: before });
  const again = unsent[0];
  if (!nowComplete || !again) return;
  // Only client-side tools (newTask) wait for an output from the page.
  const tool = again.type.slice('tool-'.length) as keyof BatonUITools;
  void chat.addToolOutput(
    again.state === 'output-error'
      ? { state: 'output-error', tool, toolCallId: again.toolCallId, errorText: again.errorText }
      : ({ tool, toolCallId: again.toolCallId, output: again.output } as Parameters<typeof chat.addToolOutput>[0]),
  );
}

async function follow(target: FollowTarget, snapshot: ChatWithMessages | undefined, signal: AbortSignal, opts: FollowOptions) {
  const { workspaceId, chatId, chat, transport } = target;
  // A copy older than the page — read while this tab was still writing its own answer, or
  // before a continuation it shows — would take that answer off the page. Read it again instead.
  let stored = snapshot && isBehindShown(chat.messages, toUIMessages(snapshot.messages)) ? undefined : snapshot;
  let unreadableRunId: string | undefined;
  for (let first = true; ; first = false) {
    // A read joins one under way (a run's end reads the chat too), except right after the caller changed it;
    // the first may take a copy read a moment ago (`recentMs`: the caller's stream just ended and was read).
    stored ??= await readChat(workspaceId, chatId, first ? { fresh: opts.fresh, maxAgeMs: opts.recentMs } : {});
    // Stopped, gone, or this tab is streaming the chat itself now: that stream is fresher.
    if (signal.aborted || !stored || isBusy(chat)) return stored;
    const run = stored.activeRun;
    // A failed send keeps its message and error (with Retry) until something new runs.
    if (!run && chat.status === 'error') return stored;
    if (!run) {
      showStored(chat, stored);
      return stored;
    }
    chat.messages = toUIMessages(stored.messages);

    setFollowing(chatId, true);
    const { messages, base } = transcriptAtRunStart(chat.messages, run);
    transport.expectReplay({ base, beforeReplay: () => (chat.messages = messages) });
    await chat.resumeStream();
    // A lost connection shows as the session's error (with Retry); a stopped follow ends here.
    if (signal.aborted || chat.status === 'error') return stored;
    if (!transport.lastResumeFoundRun) {
      // Nothing to read: the run just ended (the next look shows it), or its process died and
      // it is not recovered yet — then the stored progress is shown, looked at again shortly.
      if (run.id === unreadableRunId) await sleep(UNREADABLE_RETRY_MS);
      unreadableRunId = run.id;
    }
    stored = undefined;
  }
}
