/**
 * A chat request's error as a sentence. The AI SDK transport puts the response body in
 * the message, which for Baton is `{ error: { code, message } }` JSON.
 */
export function readableChatError(error: Error): string {
  try {
    const body = JSON.parse(error.message) as { error?: { message?: unknown } };
    if (typeof body.error?.message === 'string') return body.error.message;
  } catch {
    // Not JSON: a network failure or a plain-text body.
  }
  return error.message || 'unknown error';
}
