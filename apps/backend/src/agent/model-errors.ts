import { APICallError, RetryError } from 'ai';

/** A message a person can act on, for any failure while talking to a model provider. */
export function describeModelError(error: unknown): string {
  if (RetryError.isInstance(error)) return describeModelError(error.lastError);
  if (APICallError.isInstance(error) && (error.statusCode ?? 200) < 400 && error.cause) {
    // "Failed to process successful response": the body broke off after a good start.
    return describeModelError(error.cause);
  }
  if (APICallError.isInstance(error)) {
    const status = error.statusCode ? ` (HTTP ${error.statusCode})` : '';
    const detail = extractProviderMessage(error.responseBody) ?? error.message;
    if (error.statusCode === 401 || error.statusCode === 403) {
      return `The model provider rejected the API key${status}: ${detail}`;
    }
    return `The model provider returned an error${status}: ${detail}`;
  }
  const message = error instanceof Error ? error.message : String(error);
  if (/terminated|socket|ECONNRESET|closed|aborted|network|fetch failed/i.test(message)) {
    return `The connection to the model provider was lost mid-answer (${message}). What arrived so far is kept; try again.`;
  }
  return `The model call failed: ${message}`;
}

function extractProviderMessage(body: string | undefined): string | undefined {
  if (!body) return undefined;
  try {
    const parsed = JSON.parse(body) as { error?: { message?: string } };
    return parsed.error?.message;
  } catch {
    return body.slice(0, 300);
  }
}
