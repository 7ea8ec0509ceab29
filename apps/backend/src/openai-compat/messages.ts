import type { OpenAiMessage, BatonUIMessage, BatonUIPart } from '@baton/schemas';
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
 * OpenAI messages as the chat's stored messages. A `system` / `developer` message is stored
 * in its place as the AI SDK's system message (role `system`, its text), so the chat keeps
 * the caller's instructions and every later turn sends them again: the turn gives them to the
 * model after the agent's own system prompt (agent/system-prompt.ts). An assistant message
 * without text is left out (there is nothing to store).
 */
function toUiMessages(messages: OpenAiMessage[], offset: number): BatonUIMessage[] {
  const out: BatonUIMessage[] = [];
  messages.forEach((m, i) => {
    const text = contentText(m.content);
    if (m.role === 'assistant') {
      if (text.trim()) out.push({ id: generateMessageId(), role: 'assistant', parts: [{ type: 'text', text }] });
      return;
    }
    const files = m.role === 'user' ? fileParts(m.content) : [];
    const param = `messages[${offset + i}].content`;
    if (m.role !== 'user' && Array.isArray(m.content) && m.content.some((p) => p.type !== 'text'))
      throw invalidBody(`${param}: a ${m.role} message takes text only`, param);
    if (!text.trim() && files.length === 0) throw invalidBody(`${param}: must not be empty`, param);
    const role = m.role === 'user' ? 'user' : 'system';
    out.push({ id: generateMessageId(), role, parts: [...(text.trim() ? [{ type: 'text' as const, text }] : []), ...files] });
  });
  return out;
}

function requireUserLast(messages: OpenAiMessage[]) {
  const last = messages.at(-1);
  if (last?.role !== 'user') {
    throw invalidBody(
      `messages[${messages.length - 1}]: the last message must be a user message (the agent answers it)`,
      `messages[${messages.length - 1}].role`,
    );
  }
}

/** Without `X-Baton-Chat-Id`: the messages are the whole conversation of a new chat. */
export function newChatMessages(messages: OpenAiMessage[]): BatonUIMessage[] {
  requireUserLast(messages);
  return toUiMessages(messages, 0);
}

/**
 * With `X-Baton-Chat-Id`: the chat has its history, so only what follows the request's
 * last assistant message is new (all of it when there is none) — a client that resends
 * the whole conversation, as OpenAI clients do, appends just its newest turn.
 */
export function continuationMessages(messages: OpenAiMessage[]): BatonUIMessage[] {
  requireUserLast(messages);
  const lastAssistant = messages.findLastIndex((m) => m.role === 'assistant');
  return toUiMessages(messages.slice(lastAssistant + 1), lastAssistant + 1);
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
