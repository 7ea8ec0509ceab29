import {
  type ChangePassword,
  type ForgotPassword,
  type PasswordResetLink,
  type ResetPassword,
  type SsoSignIn,
  MAX_PAGE_SIZE,
  type ApprovalDecision,
  type ApprovalResult,
  type Agent,
  type ApiKey,
  type ApiKeyCreate,
  type ApiKeyCreated,
  type BatonFile,
  type AuthStatus,
  type Invitation,
  type InvitationCreate,
  type InvitationCreated,
  type InvitationPreview,
  type Me,
  type Member,
  type Membership,
  type MemberUpdate,
  type SignIn,
  type SignUp,
  type Workspace,
  type WorkspaceCreate,
  type AgentCreate,
  type AgentUpdate,
  type RemoteCardRequest,
  type RemoteCardResult,
  type Chat,
  type ChatSource,
  type ChatCreate,
  type ChatUpdate,
  type ChatSearchHit,
  type ChatTrace,
  type DelegationRetry,
  type DelegationRetryRequest,
  type McpOAuthConnect,
  type McpServer,
  type McpServerCreate,
  type McpServerUpdate,
  type SteeringMessage,
  type WorkspaceTool,
  type ChatWithMessages,
  type AgentFeedbackPage,
  type FeedbackInput,
  type FeedbackRating,
  type MessageFeedback,
  type Health,
  type ModelsInfo,
  type Page,
  type Provider,
  type ProviderCreate,
  type ProviderTestRequest,
  type ProviderTestResult,
  type ProviderUpdate,
  type ToolInfo,
  type ChatExportFormat,
  type Share,
  type ShareCreate,
  type ShareCreated,
  type SharedChat,
} from '@baton/schemas';
import type { FileUIPart } from 'ai';
import { redirectToSignIn } from './sign-in-redirect';

/** A failed API call: the backend's `{ error: { code, message, details } }`, or a network failure. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  get isNotFound() {
    return this.status === 404;
  }

  /** A member asked for something only workspace admins may do. */
  get isForbidden() {
    return this.status === 403;
  }
}

