/**
 * A request error as a sentence. The AI SDK transport reports a failed HTTP request with
 * the response body as the message, which for Baton is `{ error: { code, message } }`;
 * errors inside the stream already arrive as readable text.
 */
export function readableChatError(error: Error): string {
  const text = error.message.trim();
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } };
    if (typeof body.error?.message === 'string') return body.error.message;
  } catch {
    // not JSON: already a sentence
  }
  if (/failed to fetch|networkerror|load failed/i.test(text)) return 'The server could not be reached. Check your connection.';
  return text || 'Something went wrong.';
}
