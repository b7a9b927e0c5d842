import { expect } from 'vitest';
import { errorEnvelope } from '../../../src/http/errors.js';

/**
 * Asserts the one answer every refused credential gets: 401 with the generic `auth_invalid`
 * envelope, so a client can never tell which check failed.
 */
export async function expectAuthInvalid(response: Response): Promise<void> {
  expect(response.status).toBe(401);
  expect(await response.json()).toEqual(errorEnvelope('auth_invalid'));
}

/** The headers of a request carrying `token` as a Bearer ID token. */
export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}
