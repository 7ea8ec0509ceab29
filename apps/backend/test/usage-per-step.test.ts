import type { UsageSplit } from '@baton/schemas';
import { describe, expect, it } from 'vitest';
import { NodeChat, postStream, toolParts, userMessage } from './support/chat-client';
import { useLeadTeam } from './support/fixtures';
import { json, useTestApp } from './support/test-app';

/*
 * A live view of a sub-agent (the browser's modal tabs and delegation blocks) shows its
 * tokens so far. The answer's stream carries them: after every model step a
 * `message-metadata` chunk with the usage up to that step, and the `finish` chunk the total.
 */

const t = useTestApp({ demoDelayMs: 1 });
const ws = '/api/workspaces/default';
const agents = useLeadTeam(t);
let n = 0;
const uid = (p: string) => `${p}_${Date.now().toString(36)}_${n++}`;

type MetadataChunk = { type: string; messageMetadata?: { usage?: UsageSplit } };
const own = (u: UsageSplit) => u.own.inputTokens + u.own.outputTokens;

describe('usage per step in the answer stream', () => {
  it('a sub-agent working three steps streams its tokens after each step, growing to the final usage', async () => {
    const parent = new NodeChat({ id: uid('chat'), baseUrl: t.baseUrl, body: { agentId: agents.Lead.id } });
    await parent.sendMessage({ text: '/delegate Researcher: [demo:work 2] count the otters' });
    await parent.settled();
    const [call] = toolParts(parent.lastMessage, 'newTask');
    expect(call?.state).toBe('input-available');

    // The sub-chat started as the browser starts it; its stream is read here chunk by chunk.
    const read = await postStream(`${t.baseUrl}${ws}/chat`, {
      id: uid('sub'),
      agentId: agents.Researcher.id,
      parentChatId: parent.id,
      parentToolCallId: call!.toolCallId,
      message: userMessage(uid('u'), call!.input.task),
    });
    expect(read.status).toBe(200);
    const chunks = read.chunks as MetadataChunk[];
    const steps = chunks.filter((c) => c.type === 'message-metadata' && c.messageMetadata?.usage);
    // note, note, taskResult: one model step each.
    expect(chunks.filter((c) => c.type === 'finish-step')).toHaveLength(3);
    expect(steps).toHaveLength(3);
    const totals = steps.map((c) => own(c.messageMetadata!.usage!));
    expect(totals[0]).toBeGreaterThan(0);
    expect(totals[1]).toBeGreaterThan(totals[0]!);
    expect(totals[2]).toBeGreaterThan(totals[1]!);
    // Each comes with its step's end (just before the finish-step chunk), before the next step starts.
    for (const step of steps) expect(chunks[chunks.indexOf(step) + 1]?.type).toBe('finish-step');

    const finish = chunks.find((c) => c.type === 'finish')!;
    expect(finish.messageMetadata?.usage?.own).toEqual(steps[2]!.messageMetadata!.usage!.own);
    // The stored answer and the sub-chat row agree with what was streamed.
    const stored = await json(await t.request(`${ws}/chats/${encodeURIComponent(parent.id)}/sub-chats`));
    const sub = stored.data[0];
    expect(sub.inputTokens + sub.outputTokens).toBe(totals[2]);
  });

  it('a one-step answer: one usage chunk, equal to the final usage', async () => {
    const read = await postStream(`${t.baseUrl}${ws}/chat`, { id: uid('chat'), agentId: agents.Writer.id, message: userMessage(uid('u'), 'hello there') });
    const chunks = read.chunks as MetadataChunk[];
    const steps = chunks.filter((c) => c.type === 'message-metadata' && c.messageMetadata?.usage);
    expect(steps).toHaveLength(1);
    expect(chunks.find((c) => c.type === 'finish')?.messageMetadata?.usage).toEqual(steps[0]!.messageMetadata!.usage);
  });
});
