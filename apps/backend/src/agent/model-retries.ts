import type { RunRetryData } from '@baton/schemas';
import { APICallError, wrapLanguageModel, type LanguageModel } from 'ai';
import { SafeMessageError } from '../errors';
import { abortableDelay, providerBackoff, type ProviderBackoff } from './provider-backoff';

/**
 * The retry budget of one model call (a step's request and its retries): at most 3
 * attempts for a failure such as a 503, at most 6 when the provider rate-limits (429: it
 * is busy, not broken, so waiting as asked is the remedy — a batch of ten sub-agents may
 * need several rounds), and at most 60 s of waiting in all. The AI SDK does the retrying
 * (`maxRetries`, explicit in turn.ts): exponential backoff (2 s, 4 s, 8 s…), or the wait
 * the provider asks for in `retry-after-ms` / `Retry-After` (seconds or an HTTP date) when
 * it is under 60 s. A provider that asks for more than the budget has left is not asked
 * again: the call fails at once, saying how long it asked for.
 */
export const MODEL_MAX_ATTEMPTS = 3;
export const RATE_LIMITED_MAX_ATTEMPTS = 6;
export const MODEL_RETRY_WAIT_BUDGET_MS = 60_000;
/** For the AI SDK: the most retries any failure may get; this module stops the others sooner. */
export const MODEL_MAX_RETRIES = RATE_LIMITED_MAX_ATTEMPTS - 1;

// The AI SDK's own delay rule (ai/src/util/retry-with-exponential-backoff.ts, not exported),
// mirrored so the notice can say how long the SDK is about to wait.
const SDK_INITIAL_DELAY_MS = 2_000;
const SDK_BACKOFF_FACTOR = 2;
/** A header wait at or above this the SDK ignores (it falls back to its backoff). */
const SDK_HEADER_CAP_MS = 60_000;

/** Shown on hover while a call waits because another call to the same provider was rate limited. */
export const SHARED_BACKOFF_MESSAGE = 'The provider rate-limited another request a moment ago; this one waits for the time it asked for.';

type Headers = Record<string, string | undefined> | undefined;

/** The wait a provider asked for, in ms: `retry-after-ms` (OpenAI), else `Retry-After` as seconds or an HTTP date. */
export function askedWaitMs(headers: Headers, now = Date.now()): number | undefined {
  const ms = Number.parseFloat(headers?.['retry-after-ms'] ?? '');
  if (!Number.isNaN(ms)) return ms;
  const retryAfter = headers?.['retry-after'];
  if (!retryAfter) return undefined;
  const seconds = Number.parseFloat(retryAfter);
  if (!Number.isNaN(seconds)) return seconds * 1000;
  const at = Date.parse(retryAfter);
  return Number.isNaN(at) ? undefined : at - now;
}

/** How long the AI SDK waits before the attempt that follows the `failures`-th failure. */
export function sdkRetryDelayMs(asked: number | undefined, failures: number): number {
  const backoff = SDK_INITIAL_DELAY_MS * SDK_BACKOFF_FACTOR ** (failures - 1);
  if (asked !== undefined && asked >= 0 && (asked < SDK_HEADER_CAP_MS || asked < backoff)) return asked;
  return backoff;
}

/** "45 seconds", "10 minutes", "2 hours": how long a provider asked Baton to wait. */
export function waitText(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  const [n, unit] = seconds < 90 ? [seconds, 'second'] : seconds < 90 * 60 ? [Math.round(seconds / 60), 'minute'] : [Math.round(seconds / 3600), 'hour'];
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}

/** The provider asked for a longer wait than the call's retry budget has left: not retried. */
export class ProviderAsksToWaitError extends SafeMessageError {
  constructor(
    readonly waitMs: number,
    status: number,
    cause: unknown,
  ) {
    const who = status === 429 ? 'Rate limited by the provider' : `The model provider is unavailable (HTTP ${status})`;
    super(`${who}; it asks to wait ${waitText(waitMs)}. Baton waits at most ${waitText(MODEL_RETRY_WAIT_BUDGET_MS)} for a call, so try again later.`, {
      cause,
    });
  }
}

