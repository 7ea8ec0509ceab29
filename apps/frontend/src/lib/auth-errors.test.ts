import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client';
import { authErrorMessage } from './auth-errors';

describe('sign-in and sign-up errors as the form shows them', () => {
  it('shows the server message as a sentence', () => {
    expect(authErrorMessage(new ApiError(401, 'invalid_email_or_password', 'Invalid email or password'))).toBe('Invalid email or password.');
    expect(authErrorMessage(new ApiError(429, 'too_many_requests', 'too many attempts: try again in 42 seconds'))).toBe(
      'Too many attempts: try again in 42 seconds.',
    );
    expect(authErrorMessage(new ApiError(422, 'user_already_exists', 'User already exists. Use another email.'))).toBe(
      'User already exists. Use another email.',
    );
  });

  it('says what to do when the server cannot be reached', () => {
    expect(authErrorMessage(new ApiError(0, 'network_error', 'the server could not be reached (Failed to fetch)'))).toMatch(/could not be reached/);
    expect(authErrorMessage(new Error('boom'))).toBe('Something went wrong. Try again.');
  });
});
