import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { z } from 'zod';

/**
 * The operator's MCP servers (BATON_MCP_CONFIG): a file in the `mcpServers` format of Claude
 * Desktop and Cursor, so the file people already have can be reused. Each entry is a command
 * Baton runs (stdio) or a URL it connects to. Not part of the API: only the operator writes it.
 */

/** Names become server ids (`inst_<name>`) inside tool ids (`mcp:<serverId>:<tool>`): no colon, stable. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const noLineBreaks = (s: string) => !/[\0\r\n]/.test(s);

const stdioEntry = z.object({
  command: z.string().min(1, 'must not be empty').refine(noLineBreaks, 'must not contain line breaks or NUL'),
  args: z.array(z.string().refine(noLineBreaks, 'must not contain line breaks or NUL')).default([]),
  env: z.record(z.string().regex(ENV_NAME, 'must be a variable name'), z.string()).default({}),
  cwd: z.string().min(1).optional(),
});

const urlEntry = z.object({
  url: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }),
  headers: z
    .record(z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'must be a header name'), z.string().refine(noLineBreaks, 'must not contain line breaks'))
    .default({}),
  /** Cursor writes `type`; Baton's own names are accepted too. */
  transport: z.enum(['auto', 'http', 'sse']).optional(),
});

// Claude Desktop and Cursor files carry fields Baton has no use for (`type`, `autoApprove`,
// `alwaysAllow`…): they are ignored, not refused, so the file works unchanged. `disabled`
// entries are skipped.
const entrySchema = z.looseObject({ disabled: z.boolean().optional(), type: z.string().optional() }).superRefine((entry, ctx) => {
  const has = (k: string) => k in entry;
  if (has('command') === has('url')) ctx.addIssue({ code: 'custom', message: 'needs either "command" (a stdio server) or "url", not both or neither' });
});

const fileSchema = z.object({
  mcpServers: z.record(z.string(), entrySchema),
});

export type InstanceMcpEntry =
  | { kind: 'stdio'; name: string; command: string; args: string[]; env: Record<string, string>; cwd?: string }
  | { kind: 'url'; name: string; url: string; headers: Record<string, string>; transport: 'auto' | 'http' | 'sse' };

const TRANSPORT_OF_TYPE: Record<string, 'auto' | 'http' | 'sse'> = { sse: 'sse', http: 'http', 'streamable-http': 'http', streamableHttp: 'http' };

function issueText(prefix: (string | number)[], error: z.ZodError): string {
  const issue = error.issues[0]!;
  const path = [...prefix, ...issue.path].map(String).join('.');
  return `${path ? `${path}: ` : ''}${issue.message}`;
}

/** The entries of a parsed file; throws an Error naming the file, the entry and what is wrong. */
export function parseInstanceMcpConfig(raw: unknown, source: string): InstanceMcpEntry[] {
  const fail = (text: string) => new Error(`BATON_MCP_CONFIG (${source}): ${text}`);
  const file = fileSchema.safeParse(raw);
  if (!file.success) throw fail(issueText([], file.error));
  const entries: InstanceMcpEntry[] = [];
  const seen = new Set<string>();
  for (const [name, entry] of Object.entries(file.data.mcpServers)) {
    if (entry.disabled) continue;
    if (!NAME.test(name)) throw fail(`mcpServers."${name}": server names are letters, digits, "_", "." and "-" (at most 64), starting with a letter or digit`);
    // Ids are case-insensitive in practice (the workspace's own names are): two spellings of one name would be confusing.
    if (seen.has(name.toLowerCase())) throw fail(`mcpServers.${name}: another server has the same name (names are compared without case)`);
    seen.add(name.toLowerCase());
    if ('command' in entry) {
      const parsed = stdioEntry.safeParse(entry);
      if (!parsed.success) throw fail(issueText(['mcpServers', name], parsed.error));
      entries.push({ kind: 'stdio', name, ...parsed.data });
    } else {
      const parsed = urlEntry.safeParse(entry);
      if (!parsed.success) throw fail(issueText(['mcpServers', name], parsed.error));
      const transport = parsed.data.transport ?? TRANSPORT_OF_TYPE[entry.type ?? ''] ?? 'auto';
      entries.push({ kind: 'url', name, url: parsed.data.url, headers: parsed.data.headers, transport });
    }
  }
  return entries;
}

/** Reads BATON_MCP_CONFIG's file at start-up; a missing file or bad JSON is an Error saying so. */
export function loadInstanceMcpConfig(path: string): InstanceMcpEntry[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new Error(`BATON_MCP_CONFIG: cannot read ${path}${code ? ` (${code})` : ''}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new Error(`BATON_MCP_CONFIG (${path}): not valid JSON: ${(err as Error).message}`);
  }
  // A relative `cwd` is the file's neighbour, wherever the backend was started from.
  return parseInstanceMcpConfig(raw, path).map((e) => (e.kind === 'stdio' && e.cwd ? { ...e, cwd: resolve(dirname(path), e.cwd) } : e));
}