export interface PageQuery {
  limit?: number;
  cursor?: string | null;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

interface RequestOptions {
  /**
   * What a 401 means. `redirect` (the default, for signed-in pages): the session is gone, so
   * the page goes to sign-in and the call never settles (nothing flashes an error on the
   * way out). `throw`: the caller handles it — sign-in's "wrong password", or a public
   * page asking whether anyone is signed in.
   */
  on401?: 'redirect' | 'throw';
}

const PUBLIC: RequestOptions = { on401: 'throw' };

/** One call to Baton's API (`path` below `/api`): JSON in and out, errors as ApiError, 401 → sign in. */
export async function request<T>(method: Method, path: string, body?: unknown, { on401 = 'redirect' }: RequestOptions = {}): Promise<T> {
  let res: Response;
  try {
    res = await fetch(`/api${path}`, {
      method,
      headers: body === undefined ? undefined : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: 'no-store',
    });
  } catch (err) {
    throw new ApiError(0, 'network_error', `the server could not be reached (${(err as Error).message})`);
  }
  if (res.status === 204) return undefined as T;
  if (res.status === 401 && on401 === 'redirect') {
    redirectToSignIn();
    return new Promise<never>(() => {});
  }
  const payload: unknown = await res.json().catch(() => undefined);
  if (!res.ok) throw toApiError(res.status, payload);
  return payload as T;
}

export interface UploadOptions {
  /** Called as the bytes go out: the share sent so far, 0 to 1. */
  onProgress?: (fraction: number) => void;
  /** Aborting rejects with an ApiError of code `aborted`. */
  signal?: AbortSignal;
}

/**
 * A file sent as `multipart/form-data` (field `file`) to `path` below `/api`. XMLHttpRequest
 * rather than fetch: only its `upload` events tell how much of the body has gone out, and a
 * chip that shows progress on a 20 MiB PDF needs that (fetch streams no request bodies over
 * HTTP/1.1, which is what the web app's proxy speaks). Errors as `request`'s.
 */
export function upload<T>(path: string, file: File, { onProgress, signal }: UploadOptions = {}): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/api${path}`);
    xhr.responseType = 'text';
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(event.loaded / event.total);
    };
    xhr.onload = () => {
      if (xhr.status === 401) {
        redirectToSignIn();
        return;
      }
      let payload: unknown;
      try {
        payload = JSON.parse(xhr.responseText);
      } catch {
        payload = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(payload as T);
      else reject(toApiError(xhr.status, payload));
    };
    xhr.onerror = () => reject(new ApiError(0, 'network_error', 'the server could not be reached'));
    xhr.onabort = () => reject(new ApiError(0, 'aborted', 'the upload was cancelled'));
    if (signal?.aborted) {
      reject(new ApiError(0, 'aborted', 'the upload was cancelled'));
      return;
    }
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    const form = new FormData();
    form.append('file', file, file.name);
    xhr.send(form);
  });
}

function toApiError(status: number, payload: unknown): ApiError {
  const error = (payload as { error?: { code?: unknown; message?: unknown; details?: unknown } } | undefined)?.error;
  if (error && typeof error.code === 'string' && typeof error.message === 'string') {
    return new ApiError(status, error.code, error.message, error.details);
  }
  return new ApiError(status, `http_${status}`, `the server answered ${status}`);
}

function pageQuery({ limit, cursor }: PageQuery = {}, filters: Record<string, string> = {}) {
  const params = new URLSearchParams(filters);
  if (limit) params.set('limit', String(limit));
  if (cursor) params.set('cursor', cursor);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** Follows `nextCursor` until the last page: for small lists a form needs whole (agents, providers). */
async function listAll<T>(fetchPage: (query: PageQuery) => Promise<Page<T>>): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | null = null;
  do {
    const page: Page<T> = await fetchPage({ limit: MAX_PAGE_SIZE, cursor });
    items.push(...page.data);
    cursor = page.nextCursor;
  } while (cursor);
  return items;
}

const ws = (workspaceId: string) => `/workspaces/${encodeURIComponent(workspaceId)}`;
const id = (value: string) => encodeURIComponent(value);
const chat = (workspaceId: string, chatId: string) => `${ws(workspaceId)}/chats/${id(chatId)}`;
const mcpServer = (workspaceId: string, serverId: string) => `${ws(workspaceId)}/mcp-servers/${id(serverId)}`;
const builtIn = (t: ToolInfo): WorkspaceTool => ({ ...t, source: 'builtIn', serverId: null, serverName: null, available: true });

export const api = {
  health: () => request<Health>('GET', '/health'),

  auth: {
    status: () => request<AuthStatus>('GET', '/auth-status', undefined, PUBLIC),
    signIn: (input: SignIn) => request<unknown>('POST', '/auth/sign-in/email', input, PUBLIC),
    /** Creates the account and signs it in: the owner on a fresh instance, else with an invitation's token. */
    signUp: (input: SignUp) => request<unknown>('POST', '/auth/sign-up/email', input, PUBLIC),
    signOut: () => request<unknown>('POST', '/auth/sign-out', {}, PUBLIC),
    /** Signs out every other session; this one gets a new cookie. A wrong current password is a 400, not a sign-out. */
    changePassword: (input: ChangePassword) => request<unknown>('POST', '/auth/change-password', input, PUBLIC),
    /** With a reset link's token (an admin's, or a mailed one). */
    resetPassword: (input: ResetPassword) => request<unknown>('POST', '/auth/reset-password', input, PUBLIC),
    /** "Forgot password?": only when the server sends mail (`AuthStatus.mail`). */
    requestPasswordReset: (input: ForgotPassword) => request<unknown>('POST', '/auth/request-password-reset', input, PUBLIC),
    /** Where to send the browser to sign in at the single sign-on provider. */
    startSso: (input: SsoSignIn) => request<{ url: string }>('POST', '/auth/sign-in/sso', input, PUBLIC),
  },

  /** The signed-in person and their workspaces. */
  me: () => request<Me>('GET', '/me'),
  /** The same, or null when nobody is signed in: for pages anyone may open. */
  meIfSignedIn: async (): Promise<Me | null> => {
    try {
      return await request<Me>('GET', '/me', undefined, PUBLIC);
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) return null;
      throw err;
    }
  },

  workspaces: {
    create: (input: WorkspaceCreate) => request<Workspace>('POST', '/workspaces', input),
  },

  members: {
    list: async (workspaceId: string) => (await request<{ data: Member[] }>('GET', `${ws(workspaceId)}/members`)).data,
    update: (workspaceId: string, userId: string, patch: MemberUpdate) => request<Member>('PATCH', `${ws(workspaceId)}/members/${id(userId)}`, patch),
    /** Removes a member (admins), or leaves the workspace (your own id). */
    remove: (workspaceId: string, userId: string) => request<void>('DELETE', `${ws(workspaceId)}/members/${id(userId)}`),
    /** A one-time password reset link for a member (admins): shown only in this answer. */
    passwordReset: (workspaceId: string, userId: string) => request<PasswordResetLink>('POST', `${ws(workspaceId)}/members/${id(userId)}/password-reset`),
  },

  invitations: {
    /** What an invite link offers (public). */
    preview: (token: string) => request<InvitationPreview>('GET', `/invitations/${id(token)}`, undefined, PUBLIC),
    accept: (token: string) => request<Membership>('POST', `/invitations/${id(token)}/accept`),
    list: async (workspaceId: string) => (await request<{ data: Invitation[] }>('GET', `${ws(workspaceId)}/invitations`)).data,
    /** The answer's `token` is shown this once. */
    create: (workspaceId: string, input: InvitationCreate) => request<InvitationCreated>('POST', `${ws(workspaceId)}/invitations`, input),
    revoke: (workspaceId: string, invitationId: string) => request<void>('DELETE', `${ws(workspaceId)}/invitations/${id(invitationId)}`),
  },

  apiKeys: {
    /** Your keys; an admin gets every key of the workspace. */
    list: async (workspaceId: string) => (await request<{ data: ApiKey[] }>('GET', `${ws(workspaceId)}/api-keys`)).data,
    /** The answer's `key` is shown this once. */
    create: (workspaceId: string, input: ApiKeyCreate) => request<ApiKeyCreated>('POST', `${ws(workspaceId)}/api-keys`, input),
    revoke: (workspaceId: string, keyId: string) => request<void>('DELETE', `${ws(workspaceId)}/api-keys/${id(keyId)}`),
  },

  agents: {
    list: (workspaceId: string, query?: PageQuery) => request<Page<Agent>>('GET', `${ws(workspaceId)}/agents${pageQuery(query)}`),
    listAll: (workspaceId: string) => listAll((q) => api.agents.list(workspaceId, q)),
    get: (workspaceId: string, agentId: string) => request<Agent>('GET', `${ws(workspaceId)}/agents/${id(agentId)}`),
    create: (workspaceId: string, input: AgentCreate) => request<Agent>('POST', `${ws(workspaceId)}/agents`, input),
    update: (workspaceId: string, agentId: string, patch: AgentUpdate) => request<Agent>('PATCH', `${ws(workspaceId)}/agents/${id(agentId)}`, patch),
    /** `force`: delete although other people's chats use it (otherwise 409 `agent_in_use` with `details.otherChats`). */
    remove: (workspaceId: string, agentId: string, { force = false } = {}) =>
      request<void>('DELETE', `${ws(workspaceId)}/agents/${id(agentId)}${force ? '?force=true' : ''}`),
    /** Ratings of the agent's answers (admins), newest first, with its totals. */
    feedback: (workspaceId: string, agentId: string, query: PageQuery & { rating?: FeedbackRating } = {}) => {
      const { rating, ...page } = query;
      return request<AgentFeedbackPage>('GET', `${ws(workspaceId)}/agents/${id(agentId)}/feedback${pageQuery(page, rating ? { rating } : {})}`);
    },
    /** A remote A2A agent's card; one that cannot be read is `ok: false` with why, not a thrown error. */
    remoteCard: (workspaceId: string, input: RemoteCardRequest) => request<RemoteCardResult>('POST', `${ws(workspaceId)}/agents/remote-card`, input),
  },

  providers: {
    list: (workspaceId: string, query?: PageQuery) => request<Page<Provider>>('GET', `${ws(workspaceId)}/providers${pageQuery(query)}`),
    listAll: (workspaceId: string) => listAll((q) => api.providers.list(workspaceId, q)),
    create: (workspaceId: string, input: ProviderCreate) => request<Provider>('POST', `${ws(workspaceId)}/providers`, input),
    update: (workspaceId: string, providerId: string, patch: ProviderUpdate) =>
      request<Provider>('PATCH', `${ws(workspaceId)}/providers/${id(providerId)}`, patch),
    remove: (workspaceId: string, providerId: string) => request<void>('DELETE', `${ws(workspaceId)}/providers/${id(providerId)}`),
    /** Asks the provider for its models; a provider that fails is `ok: false`, not a thrown error. */
    test: (workspaceId: string, input: ProviderTestRequest) => request<ProviderTestResult>('POST', `${ws(workspaceId)}/providers/test`, input),
  },

  chats: {
    /** `source`: only the chats started in the app, or only those started with an API key. */
    list: (workspaceId: string, { source, archived, ...query }: PageQuery & { source?: ChatSource; archived?: boolean } = {}) =>
      request<Page<Chat>>('GET', `${ws(workspaceId)}/chats${pageQuery(query, { ...(source ? { source } : {}), ...(archived ? { archived: 'true' } : {}) })}`),
    /** Read through the query cache (lib/queries.ts), which a run's end refreshes: not called directly. */
    get: (workspaceId: string, chatId: string) => request<ChatWithMessages>('GET', chat(workspaceId, chatId)),
    /** The caller's rating of an answer, replacing theirs; `clearFeedback` removes it. */
    setFeedback: (workspaceId: string, chatId: string, messageId: string, input: FeedbackInput) =>
      request<MessageFeedback>('PUT', `${chat(workspaceId, chatId)}/messages/${id(messageId)}/feedback`, input),
    clearFeedback: (workspaceId: string, chatId: string, messageId: string) =>
      request<void>('DELETE', `${chat(workspaceId, chatId)}/messages/${id(messageId)}/feedback`),
    search: (workspaceId: string, q: string) =>
      request<{ data: ChatSearchHit[] }>('GET', `${ws(workspaceId)}/chats/search?${new URLSearchParams({ q }).toString()}`),
    create: (workspaceId: string, input: ChatCreate) => request<Chat>('POST', `${ws(workspaceId)}/chats`, input),
    rename: (workspaceId: string, chatId: string, title: string) => request<Chat>('PATCH', chat(workspaceId, chatId), { title }),
    /** Pins or archives a top-level chat (archiving unpins it). */
    file: (workspaceId: string, chatId: string, change: Pick<ChatUpdate, 'pinned' | 'archived'>) => request<Chat>('PATCH', chat(workspaceId, chatId), change),
    /** Switches the chat's agent or model from its next answer on (409 while an answer is under way). */
    switchAgent: (workspaceId: string, chatId: string, change: Pick<ChatUpdate, 'agentId' | 'modelOverride'>) =>
      request<Chat>('PATCH', chat(workspaceId, chatId), change),
    remove: (workspaceId: string, chatId: string) => request<void>('DELETE', chat(workspaceId, chatId)),
    /** Aborts the chat's running answer on the server; resolves once what it produced is stored. */
    stop: (workspaceId: string, chatId: string) => request<{ stopped: boolean }>('POST', `${chat(workspaceId, chatId)}/stop`),
    /** Makes a stored version of a message (an edit's earlier text, a regenerated answer) part of the active branch; returns the chat as it now reads. */
    activateVersion: (workspaceId: string, chatId: string, messageId: string) =>
      request<ChatWithMessages>('POST', `${chat(workspaceId, chatId)}/messages/${id(messageId)}/activate`),
    /** A person's decision on a delegation waiting for approval; the server resumes the answer when nothing else waits. */
    decideApproval: (workspaceId: string, chatId: string, toolCallId: string, decision: ApprovalDecision) =>
      request<ApprovalResult>('POST', `${chat(workspaceId, chatId)}/approvals/${id(toolCallId)}`, decision),
    /** The chats a parent chat delegated to, oldest first (each names its `parentToolCallId` and `attempt`). */
    subChats: async (workspaceId: string, parentChatId: string) =>
      (await request<{ data: Chat[] }>('GET', `${chat(workspaceId, parentChatId)}/sub-chats`)).data,
    /** The chat's delegation tree: the chat and every sub-chat below it, with status, steps, tokens and times. */
    trace: (workspaceId: string, chatId: string) => request<ChatTrace>('GET', `${chat(workspaceId, chatId)}/trace`),
    /** Starts the next attempt of a finished delegation of the chat's last answer (202). */
    retryDelegation: (workspaceId: string, chatId: string, toolCallId: string, body: DelegationRetryRequest) =>
      request<DelegationRetry>('POST', `${chat(workspaceId, chatId)}/delegations/${id(toolCallId)}/retry`, body),
    /** Where the browser downloads the chat as a file (the session cookie goes with a plain GET; the answer is an attachment). */
    exportUrl: (workspaceId: string, chatId: string, format: ChatExportFormat) => `/api${chat(workspaceId, chatId)}/export?format=${format}`,
    /** A JSON export (the file's parsed contents) made a new chat of this workspace, with its sub-chats. */
    import: (workspaceId: string, exported: unknown) => request<{ id: string }>('POST', `${ws(workspaceId)}/chats/import`, exported),
    /** A read-only link to the chat; the answer's `token` is shown this once. */
    share: (workspaceId: string, chatId: string, input: ShareCreate) => request<ShareCreated>('POST', `${chat(workspaceId, chatId)}/shares`, input),
  },

  /** Your share links in a workspace, and revoking one. */
  shares: {
    list: async (workspaceId: string) => (await request<{ data: Share[] }>('GET', `${ws(workspaceId)}/shares`)).data,
    revoke: (workspaceId: string, shareId: string) => request<void>('DELETE', `${ws(workspaceId)}/shares/${id(shareId)}`),
  },

  /** A shared chat, read with the link's token alone (public: no session needed, a 401 is never a reason to sign in). */
  shared: (token: string) => request<SharedChat>('GET', `/shared/${id(token)}`, undefined, PUBLIC),

  /** Talking to a running sub-agent: queue a message for its next step, and read what was sent. */
  steering: {
    /** Queues text and uploaded files for the sub-agent of a running sub-chat (202); 409 when it is not running any more. */
    send: (workspaceId: string, subChatId: string, message: { text: string; files: readonly FileUIPart[] }) =>
      request<SteeringMessage>('POST', `${chat(workspaceId, subChatId)}/messages`, {
        text: message.text,
        files: message.files.map(({ type, mediaType, filename, url }) => ({ type, mediaType, url, ...(filename ? { filename } : {}) })),
      }),
    /** Everything sent to a sub-agent, oldest first, with whether it reached it. */
    list: async (workspaceId: string, subChatId: string) =>
      (await request<{ data: SteeringMessage[] }>('GET', `${chat(workspaceId, subChatId)}/steering`)).data,
  },

  /** The workspace's MCP tool servers. */
  mcpServers: {
    list: async (workspaceId: string) => (await request<{ data: McpServer[] }>('GET', `${ws(workspaceId)}/mcp-servers`)).data,
    create: (workspaceId: string, input: McpServerCreate) => request<McpServer>('POST', `${ws(workspaceId)}/mcp-servers`, input),
    update: (workspaceId: string, serverId: string, patch: McpServerUpdate) => request<McpServer>('PATCH', mcpServer(workspaceId, serverId), patch),
    remove: (workspaceId: string, serverId: string) => request<void>('DELETE', mcpServer(workspaceId, serverId)),
    /** Lists the server's tools again; a server that fails is stored in `toolsError`, not a thrown error. */
    refresh: (workspaceId: string, serverId: string) => request<McpServer>('POST', `${mcpServer(workspaceId, serverId)}/refresh`),
    /** OAuth servers: where to send the browser to authorize Baton (null when Baton could renew its tokens itself). */
    connect: (workspaceId: string, serverId: string) => request<McpOAuthConnect>('POST', `${mcpServer(workspaceId, serverId)}/oauth/connect`),
    /** Forgets the server's OAuth tokens. */
    disconnect: (workspaceId: string, serverId: string) => request<McpServer>('DELETE', `${mcpServer(workspaceId, serverId)}/oauth`),
  },

  /**
   * Every tool an agent of the workspace can be given: built-ins and MCP tools. A backend
   * without the workspace catalog (404) still offers its built-in tools.
   */
  workspaceTools: async (workspaceId: string): Promise<WorkspaceTool[]> => {
    try {
      return (await request<{ data: WorkspaceTool[] }>('GET', `${ws(workspaceId)}/tools`)).data;
    } catch (err) {
      if (err instanceof ApiError && err.isNotFound) return (await api.tools.list()).map(builtIn);
      throw err;
    }
  },

  files: {
    /** Uploads a file to attach to a message: the answer's `url` goes into the message's `file` part. */
    upload: (workspaceId: string, file: File, options?: UploadOptions) => upload<BatonFile>(`${ws(workspaceId)}/files`, file, options),
  },

  /** Which model answers agents that name no provider (the offline demo model, or an OpenAI default). */
  models: () => request<ModelsInfo>('GET', '/models'),

  tools: {
    /** Empty until the backend offers `GET /api/tools` (a 404 means "no tools yet"). */
    list: async (): Promise<ToolInfo[]> => {
      try {
        const body = await request<{ data: ToolInfo[] }>('GET', '/tools');
        return body.data;
      } catch (err) {
        if (err instanceof ApiError && err.isNotFound) return [];
        throw err;
      }
    },
  },
};
