import { ApiError } from './api-client';

/**
 * A failed sign-in or sign-up as a sentence for the form: the server's message
 * ("Invalid email or password", "too many attempts: try again in 42 seconds"), or what to
 * do when the server could not be reached.
 */
export function authErrorMessage(err: unknown): string {
  if (!(err instanceof ApiError)) return 'Something went wrong. Try again.';
  if (err.code === 'network_error') return 'Baton could not be reached. Check your connection and try again.';
  const text = err.message.trim() || `The server answered ${err.status}`;
  const sentence = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}