type WrappableModel = Parameters<typeof wrapLanguageModel>[0]['model'];

/** The same failure, marked so the AI SDK stops retrying it (its text for the person is unchanged). */
function notRetryable(err: APICallError): APICallError {
  return new APICallError({
    message: err.message,
    url: err.url,
    requestBodyValues: err.requestBodyValues,
    statusCode: err.statusCode,
    responseHeaders: err.responseHeaders,
    responseBody: err.responseBody,
    cause: err.cause,
    isRetryable: false,
    data: err.data,
  });
}

export interface RetryReporting {
  /** The readable text of a failure (never the API key). */
  describe: (err: unknown) => string;
  /** Told before each wait: the run streams it as a transient `data-run-retry` chunk. */
  onRetry: (data: RunRetryData) => void;
  /** Which provider the calls go to: its calls share one backoff (provider-backoff.ts). */
  backoffKey: string;
  backoff?: ProviderBackoff;
}

/**
 * The model, keeping each call within the retry budget and telling the person about every
 * wait before it starts — "Rate limited by the provider, retrying in 12 s…" instead of
 * seconds of dots. For a failure the AI SDK will retry (its own rule: a retryable
 * `APICallError` while attempts remain) it reports the attempt and the SDK's wait; a
 * 429, or any failure that names a wait, also holds back the provider's other calls for
 * that long (the shared backoff). A call that gets through after a wait is reported as
 * `recovered`, and the next step's call starts with a fresh budget.
 */
export function withRetryBudget(model: LanguageModel, { describe, onRetry, backoffKey, backoff = providerBackoff }: RetryReporting): LanguageModel {
  let failures = 0;
  let waitedMs = 0;
  let announced: RunRetryData | undefined;
  const reset = () => {
    failures = 0;
    waitedMs = 0;
    announced = undefined;
  };
  const report = (data: RunRetryData) => {
    announced = data;
    onRetry(data);
  };
  return wrapLanguageModel({
    model: model as WrappableModel,
    middleware: {
      wrapStream: async ({ doStream, params }) => {
        // Another call was told to wait: this one waits too (within its own budget) instead of being refused.
        const shared = Math.min(backoff.remainingMs(backoffKey), MODEL_RETRY_WAIT_BUDGET_MS - waitedMs);
        if (shared > 0) {
          if (shared >= 1000)
            report({
              attempt: failures + 1,
              maxAttempts: RATE_LIMITED_MAX_ATTEMPTS,
              message: SHARED_BACKOFF_MESSAGE,
              retryInMs: Math.round(shared),
              rateLimited: true,
            });
          await abortableDelay(shared, params.abortSignal);
          waitedMs += shared;
        }
        try {
          const result = await doStream();
          if (announced) onRetry({ attempt: failures + 1, maxAttempts: announced.maxAttempts, message: '', recovered: true });
          reset();
          return result;
        } catch (err) {
          failures++;
          if (!APICallError.isInstance(err) || !err.isRetryable) {
            reset();
            throw err;
          }
          const asked = askedWaitMs(err.responseHeaders);
          const status = err.statusCode ?? 0;
          const rateLimited = status === 429;
          const maxAttempts = rateLimited ? RATE_LIMITED_MAX_ATTEMPTS : MODEL_MAX_ATTEMPTS;
          const left = MODEL_RETRY_WAIT_BUDGET_MS - waitedMs;
          if (asked !== undefined && (asked >= SDK_HEADER_CAP_MS || asked > left)) {
            reset();
            throw new ProviderAsksToWaitError(asked, status, err);
          }
          const wait = sdkRetryDelayMs(asked, failures);
          if (failures >= maxAttempts || wait > left) {
            reset();
            throw notRetryable(err);
          }
          waitedMs += wait;
          if (rateLimited || asked !== undefined) backoff.block(backoffKey, wait);
          report({ attempt: failures + 1, maxAttempts, message: describe(err), retryInMs: Math.round(wait), ...(rateLimited ? { rateLimited } : {}) });
          throw err;
        }
      },
    },
  });
}
