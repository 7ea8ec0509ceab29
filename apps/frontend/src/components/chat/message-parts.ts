import type { Message } from '@baton/schemas';

/** What the read-only transcript shows of a stored message part, in order. */
export type DisplayPart = { kind: 'text'; text: string } | { kind: 'tool'; name: string };

/**
 * Text parts and tool calls (`tool-<name>`, `dynamic-tool`) of an AI SDK UI message;
 * step boundaries, reasoning and other parts are left out for now.
 */
export function displayParts(message: Pick<Message, 'parts'>): DisplayPart[] {
  return message.parts.flatMap((part): DisplayPart[] => {
    const type = typeof part.type === 'string' ? part.type : '';
    if (type === 'text') return typeof part.text === 'string' && part.text.trim() ? [{ kind: 'text', text: part.text }] : [];
    if (type === 'dynamic-tool' && typeof part.toolName === 'string') return [{ kind: 'tool', name: part.toolName }];
    if (type.startsWith('tool-')) return [{ kind: 'tool', name: type.slice('tool-'.length) }];
    return [];
  });
}
