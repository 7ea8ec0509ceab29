'use client';

import { delegationOutcomeSchema, type DelegationOutcome, type TokenUsage } from '@baton/schemas';
import { create } from 'zustand';

/**
 * - `queued`: waiting for a slot (the root agent's `maxConcurrent` sub-agents already run);
 * - `starting`: registered; checking the sub-agent, or looking for a sub-chat that already
 *   runs this call (after a reload);
 * - `running`: the sub-chat is working;
 * - `awaiting_approval`: the call waits for a person to approve or reject it (the root
 *   agent's `delegation.requireApproval`); shown by its block, never registered here;
 * - an outcome (`success`, `error`, `cancelled`, `step_limit`, `budget_exhausted`,
 *   `interrupted`): finished, with `result`. The server decides it for a sub-chat.
 */
export type DelegationPhase = 'queued' | 'starting' | 'running' | 'awaiting_approval';
export type DelegationStatus = DelegationPhase | DelegationOutcome;

export interface Delegation {
  key: string;
  toolCallId: string;
  workspaceId: string;
  parentChatId: string;
  /** The parent message and step of the call: the calls of one step share a modal. */
  batchId: string;
  subAgentId: string;
  /** The sub-agent's name, or its id until (or unless) the agent is found. */
  subAgentName: string;
  task: string;
  /** Null while starting, and for calls that never ran (unknown sub-agent, over the batch limit). */
  subChatId: string | null;
  status: DelegationStatus;
  startedAt: number;
  finishedAt: number | null;
  steps: number;
  result: string | null;
  /** Tokens of the sub-agent and its own sub-agents (known once finished). */
  usage: TokenUsage | null;
  /** The root agent's `maxResultChars`, once its settings are read: a longer result reaches the parent cut. */
  maxResultChars?: number;
  /** The result reached the parent cut to the root agent's `maxResultChars`. */
  truncated: boolean;
  /** The task went out as the sub-chat's first message: set once, checked before sending. */
  taskSent: boolean;
  /** The output went to the parent's `addToolOutput`, or must not (a quiet cancel): it is handed over once. */
  delivered: boolean;
  /**
   * Another tab started the sub-chat, and hands its result to the parent: this tab follows
   * and shows the parent's continuation when it comes (delegation-outcome.ts).
   */
  drivenElsewhere: boolean;
}

export type NewDelegation = Pick<Delegation, 'toolCallId' | 'workspaceId' | 'parentChatId' | 'batchId' | 'subAgentId' | 'subAgentName' | 'task'>;

/** The sub-agent modal of one parent chat: which batch it shows and which tab is active. */
export interface DelegationModalState {
  open: boolean;
  batchId: string;
  activeKey: string | null;
}

interface DelegationStoreState {
  delegations: Record<string, Delegation>;
  modals: Record<string, DelegationModalState>;

  /** Adds a delegation unless one exists for this call; true when this call added it. */
  register: (input: NewDelegation) => boolean;
  update: (key: string, patch: Partial<Omit<Delegation, 'key' | 'toolCallId' | 'parentChatId'>>) => void;
  /** True exactly once per delegation: whoever gets true sends the task. */
  claimTaskSend: (key: string) => boolean;

  openModal: (parentChatId: string, batchId: string, activeKey?: string) => void;
  /** Closing while sub-agents run only hides the modal: they keep running. */
  minimiseModal: (parentChatId: string) => void;
  selectTab: (parentChatId: string, key: string) => void;

  /** Drops a finished delegation, so its call (waiting again after a retry) registers anew. */
  forget: (key: string) => void;
}

/**
 * Delegations are keyed by parent chat + tool-call id. The tool-call id alone is what the
 * server matches on within a parent, but some OpenAI-compatible servers number calls per
 * response ("call_0"), so two chats could otherwise clash in this one browser-wide store.
 */
export function delegationKey(parentChatId: string, toolCallId: string): string {
  return `${parentChatId}:${toolCallId}`;
}

export function isFinished(status: DelegationStatus): status is DelegationOutcome {
  return delegationOutcomeSchema.safeParse(status).success;
}

export const useDelegationStore = create<DelegationStoreState>()((set, get) => ({
  delegations: {},
  modals: {},

  register: (input) => {
    const key = delegationKey(input.parentChatId, input.toolCallId);
    // Zustand's get/set run synchronously, so two callers in the same tick (StrictMode's
    // double effects) cannot both pass this check.
    if (get().delegations[key]) return false;
    const delegation: Delegation = {
      ...input,
      key,
      subChatId: null,
      status: 'starting',
      startedAt: Date.now(),
      finishedAt: null,
      steps: 0,
      result: null,
      usage: null,
      truncated: false,
      taskSent: false,
      delivered: false,
      drivenElsewhere: false,
    };
    set({ delegations: { ...get().delegations, [key]: delegation } });
    return true;
  },

  update: (key, patch) => {
    const current = get().delegations[key];
    if (!current) return;
    set({ delegations: { ...get().delegations, [key]: { ...current, ...patch } } });
  },

  claimTaskSend: (key) => {
    const current = get().delegations[key];
    if (!current || current.taskSent) return false;
    get().update(key, { taskSent: true });
    return true;
  },

  openModal: (parentChatId, batchId, activeKey) => {
    const current = get().modals[parentChatId];
    const sameBatch = current?.batchId === batchId;
    set({
      modals: {
        ...get().modals,
        [parentChatId]: {
          open: true,
          batchId,
          activeKey: activeKey ?? (sameBatch ? current.activeKey : null),
        },
      },
    });
  },

  minimiseModal: (parentChatId) => {
    const current = get().modals[parentChatId];
    if (!current?.open) return;
    set({ modals: { ...get().modals, [parentChatId]: { ...current, open: false } } });
  },

  selectTab: (parentChatId, key) => {
    const current = get().modals[parentChatId];
    if (!current) return;
    set({ modals: { ...get().modals, [parentChatId]: { ...current, activeKey: key } } });
  },

  forget: (key) => {
    const { [key]: _gone, ...rest } = get().delegations;
    set({ delegations: rest });
  },
}));

/** The delegations of one batch that have (or wait for) a sub-chat: the modal's tabs, in call order. */
export function batchTabs(delegations: Record<string, Delegation>, parentChatId: string, batchId: string): Delegation[] {
  return Object.values(delegations).filter((d) => d.parentChatId === parentChatId && d.batchId === batchId && (d.subChatId !== null || d.status === 'queued'));
}
