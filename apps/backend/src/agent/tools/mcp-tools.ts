import { mcpPrefixedToolName, parseMcpToolId, type McpTool, type McpToolOutput } from '@baton/schemas';
import { jsonSchema, tool, type JSONSchema7, type Tool } from 'ai';
import type { Database } from '../../db/client';
import type { McpConnection, McpListing } from '../../mcp/connect';
import { describeMcpFailure, MCP_CALL_TIMEOUT_MS, McpConnectError, secondsText } from '../../mcp/failures';
import { isInstanceMcpServerId, type InstanceMcpServers } from '../../mcp/instance-servers';
import { argumentsCheck } from '../../mcp/tool-arguments';
import { SecretUnreadableError, type Secrets } from '../../secrets/secrets';
import { enabledInstanceServerIds } from '../../services/instance-mcp-servers';
import { endpointOf, findMcpServersByIds, storeListingIfChanged } from '../../services/mcp-servers';
import { connectWorkspaceMcp } from '../../services/mcp-oauth-tokens';
import { readMcpContent, type SaveToolFile } from './mcp-content';
import { log } from '../../ops/logger';
import { mcpCalled } from '../../ops/metrics';

/** The MCP tools of one turn and how to end their sessions. */
export interface TurnMcpTools {
  /** Keyed by the model-facing name (see modelToolNames). */
  tools: Record<string, Tool>;
  /** Closes every client the turn opened. Never throws; safe to call more than once. */
  close(): Promise<void>;
}

export interface McpToolDeps {
  db: Database;
  secrets: Secrets;
  mcpFetch: typeof fetch;
  mcpTimeoutMs?: number;
  /** How long one tool call may take (BATON_MCP_CALL_TIMEOUT_MS, 60 s by default). */
  mcpCallTimeoutMs?: number;
  /** Where images and binary resources of results go (files of the turn's chat); without it they are only named. */
  saveToolFile?: SaveToolFile;
  /** The operator's servers (BATON_MCP_CONFIG); a workspace's turn uses those it switched on. */
  instanceMcp?: InstanceMcpServers;
}

/** A server a turn may use, however it is reached. */
interface TurnServer {
  id: string;
  name: string;
  /** When it joined the workspace (added, or an instance server switched on): earlier servers keep their tools' own names. */
  attachedAt: Date;
  /** The listing stored when the server was last listed (workspace servers); a turn offers it without waiting for the server. */
  stored?: StoredTool[];
  /** Its name in the metrics: the operator's name for an instance server, the URL's host for a workspace's (bounded, never a secret). */
  metricsName: string;
  open(): Promise<McpConnection>;
}

/** What a tool is offered by: a stored listing's entry or a live listing's. */
type ToolDefinition = Pick<McpListing['tools'][number], 'name' | 'description' | 'inputSchema'> & { title?: string };
type StoredTool = Pick<McpTool, 'name' | 'description' | 'inputSchema'>;

const OPENAI_FUNCTION_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * The name the model sees for each selected MCP tool. OpenAI function names must match
 * `^[a-zA-Z0-9_-]{1,64}$`, and two tools of one turn cannot share a name. A tool keeps its
 * own name when it is valid and no tool before it (built-in, delegation, or an MCP tool
 * earlier in `selected`) has it; otherwise `<server name slug>_<tool name>` with invalid
 * characters replaced by `_`, cut to 64, and `_2`, `_3`… added if that is still taken.
 * Callers order `selected` by when each server joined the workspace, so attaching another
 * server that offers `echo` never renames the `echo` a model (or a `/tool echo` line) used.
 */
export function modelToolNames(selected: { serverName: string; toolName: string; key: string }[], taken: Iterable<string>): Map<string, string> {
  const used = new Set(taken);
  const names = new Map<string, string>();
  for (const s of selected) {
    let name = s.toolName;
    if (!OPENAI_FUNCTION_NAME.test(name) || used.has(name)) {
      const base = mcpPrefixedToolName(s.serverName, s.toolName);
      name = base;
      for (let i = 2; used.has(name); i++) name = `${base.slice(0, 64 - String(i).length - 1)}_${i}`;
    }
    used.add(name);
    names.set(s.key, name);
  }
  return names;
}

type CallResult = Awaited<ReturnType<McpConnection['client']['callTool']>>;

/** How long the end of a turn waits for its MCP sessions to close. */
const SESSION_CLOSE_WAIT_MS = 3_000;

/** `promise`, or the signal's reason once it aborts. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** A call whose server's session could not be opened (the turn offered the server's stored listing). */
class UnreachableServer extends Error {
  readonly reason: string;
  constructor(cause: unknown) {
    super('MCP server unreachable');
    this.reason =
      cause instanceof McpConnectError
        ? cause.failure.message
        : cause instanceof SecretUnreadableError
          ? 'its stored headers cannot be decrypted with this server’s secret key; enter them again.'
          : describeMcpFailure(cause, false, 0).message;
  }
}

