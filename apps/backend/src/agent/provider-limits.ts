import { DEFAULT_MAX_TOOL_CALLS_PER_STEP } from './tool-call-limit';

/**
 * What a model provider may send Baton: an admin's provider, or anyone's message to the
 * demo model, can otherwise make one answer cost the whole process its memory or its CPU.
 */
export interface ProviderLimits {
  /** BATON_MAX_TOOL_CALLS_PER_STEP: tool calls of one model response that run; later ones get an error result (tool-call-limit.ts). */
  maxToolCallsPerStep: number;
  /** BATON_MAX_ANSWER_CHARS: text and reasoning of one answer; the rest is cut, with a note (runs/answer-cap.ts). */
  maxAnswerChars: number;
  /** BATON_MODEL_MAX_RESPONSE_BYTES: bytes of one provider response (model-response-limits.ts). */
  maxResponseBytes: number;
  /** BATON_MODEL_MAX_EVENT_BYTES: bytes of one line of a streamed response, refused before it is held whole. */
  maxEventBytes: number;
}

export const DEFAULT_PROVIDER_LIMITS: ProviderLimits = {
  maxToolCallsPerStep: DEFAULT_MAX_TOOL_CALLS_PER_STEP,
  maxAnswerChars: 1_000_000,
  maxResponseBytes: 64 * 1024 * 1024,
  maxEventBytes: 4 * 1024 * 1024,
};

/** Bytes as a person reads them: `64 MiB`, `256 KiB`, else the number. */
export function describeBytes(bytes: number): string {
  if (bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes.toLocaleString('en-US')} bytes`;
}
