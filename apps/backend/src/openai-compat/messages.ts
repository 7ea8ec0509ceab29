import type { OpenAiMessage, BatonUIMessage, BatonUIPart } from '@baton/schemas';
import { RESERVED_TOOL_NAMES, type ApiToolOutput } from '../agent/api-tool-outputs';
import { generateMessageId } from '../ids';
import { fetchRemoteImage } from '../services/remote-image';
import { invalidBody } from './errors';

/** A message's text: a string as it is, text parts joined with a line break. */
export function contentText(content: OpenAiMessage['content']): string {
  if (content === undefined || content === null) return '';
  return typeof content === 'string' ? content : content.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');
}

/**
 * A user message's images and files as AI SDK file parts with `data:` URLs, which the turn
 * stores as files of the chat (`storeMessageFiles`); an `https:` image was fetched into a
 * `data:` URL before (`fetchImageParts`).
 */
function fileParts(content: OpenAiMessage['content']): BatonUIPart[] {
  if (!Array.isArray(content)) return [];
  return content.flatMap((p): BatonUIPart[] => {
    if (p.type === 'image_url') return [{ type: 'file', mediaType: p.image_url.url.slice(5, p.image_url.url.indexOf(';')) || 'image', url: p.image_url.url }];
    if (p.type !== 'file') return [];
    const data = p.file.file_data;
    const url = data.startsWith('data:') ? data : `data:application/octet-stream;base64,${data}`;
    return [{ type: 'file', mediaType: url.slice(5, url.search(/[;,]/)), url, ...(p.file.filename ? { filename: p.file.filename } : {}) }];
  });
}

/**
 * An assistant message's calls of the caller's tools, each with the output of the `tool`
 * message that answers it (`outputs`): tool parts as the AI SDK stores a client tool's call.
 */
function toolCallParts(m: OpenAiMessage, at: number, outputs: Map<string, string>): BatonUIPart[] {
  return (m.tool_calls ?? []).map((call, j) => {
    const param = `messages[${at}].tool_calls[${j}]`;
    let input: unknown;
    try {
      input = JSON.parse(call.function.arguments || '{}');
    } catch {
      throw invalidBody(`${param}.function.arguments: not valid JSON`, `${param}.function.arguments`);
    }
    const output = outputs.get(call.id);
    if (output === undefined) throw invalidBody(`${param}: call "${call.id}" has no tool message answering it`, param);
    const name = call.function.name;
    if (RESERVED_TOOL_NAMES.includes(name)) throw invalidBody(`${param}.function.name: "${name}" is one of Baton's own tools`, `${param}.function.name`);
    return { type: `tool-${name}`, toolCallId: call.id, state: 'output-available', input, output } as BatonUIPart;
  });
}

/** The `tool` messages right after an assistant message, by the call they answer; each must answer one of its calls. */
function toolOutputsAfter(messages: OpenAiMessage[], i: number, offset: number): Map<string, string> {
  const calls = new Set((messages[i]!.tool_calls ?? []).map((c) => c.id));
  const outputs = new Map<string, string>();
  for (let k = i + 1; messages[k]?.role === 'tool'; k++) {
    const id = messages[k]!.tool_call_id!;
    const param = `messages[${offset + k}].tool_call_id`;
    if (!calls.has(id) || outputs.has(id))
      throw invalidBody(`${param}: "${id}" answers no call of the assistant message before it (or answers it twice)`, param);
    outputs.set(id, contentText(messages[k]!.content));
  }
  return outputs;
}

/**
 * OpenAI messages as the chat's stored messages. A `system` / `developer` message is stored
 * in its place as the AI SDK's system message (role `system`, its text), so the chat keeps
 * the caller's instructions and every later turn sends them again: the turn gives them to the
 * model after the agent's own system prompt (agent/system-prompt.ts). An assistant message's
 * client tool calls become tool parts with the outputs of the `tool` messages after it; an
 * assistant message with neither text nor calls is left out (there is nothing to store).
 */