/** A tool's answer is stored in the message and sent to the model again each step: bounded. */
export const MAX_MCP_RESULT_CHARS = 50_000;

/**
 * What the model (and the chat) sees of a tool's answer: its text (embedded resources' text
 * kept), images and binary resources stored as files of the chat when `save` is given
 * (readMcpContent) — then `{ text, files }`, else the text alone.
 */
async function resultOutput(result: CallResult, toolName: string, save: SaveToolFile | undefined): Promise<string | McpToolOutput> {
  const content = Array.isArray(result.content) ? (result.content as Parameters<typeof readMcpContent>[0]) : [];
  const read = await readMcpContent(content, toolName, save);
  const text = content.length === 0 && 'structuredContent' in result && result.structuredContent ? JSON.stringify(result.structuredContent) : read.text;
  const bounded = text.length > MAX_MCP_RESULT_CHARS ? `${text.slice(0, MAX_MCP_RESULT_CHARS)}… [cut: the tool answered ${text.length} characters]` : text;
  return read.files.length > 0 ? { text: bounded, files: read.files } : bounded;
}

/** The model reads the text; the files stay references in the chat (Chat Completions tool messages take text only). */
const modelText = (output: unknown) => (typeof output === 'string' ? output : ((output as McpToolOutput).text ?? ''));

function mcpTool(
  server: { name: string; metricsName: string },
  connection: () => Promise<McpConnection>,
  definition: ToolDefinition,
  callTimeoutMs: number,
  save: SaveToolFile | undefined,
): Tool {
  const schema: JSONSchema7 = {
    ...(definition.inputSchema as JSONSchema7),
    properties: (definition.inputSchema.properties ?? {}) as JSONSchema7['properties'],
  };
  return tool({
    description: definition.description ?? definition.title ?? definition.name,
    inputSchema: jsonSchema(schema, { validate: argumentsCheck(definition.name, schema) }),
    execute: async (args: unknown, { abortSignal }) => {
      // The call ends at its deadline or with the turn (Stop), whatever the server does: a
      // request it never answers, or answers with a stream that ends without the response,
      // is rejected by its own signal.
      const call = new AbortController();
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        call.abort(new Error('MCP tool call deadline'));
      }, callTimeoutMs);
      const onTurnAbort = () => call.abort(abortSignal?.reason);
      if (abortSignal?.aborted) onTurnAbort();
      abortSignal?.addEventListener('abort', onTurnAbort, { once: true });
      let result: CallResult;
      try {
        // The session may still be opening (the turn did not wait for it): the wait ends with the call's deadline or Stop too.
        const { client } = await untilAborted(
          connection().catch((err: unknown) => {
            throw new UnreachableServer(err);
          }),
          call.signal,
        );
        result = await client.callTool({ name: definition.name, arguments: args as Record<string, unknown>, options: { signal: call.signal } });
      } catch (err) {
        mcpCalled(server.metricsName, abortSignal?.aborted ? 'cancelled' : timedOut ? 'timeout' : 'failed');
        if (abortSignal?.aborted) throw err;
        // An error result the model reads, and the turn goes on.
        if (timedOut) throw new Error(`The MCP server "${server.name}" did not answer the call within ${secondsText(callTimeoutMs)}.`);
        if (err instanceof UnreachableServer) throw new Error(`The MCP server "${server.name}" could not be reached: ${err.reason}`);
        // The server died or broke off mid-turn: the model gets this as the call's error and carries on.
        const failure = describeMcpFailure(err, false, 0);
        throw new Error(`The MCP server "${server.name}" failed during the call: ${failure.message}`);
      } finally {
        clearTimeout(timer);
        abortSignal?.removeEventListener('abort', onTurnAbort);
      }
      mcpCalled(server.metricsName, result.isError ? 'error' : 'ok');
      // An error's content is its message: nothing of it is stored.
      if (result.isError)
        throw new Error(modelText(await resultOutput(result, definition.name, undefined)) || `The MCP tool "${definition.name}" reported an error.`);
      return resultOutput(result, definition.name, save);
    },
    toModelOutput: ({ output }) => ({ type: 'text', value: modelText(output) }),
  });
}

/**
 * Opens one MCP client per server named in `toolIds` (those of this workspace, enabled) and
 * offers only the selected tools. A workspace server's tools come from its stored listing
 * when it has them all, without waiting for the session: a call waits for it, and a server
 * that cannot be reached gives that call an error result the model reads. A server with no
 * such listing is waited for (within the connect deadline) and, unreachable, left out of the
 * turn (logged without its headers). `taken` are the names the turn's other tools already
 * use; `signal` (the turn's) stops connecting.
 */
