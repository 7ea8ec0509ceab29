import type { BatonFile } from '@baton/schemas';

// What Baton keeps of an MCP tool result's content (issue 20, MCP): text as it is, embedded
// resources' text with their URI, and images and binary resources stored as files of the chat
// (named in the text the model reads). Audio and resource links are named, not kept.

/** Stores bytes a tool returned as a file of the turn's chat; rejects when they cannot be kept (type, size). */
export type SaveToolFile = (upload: { name: string; bytes: Uint8Array }) => Promise<BatonFile>;

/** A content item of an MCP `tools/call` result, as far as this reads it (a server may send anything). */
interface McpContentItem {
  type: string;
  text?: unknown;
  data?: unknown;
  mimeType?: unknown;
  uri?: unknown;
  resource?: { uri?: unknown; mimeType?: unknown; text?: unknown; blob?: unknown };
}

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'application/pdf': 'pdf',
  'text/plain': 'txt',
  'text/markdown': 'md',
  'text/csv': 'csv',
  'application/json': 'json',
};

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

/** A stored file's line in the text the model reads. */
const storedLine = (f: BatonFile) => `[${f.mediaType.startsWith('image/') ? 'Image' : 'File'} ${f.name} (${f.mediaType}), stored in this chat as file ${f.id}]`;

/** The last segment of a resource URI, as a file name; else `fallback`. */
function nameOfUri(uri: string | undefined, fallback: string): string {
  const last = uri?.split(/[/\\]/).filter(Boolean).at(-1)?.split(/[?#]/)[0];
  return last && /\.[A-Za-z0-9]{1,8}$/.test(last) ? last : fallback;
}

/**
 * The result's content as text for the model and the files stored from it, in order. `save`
 * failing (a type Baton does not take, too large, storage down) leaves a line saying why
 * instead: the call still succeeds with what could be kept.
 */
export async function readMcpContent(
  content: readonly McpContentItem[],
  toolName: string,
  save: SaveToolFile | undefined,
): Promise<{ text: string; files: BatonFile[] }> {
  const pieces: string[] = [];
  const files: BatonFile[] = [];
  const keep = async (what: string, name: string, base64: string) => {
    if (!save) return pieces.push(`[${what} content]`);
    try {
      const stored = await save({ name, bytes: Buffer.from(base64, 'base64') });
      files.push(stored);
      pieces.push(storedLine(stored));
    } catch (err) {
      pieces.push(`[${what} ${name} not kept: ${err instanceof Error ? err.message : String(err)}]`);
    }
  };
  // Unnamed content is named by the tool and its place among its kind: `snapshot-image-1.png`.
  const counts = new Map<string, number>();
  for (const item of content) {
    const n = (counts.get(item.type) ?? 0) + 1;
    counts.set(item.type, n);
    if (item.type === 'text') pieces.push(str(item.text) ?? '');
    else if (item.type === 'image' && str(item.data)) {
      await keep('image', `${toolName}-image-${n}.${EXTENSIONS[str(item.mimeType) ?? ''] ?? 'bin'}`, str(item.data)!);
    } else if (item.type === 'resource' && item.resource) {
      const uri = str(item.resource.uri);
      const text = str(item.resource.text);
      const blob = str(item.resource.blob);
      if (text !== undefined) pieces.push(`Resource ${uri ?? n}:\n${text}`);
      else if (blob) await keep('resource', nameOfUri(uri, `${toolName}-resource-${n}.${EXTENSIONS[str(item.resource.mimeType) ?? ''] ?? 'bin'}`), blob);
      else pieces.push(`[resource ${uri ?? n}]`);
    } else if (item.type === 'resource_link') pieces.push(`[resource link: ${str(item.uri) ?? '(no URI)'}]`);
    else pieces.push(`[${item.type} content]`);
  }
  return { text: pieces.join('\n'), files };
}