function toUiMessages(messages: OpenAiMessage[], offset: number): BatonUIMessage[] {
  const out: BatonUIMessage[] = [];
  messages.forEach((m, i) => {
    const text = contentText(m.content);
    const param = `messages[${offset + i}].content`;
    if (m.role !== 'user' && Array.isArray(m.content) && m.content.some((p) => p.type !== 'text'))
      throw invalidBody(`${param}: a ${m.role} message takes text only`, param);
    if (m.role === 'tool') {
      // Taken by the assistant message before it (toolOutputsAfter): alone, it answers nothing.
      if (messages[i - 1]?.role !== 'tool' && messages[i - 1]?.role !== 'assistant') {
        throw invalidBody(`messages[${offset + i}]: a tool message follows the assistant message whose call it answers`, `messages[${offset + i}].role`);
      }
      return;
    }
    if (m.role === 'assistant') {
      const calls = toolCallParts(m, offset + i, toolOutputsAfter(messages, i, offset));
      const parts: BatonUIPart[] = [...(text.trim() ? [{ type: 'text' as const, text }] : []), ...calls];
      if (parts.length > 0) out.push({ id: generateMessageId(), role: 'assistant', parts });
      return;
    }
    const files = m.role === 'user' ? fileParts(m.content) : [];
    if (!text.trim() && files.length === 0) throw invalidBody(`${param}: must not be empty`, param);
    const role = m.role === 'user' ? 'user' : 'system';
    out.push({ id: generateMessageId(), role, parts: [...(text.trim() ? [{ type: 'text' as const, text }] : []), ...files] });
  });
  return out;
}

/** The agent answers a user message, or goes on after the outputs of its client tool calls. */
function requireAnswerableLast(messages: OpenAiMessage[]) {
  const last = messages.at(-1);
  if (last?.role !== 'user' && last?.role !== 'tool') {
    throw invalidBody(
      `messages[${messages.length - 1}]: the last message must be a user message (the agent answers it) or the tool messages answering the calls of the assistant message before them`,
      `messages[${messages.length - 1}].role`,
    );
  }
}

/**
 * Without `X-Baton-Chat-Id`: the messages are the whole conversation of a new chat. When it
 * ends with `tool` messages (a stateless client's tool loop, which resends everything), the
 * new chat's last message is the assistant message with those outputs, and the answer goes on
 * from it — in that new chat: Baton cannot know which chat the calls came from.
 */
export function newChatMessages(messages: OpenAiMessage[]): BatonUIMessage[] {
  requireAnswerableLast(messages);
  return toUiMessages(messages, 0);
}

/** What a call to an existing chat adds: messages ending with a user message, or the outputs of its last answer's client tool calls. */
export type Continuation = { messages: BatonUIMessage[]; toolOutputs?: undefined } | { messages: []; toolOutputs: ApiToolOutput[] };

/**
 * With `X-Baton-Chat-Id`: the chat has its history, so only what follows the request's
 * last assistant message is new (all of it when there is none) — a client that resends
 * the whole conversation, as OpenAI clients do, appends just its newest turn. When that is
 * `tool` messages, they are the outputs of the client tool calls the chat's last answer
 * waits for (checked against the stored message, agent/api-tool-outputs.ts).
 */
export function continuationMessages(messages: OpenAiMessage[]): Continuation {
  requireAnswerableLast(messages);
  const lastAssistant = messages.findLastIndex((m) => m.role === 'assistant');
  const tail = messages.slice(lastAssistant + 1);
  if (!tail.some((m) => m.role === 'tool')) return { messages: toUiMessages(tail, lastAssistant + 1) };
  const other = tail.findIndex((m) => m.role !== 'tool');
  if (other !== -1) {
    const at = lastAssistant + 1 + other;
    throw invalidBody(`messages[${at}]: after the tool outputs nothing may follow (send the user message in a call of its own)`, `messages[${at}].role`);
  }
  const toolOutputs = tail.map((m, k) => ({ toolCallId: m.tool_call_id!, output: contentText(m.content), at: lastAssistant + 1 + k }));
  return { messages: [], toolOutputs };
}

/** The text a new chat is titled from: its first user message's (a request always has one: the last). */
export function titleText(messages: OpenAiMessage[]): string {
  return contentText(messages.find((m) => m.role === 'user')?.content);
}

/**
 * The request with each `https:` image fetched (through the guarded outbound fetch: no
 * private, link-local or metadata addresses unless allowed, no redirects, at most 5 MiB) and
 * put in its place as a `data:` URL, before any transaction: a host that fails is a 502 and
 * nothing is stored.
 */
export async function fetchImageParts(messages: OpenAiMessage[], guardedFetch: typeof fetch): Promise<OpenAiMessage[]> {
  return Promise.all(
    messages.map(async (m) => {
      if (!Array.isArray(m.content) || !m.content.some((p) => p.type === 'image_url' && /^https:/i.test(p.image_url.url))) return m;
      const content = await Promise.all(
        m.content.map(async (p) => {
          if (p.type !== 'image_url' || !/^https:/i.test(p.image_url.url)) return p;
          const image = await fetchRemoteImage(guardedFetch, p.image_url.url);
          return { ...p, image_url: { ...p.image_url, url: `data:${image.contentType};base64,${Buffer.from(image.bytes).toString('base64')}` } };
        }),
      );
      return { ...m, content };
    }),
  );
}
