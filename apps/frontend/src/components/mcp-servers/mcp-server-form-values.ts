import { mcpServerCreateSchema, mcpServerUpdateSchema, secretOriginChanged, type McpServer, type McpServerUpdate, type McpTransport } from '@baton/schemas';
import { issuesToErrors, type FormErrors } from '@/lib/field-errors';

/**
 * One header row of the form. A stored header's value never comes back from the server:
 * the row shows its name as stored until the person replaces the value.
 */
export interface HeaderRow {
  /** A stable React key. */
  key: string;
  name: string;
  value: string;
  /** The server has this header's value; `value` is empty and unused. */
  stored: boolean;
}

export interface McpServerFormValues {
  name: string;
  url: string;
  transport: McpTransport;
  enabled: boolean;
  headers: HeaderRow[];
}

export const MCP_SERVER_FIELDS = ['name', 'url', 'transport', 'headers', 'enabled'] as const;
export type McpServerField = (typeof MCP_SERVER_FIELDS)[number];
export type McpServerFormErrors = FormErrors<McpServerField> & { headerRows?: Record<string, string> };

const labels: Record<McpServerField, string> = { name: 'Name', url: 'URL', transport: 'Transport', headers: 'Headers', enabled: 'Enabled' };

export function mcpFieldMessage(field: McpServerField, message: string) {
  if (/^must\b/.test(message)) return `${labels[field]} ${message}`;
  return message.charAt(0).toUpperCase() + message.slice(1);
}

let nextKey = 0;
export const newHeaderRow = (name = '', stored = false): HeaderRow => ({ key: `h${++nextKey}`, name, value: '', stored });

export function toMcpServerFormValues(server?: McpServer): McpServerFormValues {
  return {
    name: server?.name ?? '',
    url: server?.url ?? '',
    // The form edits the workspace's own servers only (HTTP); an operator's stdio server is never opened in it.
    transport: server && server.transport !== 'stdio' ? server.transport : 'auto',
    enabled: server?.enabled ?? true,
    headers: (server?.headerNames ?? []).map((name) => newHeaderRow(name, true)),
  };
}

/** Whether the header rows differ from what is stored (names only: stored values are unknown). */
export function headersChanged(rows: HeaderRow[], storedNames: string[]): boolean {
  const kept = rows.filter((r) => r.stored).map((r) => r.name);
  return rows.some((r) => !r.stored) || kept.length !== storedNames.length || kept.some((n, i) => n !== storedNames[i]);
}

export const REENTER_MESSAGE = 'Enter this value again: saving changed headers replaces all of them, and stored values are never shown.';
export const REENTER_FOR_NEW_HOST_MESSAGE =
  'The URL now points to another host: enter this value again for it, or remove the header. Stored headers are only sent to the host they were entered for.';

/** Whether saving would send stored header values to another host (scheme, host or port), which the server refuses. */
export function storedHeadersWouldMove(values: McpServerFormValues, server?: McpServer): boolean {
  return Boolean(server && server.headerNames.length > 0 && values.headers.some((r) => r.stored) && secretOriginChanged(server.url ?? '', values.url));
}

/**
 * The request body, checked with the shared schema (an update may be empty). Header values are write-only and a
 * given map replaces the stored one, so an update sends `headers` only when the rows
 * changed, and then every remaining row needs its value typed again.
 */
export function buildMcpServerInput(values: McpServerFormValues, server?: McpServer) {
  const all: Record<string, unknown> = { name: values.name, url: values.url.trim(), transport: values.transport, enabled: values.enabled };
  // An update sends what changed only: the backend lists the tools again when the URL,
  // transport or headers change, and a rename should not cost a round trip to the server.
  const candidate = server ? Object.fromEntries(Object.entries(all).filter(([k, v]) => server[k as keyof McpServer] !== v)) : all;
  const headerRows: Record<string, string> = {};
  const rows = values.headers.filter((r) => r.stored || r.name.trim() || r.value);
  // Another host gets no stored value: the headers are sent again, each typed anew (or removed).
  const newHost = Boolean(server && server.headerNames.length > 0 && secretOriginChanged(server.url ?? '', values.url.trim()));
  const sendHeaders = !server || newHost || headersChanged(rows, server.headerNames);
  if (sendHeaders) {
    const headers: Record<string, string> = {};
    for (const row of rows) {
      const name = row.name.trim();
      if (row.stored) headerRows[row.key] = newHost ? REENTER_FOR_NEW_HOST_MESSAGE : REENTER_MESSAGE;
      else if (!name) headerRows[row.key] = 'Give the header a name, e.g. Authorization.';
      else if (Object.keys(headers).some((n) => n.toLowerCase() === name.toLowerCase())) headerRows[row.key] = `“${name}” is listed twice.`;
      else headers[name] = row.value;
    }
    candidate.headers = headers;
  }
  const parsed = (server ? mcpServerUpdateSchema : mcpServerCreateSchema).safeParse(candidate);
  const errors: McpServerFormErrors = parsed.success ? { fields: {} } : issuesToErrors(parsed.error.issues, MCP_SERVER_FIELDS);
  for (const field of MCP_SERVER_FIELDS) {
    const message = errors.fields[field];
    if (message) errors.fields[field] = mcpFieldMessage(field, message);
  }
  if (Object.keys(headerRows).length > 0) errors.headerRows = headerRows;
  if (!parsed.success || errors.headerRows) return { input: undefined, errors };
  return { input: parsed.data as McpServerUpdate, errors };
}