export async function openMcpTools(
  deps: McpToolDeps,
  workspaceId: string,
  toolIds: readonly string[],
  taken: Iterable<string>,
  signal?: AbortSignal,
): Promise<TurnMcpTools> {
  const wanted = new Map<string, Set<string>>();
  for (const id of toolIds) {
    const parsed = parseMcpToolId(id);
    if (!parsed) continue;
    if (!wanted.has(parsed.serverId)) wanted.set(parsed.serverId, new Set());
    wanted.get(parsed.serverId)!.add(parsed.toolName);
  }
  const none: TurnMcpTools = { tools: {}, close: async () => {} };
  if (wanted.size === 0) return none;
  const ids = [...wanted.keys()];
  const instance = deps.instanceMcp;
  const instanceIds = instance ? ids.filter((id) => isInstanceMcpServerId(id) && instance.has(id)) : [];
  const [rows, switchedOn] = await Promise.all([
    findMcpServersByIds(
      deps.db,
      workspaceId,
      ids.filter((id) => !isInstanceMcpServerId(id)),
    ),
    enabledInstanceServerIds(deps.db, workspaceId, instanceIds),
  ]);
  const connectOptions = { timeoutMs: deps.mcpTimeoutMs, signal };
  const servers: TurnServer[] = [
    ...rows
      .filter((s) => s.enabled)
      .map((row) => ({
        id: row.id,
        name: row.name,
        attachedAt: row.createdAt,
        metricsName: URL.canParse(row.url) ? new URL(row.url).host : 'unknown',
        stored: row.tools,
        open: async () => {
          const connection = await connectWorkspaceMcp(deps, row, endpointOf(deps.secrets, row), connectOptions);
          void storeListingIfChanged(deps.db, row, connection.listing);
          return connection;
        },
      })),
    // A stdio server's session is the process's, shared: its `close` leaves it running.
    ...instanceIds
      .filter((id) => switchedOn.has(id))
      .map((id) => ({
        id,
        name: instance!.status(id)!.name,
        metricsName: instance!.status(id)!.name,
        attachedAt: switchedOn.get(id)!,
        open: () => instance!.connect(id, connectOptions),
      })),
  ].sort((a, b) => a.attachedAt.getTime() - b.attachedAt.getTime() || a.id.localeCompare(b.id));

  // Every session opens now, in parallel. A server whose stored listing has every wanted tool
  // is offered from it at once: a slow server delays only the calls made to it, not the turn.
  const sessions = servers.map((server) => {
    const opening = server.open();
    opening.catch((err: unknown) => {
      // Stopped while connecting: nothing to report.
      if (signal?.aborted) return;
      const kind = err instanceof McpConnectError ? err.failure.kind : 'error';
      log.warn({ mcpServerId: server.id, reason: kind }, 'an MCP server could not be reached for this turn');
    });
    const covered = server.stored !== undefined && [...wanted.get(server.id)!].every((name) => server.stored!.some((t) => t.name === name));
    return { server, opening, covered };
  });
  // Closing waits for every session to be closed, those still opening included (Stop ends their
  // listing, and they close themselves), but not longer than SESSION_CLOSE_WAIT_MS: a handshake
  // may hang until its deadline, and the session closes in the background when it settles.
  let closed: Promise<void> | undefined;
  const close = () => {
    if (!closed) {
      const closing = Promise.all(
        sessions.map((s) =>
          s.opening.then(
            (connection) => connection.close(),
            () => {},
          ),
        ),
      );
      let timer: NodeJS.Timeout | undefined;
      const waited = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, SESSION_CLOSE_WAIT_MS);
        timer.unref();
      });
      closed = Promise.race([closing, waited]).then(() => clearTimeout(timer));
    }
    return closed;
  };

  const offered = await Promise.all(
    sessions.map(async ({ server, opening, covered }) => {
      if (covered) return { server, opening, definitions: server.stored as ToolDefinition[] };
      // Not listed yet (or a wanted tool is new): this server's listing is waited for, as the only way to know its tools.
      const connection = await opening.catch(() => undefined);
      return connection ? { server, opening, definitions: connection.listing.tools as ToolDefinition[] } : undefined;
    }),
  );
  const selected = offered
    .filter((o) => o !== undefined)
    .flatMap(({ server, opening, definitions }) =>
      definitions
        .filter((t) => wanted.get(server.id)!.has(t.name))
        .map((definition) => ({ server, opening, definition, serverName: server.name, toolName: definition.name, key: `${server.id}:${definition.name}` })),
    );
  const names = modelToolNames(selected, taken);
  const tools = Object.fromEntries(
    selected.map((s) => [names.get(s.key)!, mcpTool(s.server, () => s.opening, s.definition, deps.mcpCallTimeoutMs ?? MCP_CALL_TIMEOUT_MS, deps.saveToolFile)]),
  );
  return { tools, close };
}
