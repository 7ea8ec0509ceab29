import type { ResponseObject } from '@baton/schemas';
import type { RunEventReader } from '../agent/runs/run-channel';
import type { TurnResult } from '../agent/runtime-types';
import type { AnswerScope } from './completion';
import { functionCallItemIdOf, messageItemIdOf, type ResponseIds, responseObject } from './response-object';
import { clientCallOf, runSseResponse, TextDeltas } from './run-sse';

const textPart = (text: string) => ({ type: 'output_text' as const, text, annotations: [], logprobs: [] });

/**
 * The Responses stream's events, numbered (`sequence_number`) as OpenAI numbers them, each as
 * an SSE event named by its type. Output items are opened and closed in order: the text as a
 * message item (`output_item.added`, `content_part.added`, a `output_text.delta` per delta,
 * `output_text.done`, `content_part.done`, `output_item.done`), a call of the caller's tools as
 * a `function_call` item (added, its arguments, done).
 */
class ResponseEvents {
  private seq = 0;
  private outputIndex = -1;
  private open?: { id: string; text: string };
  private messages = 0;

  constructor(private readonly runId: string) {}

  event(type: string, fields: Record<string, unknown>): string {
    return `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: this.seq++, ...fields })}\n\n`;
  }

  text(delta: string): string {
    let out = '';
    if (!this.open) {
      // A second message item only when text follows a function call (ids stay unique).
      const id = this.messages++ === 0 ? messageItemIdOf(this.runId) : `${messageItemIdOf(this.runId)}_${this.messages}`;
      this.open = { id, text: '' };
      this.outputIndex++;
      out += this.event('response.output_item.added', {
        output_index: this.outputIndex,
        item: { type: 'message', id, role: 'assistant', status: 'in_progress', content: [] },
      });
      out += this.event('response.content_part.added', { item_id: id, output_index: this.outputIndex, content_index: 0, part: textPart('') });
    }
    this.open.text += delta;
    return out + this.event('response.output_text.delta', { item_id: this.open.id, output_index: this.outputIndex, content_index: 0, delta, logprobs: [] });
  }

  closeMessage(): string {
    const open = this.open;
    if (!open) return '';
    this.open = undefined;
    const at = { item_id: open.id, output_index: this.outputIndex, content_index: 0 };
    return (
      this.event('response.output_text.done', { ...at, text: open.text, logprobs: [] }) +
      this.event('response.content_part.done', { ...at, part: textPart(open.text) }) +
      this.event('response.output_item.done', {
        output_index: this.outputIndex,
        item: { type: 'message', id: open.id, role: 'assistant', status: 'completed', content: [textPart(open.text)] },
      })
    );
  }

  functionCall(call: { id: string; name: string; arguments: string }): string {
    const item = { type: 'function_call', id: functionCallItemIdOf(call.id), call_id: call.id, name: call.name };
    const output_index = ++this.outputIndex;
    return (
      this.closeMessage() +
      this.event('response.output_item.added', { output_index, item: { ...item, arguments: '', status: 'in_progress' } }) +
      this.event('response.function_call_arguments.delta', { item_id: item.id, output_index, delta: call.arguments }) +
      this.event('response.function_call_arguments.done', { item_id: item.id, output_index, name: call.name, arguments: call.arguments }) +
      this.event('response.output_item.done', { output_index, item: { ...item, arguments: call.arguments, status: 'completed' } })
    );
  }

  end(response: ResponseObject): string {
    const out = this.closeMessage();
    if (response.status === 'failed') {
      const error = response.error ?? { code: 'server_error', message: 'the answer failed' };
      // `response.failed` for clients that follow the response, `error` for those (openai-node) that raise it.
      return `${out}${this.event('response.failed', { response })}${this.event('error', { code: error.code, message: error.message, param: null })}`;
    }
    return out + this.event(response.status === 'incomplete' ? 'response.incomplete' : 'response.completed', { response });
  }
}

/**
 * A run as the Responses API's event stream: `response.created` and `response.in_progress`
 * at once, the output items as the run writes them (the agent's own tool calls and delegation
 * progress are not part of it), then `response.completed` (or `response.incomplete`) with the
 * whole response and its usage, from the stored answer; a failed run ends with
 * `response.failed` and an `error` event.
 */
export function responseStreamResponse(
  events: RunEventReader,
  result: Promise<TurnResult>,
  ids: ResponseIds,
  scope: AnswerScope,
  options: { headers: Record<string, string>; keepAliveMs?: number },
): Response {
  const out = new ResponseEvents(ids.runId);
  const deltas = new TextDeltas();
  const pending = responseObject(ids, undefined, scope);
  return runSseResponse(
    events,
    result,
    {
      start: () => out.event('response.created', { response: pending }) + out.event('response.in_progress', { response: pending }),
      events(batch) {
        let text = '';
        for (const { chunk } of batch) {
          const delta = deltas.next(chunk);
          if (delta !== undefined) text += out.text(delta);
          const call = clientCallOf(chunk, scope.clientToolNames);
          if (call) text += out.functionCall(call);
        }
        return text;
      },
      end: (ended: TurnResult) => out.end(responseObject(ids, ended, scope)),
    },
    options,
  );
}
