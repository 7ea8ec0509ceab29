import type { BatonUIMessage, BatonUIPart, Run } from '@baton/schemas';
import { getToolName, isToolUIPart, type UIMessageChunk } from 'ai';

/*
 * A run's stream (`GET …/chats/:id/stream`) replays the run from its start. A client that
 * holds the stored transcript and resumes the stream must first put the transcript back to
 * where the run began, or the replay would show everything twice.
 */

/**
 * The transcript as it was when `run` began: its answer removed (a new answer), or cut
 * back to the `basePartCount` parts it had (a continuation after `newTask` outputs). That
 * cut-back message is returned as `base`: the AI SDK starts a replay from an empty message,
 * so the transport rebuilds `base` in front of it (see `replayAfter`).
 */
export function transcriptAtRunStart(
  messages: BatonUIMessage[],
  run: Pick<Run, 'messageId' | 'basePartCount'> | null | undefined,
): { messages: BatonUIMessage[]; base?: BatonUIMessage } {
  if (!run) return { messages };
  const index = messages.findIndex((m) => m.id === run.messageId);
  if (index === -1) return { messages };
  if (run.basePartCount <= 0) return { messages: messages.filter((m) => m.id !== run.messageId) };
  const base = { ...messages[index]!, parts: messages[index]!.parts.slice(0, run.basePartCount) };
  return { messages: messages.map((m, i) => (i === index ? base : m)), base };
}

type ToolPart = Extract<BatonUIPart, { toolCallId: string }>;

/**
 * Chunks that rebuild a message's parts in a stream, so that what the stream sends next is
 * appended to them. Parts Baton's agents never produce (files, sources, …) are left out:
 * they are back once the answer ends and the stored message is shown.
 */
export function chunksRebuilding(message: Pick<BatonUIMessage, 'parts'>): UIMessageChunk[] {
  return message.parts.flatMap((part, index) => partChunks(part, `replay-${index}`));
}

function partChunks(part: BatonUIPart, id: string): UIMessageChunk[] {
  if (part.type === 'step-start') return [{ type: 'start-step' }];
  if (part.type === 'text' || part.type === 'reasoning') {
    const kind = part.type;
    return [
      { type: `${kind}-start`, id, providerMetadata: part.providerMetadata },
      { type: `${kind}-delta`, id, delta: part.text ?? '' },
      { type: `${kind}-end`, id },
    ];
  }
  if (part.type === 'data-run-error') return [{ type: part.type, id: part.id, data: part.data }];
  if (isToolUIPart(part)) return toolChunks(part);
  return [];
}

function toolChunks(part: ToolPart): UIMessageChunk[] {
  const common = {
    toolCallId: part.toolCallId,
    toolName: getToolName(part),
    ...(part.type === 'dynamic-tool' ? { dynamic: true } : {}),
    ...(part.title !== undefined ? { title: part.title } : {}),
    ...(part.providerExecuted !== undefined ? { providerExecuted: part.providerExecuted } : {}),
  };
  if (part.state === 'input-streaming') return [{ type: 'tool-input-start', ...common } as UIMessageChunk];
  const chunks = [{ type: 'tool-input-available', ...common, input: part.input, providerMetadata: part.callProviderMetadata }] as UIMessageChunk[];
  // A stored approval is replayed too, so the rebuilt part has the state the server stored.
  if (part.approval) chunks.push({ type: 'tool-approval-request', approvalId: part.approval.id, toolCallId: part.toolCallId } as UIMessageChunk);
  if (part.state === 'approval-responded') {
    chunks.push({
      type: 'tool-approval-response',
      approvalId: part.approval.id,
      approved: part.approval.approved,
      reason: part.approval.reason,
    } as UIMessageChunk);
  }
  if (part.state === 'output-available') {
    chunks.push({
      type: 'tool-output-available',
      toolCallId: part.toolCallId,
      output: part.output,
      ...(part.preliminary ? { preliminary: true } : {}),
      providerMetadata: part.resultProviderMetadata,
    });
  } else if (part.state === 'output-error') {
    chunks.push({ type: 'tool-output-error', toolCallId: part.toolCallId, errorText: part.errorText ?? '' });
  } else if (part.state === 'output-denied') {
    chunks.push({ type: 'tool-output-denied', toolCallId: part.toolCallId });
  }
  return chunks;
}

/**
 * Puts `base` back in front of a replayed run: right after the replay's `start` chunk (which
 * makes the AI SDK begin the message afresh) come the chunks that rebuild `base`, and the
 * run's own chunks then continue it. A replay of another message (the run ended and a new
 * one began in between) passes through untouched.
 */
export function replayAfter(base: BatonUIMessage): TransformStream<UIMessageChunk, UIMessageChunk> {
  let first = true;
  return new TransformStream({
    transform(chunk, controller) {
      controller.enqueue(chunk);
      if (!first) return;
      first = false;
      if (chunk.type === 'start' && chunk.messageId === base.id) for (const rebuilt of chunksRebuilding(base)) controller.enqueue(rebuilt);
    },
  });
}
