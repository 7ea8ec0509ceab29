import type { RunRetryData } from '@baton/schemas';
import { APICallError, wrapLanguageModel, type LanguageModel } from 'ai';

/** How often the AI SDK calls a failing provider again (with backoff: 2 s, then 4 s) before the answer fails. */
export const MODEL_MAX_RETRIES = 2;

type WrappableModel = Parameters<typeof wrapLanguageModel>[0]['model'];

/**
 * The model, reporting each failed call that the AI SDK will try again, before the backoff
 * wait: the person then reads "retrying (2/3)" instead of watching seconds of dots. It
 * mirrors the SDK's own rule: an APICallError it marks retryable, while attempts remain.
 * Consecutive failures count up; a call that gets through after failures is reported as
 * `recovered` and starts the count again (the next step's call is a first attempt).
 */
export function reportingRetries(model: LanguageModel, describe: (err: unknown) => string, onRetry: (data: RunRetryData) => void): LanguageModel {
  let failures = 0;
  return wrapLanguageModel({
    model: model as WrappableModel,
    middleware: {
      wrapStream: async ({ doStream }) => {
        try {
          const result = await doStream();
          if (failures > 0) onRetry({ attempt: failures + 1, maxAttempts: MODEL_MAX_RETRIES + 1, message: '', recovered: true });
          failures = 0;
          return result;
        } catch (err) {
          failures++;
          if (APICallError.isInstance(err) && err.isRetryable && failures <= MODEL_MAX_RETRIES) {
            onRetry({ attempt: failures + 1, maxAttempts: MODEL_MAX_RETRIES + 1, message: describe(err) });
          } else failures = 0;
          throw err;
        }
      },
    },
  });
}
