// The runtime's shared types, in a module that imports no runtime code (types only): the
// turn builder, the run loop, delegation and paused answers all speak them, and importing
// them from any of those would tie the modules into an import cycle.
import type { RunErrorData, RunRetryData, RunStatus, TokenUsage, BatonUIMessage } from '@baton/schemas';
import type { Database } from '../db/client';
import type { ModelLabels } from '../ops/metrics';
import type { InstanceMcpServers } from '../mcp/instance-servers';
import type { Outbound } from '../outbound/guarded-fetch';
import type { Secrets } from '../secrets/secrets';
import type { AgentRow } from '../services/agents';
import type { ChatRow } from '../services/chat-rows';
import type { FileSettings } from '../services/files';
import type { RunRow } from '../services/runs';
import type { DelegationMode } from './delegation';
import type { ModelTimeouts } from './model-timeouts';
import type { DefaultModelConfig } from './models';
import type { ProviderLimits } from './provider-limits';
import type { LocalRun, RunRegistry } from './runs/run-registry';
import type { SnapshotWriter } from './runs/snapshot-writer';
import type { SubChatEnd } from './sub-chat-end';
import type { UsageMeter } from './usage-meter';

export interface RuntimeDeps {
  db: Database;
  defaultModel: DefaultModelConfig;
  runs: RunRegistry;
  modelTimeouts: ModelTimeouts;
  /** Encrypts and decrypts provider API keys (BATON_SECRET_KEY). */
  secrets: Secrets;
  /** The guarded fetches every model call goes through. */
  outbound: Outbound;
  /** Mid-answer snapshots of this process's runs, written in batches. */
  snapshots: SnapshotWriter;
  /** How long an MCP server may take to connect and list its tools (default 10 s; tests shorten it). */
  mcpTimeoutMs?: number;
  /** How long one MCP tool call may take (BATON_MCP_CALL_TIMEOUT_MS, default 60 s). */
  mcpCallTimeoutMs?: number;
  /** How long a remote A2A agent may send nothing before its task counts as failed (BATON_A2A_TIMEOUT_MS, default 300 s). */
  a2aTimeoutMs?: number;
  /** The operator's MCP servers (BATON_MCP_CONFIG), shared by every workspace that switches them on. */
  instanceMcp: InstanceMcpServers;
  /** What a provider may send: tool calls per step, an answer's text, bytes (provider-limits.ts); the defaults when absent. */
  providerLimits?: ProviderLimits;
  /** Where files are kept and what they may be: messages carry them, turns read them. */
  files: FileSettings;
}

export type { AgentRow, ChatRow };

export interface TurnInput {
  workspaceId: string;
  chat: ChatRow;
  agent: AgentRow;
  /** The whole conversation the model answers, ending with the new user message or the continued assistant message. */
  history: BatonUIMessage[];
  mode: DelegationMode;
  /** The run this turn executes (already stored as `running`). */
  run: RunRow;
  /** A sub-agent's budget and the tree's usage counters (a top-level chat's turn starts its own). */
  meter?: UsageMeter;
  /** Settings a caller chose for this turn only (the OpenAI-compatible API's parameters). */
  overrides?: TurnOverrides;
}

/** For this turn's own model calls only; sub-agents keep their agents' settings. */
export interface TurnOverrides {
  temperature?: number;
  /** A cap on each model call of the turn. */
  maxOutputTokens?: number;
  topP?: number;
  frequencyPenalty?: number;
  presencePenalty?: number;
  seed?: number;
  stopSequences?: string[];
  /** For the agent's own tools and the client tools: "none" keeps the model from calling any, a named one must be a client tool. */
  toolChoice?: 'none' | 'auto' | 'required' | { type: 'tool'; toolName: string };
  /** The caller's own tools (`/v1`'s `tools`), offered next to the agent's without `execute`: a call of one ends the answer, pending. */
  clientTools?: ClientToolSpec[];
  /**
   * Chat Completions request fields sent to the provider as they are (`response_format`,
   * `user`, `parallel_tool_calls`, …): the caller speaks the provider's own protocol, so
   * nothing is lost in a translation (agent/call-settings.ts).
   */
  providerFields?: Record<string, unknown>;
}

/** A tool the API caller runs itself: the model sees it like any tool; its calls wait for the caller's output. */
export interface ClientToolSpec {
  name: string;
  description?: string;
  /** JSON Schema of its input (an object schema). */
  parameters: Record<string, unknown>;
}

/** What the run loop learns from the model call besides the chunks themselves. */
export interface TurnObserver {
  /** The provider's error behind an `error` chunk (its text is already readable and without the key). */
  lastError?: unknown;
  /** This turn's tokens so far, step by step (what the live view shows): a stopped or cut-off run has spent them too. */
  spent: TokenUsage;
  describeError: (err: unknown) => string;
  /** Sub-agent runs started by server-side delegation, and the records of delivered steering messages: the turn ends after they do. */
  subRuns: Promise<unknown>[];
  /** Set for sub-chats: its budget and counters. */
  meter?: UsageMeter;
  /** The provider failed and the AI SDK is about to call it again (see model-retries.ts). */
  onRetry?: (data: RunRetryData) => void;
  /** The model that answers (for the tokens' metrics): known once the turn resolved it. */
  model?: ModelLabels;
  /** Ends what the turn opened for its tools (MCP sessions); the run loop calls it however the turn ends. */
  closeTools?: () => Promise<void>;
  /** A sub-chat's last call without tools, asking for its result so far (see runs/partial-result.ts). */
  askForPartialResult?: (message: BatonUIMessage, signal: AbortSignal) => Promise<{ textStream: AsyncIterable<string>; usage: PromiseLike<TokenUsage> }>;
}

export interface TurnResult {
  status: Exclude<RunStatus, 'running'>;
  responseMessage?: BatonUIMessage;
  error?: RunErrorData;
  steps: number;
  /** Set for sub-chats: how the delegated task ended. */
  subChat?: SubChatEnd;
}

export interface StartedTurn {
  local: LocalRun;
  /** Settles when the run's end is stored (never rejects). */
  result: Promise<TurnResult>;
}

/**
 * Executes a stored run (runs/execute-run.ts's `startTurn`). The run loop hands it to the
 * turn it builds, so a turn's sub-agents start their runs without the turn importing the loop.
 */
export type StartRun = (deps: RuntimeDeps, input: TurnInput) => StartedTurn;
