import fc from 'fast-check';
import { expect } from 'vitest';
import { ErrorCodes } from '../../../src/http/errors.js';

/** The local test user every fuzz request acts as. */
export const fuzzUser = 'alice';

/** Headers of an authenticated request (local-user mode is on in `startTestApp`). */
export const authHeaders: Readonly<Record<string, string>> = { 'x-local-user-id': fuzzUser };

/**
 * Fixed seeds, so a CI failure can be replayed exactly (fast-check prints `seed` and `path`).
 * For a longer local hunt: `FUZZ_SEED=<n> FUZZ_RUNS_FACTOR=<k> npx vitest run test/security/fuzz`.
 */
export function fuzzRuns(seed: number, numRuns = 100): { seed: number; numRuns: number; endOnFailure: true } {
  const override = Number(process.env.FUZZ_SEED);
  const factor = Number(process.env.FUZZ_RUNS_FACTOR);
  return {
    seed: Number.isInteger(override) && process.env.FUZZ_SEED ? (seed ^ override) | 0 : seed,
    numRuns: Number.isFinite(factor) && factor > 0 ? Math.ceil(numRuns * factor) : numRuns,
    endOnFailure: true,
  };
}

export interface InjectedResponse {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
}

/**
 * The invariant every fuzzed request must meet: no 5xx, and every 4xx is the error envelope
 * `{error: {code, message}}` with a code from the closed table whose status is the answer's.
 * Returns the parsed body (or undefined when the answer is not an error).
 */
export function expectSafeAnswer(response: InjectedResponse, request: string): { code: string; message: string } | undefined {
  const context = `${request} -> ${response.statusCode} ${response.body.slice(0, 300)}`;
  expect(response.statusCode, context).toBeLessThan(500);
  if (response.statusCode < 400) return undefined;
  expect(String(response.headers['content-type'] ?? ''), context).toMatch(/^application\/json/);
  let body: unknown;
  try {
    body = JSON.parse(response.body);
  } catch {
    throw new Error(`error body is not JSON: ${context}`);
  }
  const error = (body as { error?: { code?: unknown; message?: unknown } }).error;
  expect(error, context).toBeTypeOf('object');
  expect(Object.keys(ErrorCodes), context).toContain(error!.code);
  expect(error!.message, context).toBeTypeOf('string');
  expect(ErrorCodes[error!.code as keyof typeof ErrorCodes].status, context).toBe(response.statusCode);
  return error as { code: string; message: string };
}

/** Describes a request for assertion messages (bodies shortened). */
export function describeRequest(method: string, url: string, extra: Record<string, unknown> = {}): string {
  return `${method} ${url} ${JSON.stringify(extra, (_key, value: unknown) => (typeof value === 'string' && value.length > 200 ? `${value.slice(0, 200)}…(${value.length})` : value))}`;
}

/** Characters a real HTTP client can put in a header value (visible ASCII, space, tab, obs-text). */
const headerChar = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: 0x20, max: 0x7e }) },
  { weight: 1, arbitrary: fc.constant(0x09) },
  { weight: 1, arbitrary: fc.integer({ min: 0x80, max: 0xff }) },
).map((code) => String.fromCharCode(code));

export const headerValue = (maxLength = 200) => fc.string({ unit: headerChar, minLength: 0, maxLength });

/** Characters legal in a request-target as sent on the wire (unreserved, sub-delims, `%`, `/`, `:`, `@`). */
const urlChar = fc.constantFrom(
  ...'abcdefABCDEF0123456789-._~!$&\'()*+,;=:@%/'.split(''),
);

/** Strings worth putting where an id belongs: unicode, uuid-like, huge, traversal, percent junk. */
export const idLike: fc.Arbitrary<string> = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.uuid(),
  fc.uuid().map((id) => id.toUpperCase()),
  fc.uuid().map((id) => `urn:uuid:${id}`),
  fc.uuid().map((id) => `${id}x`),
  fc.uuid().map((id) => ` ${id} `),
  fc.uuid().map((id) => id.replace(/-/g, '')),
  fc.integer({ min: 200, max: 20_000 }).map((n) => 'a'.repeat(n)),
  fc.constantFrom('..', '../..', '%', '%%', '%2e%2e', '%2F', '%00', '%ZZ', '%c0%af', '\u0000', 'null', 'undefined', '0', '-1', '[]', '{}', '__proto__', 'constructor'),
  fc.string({ unit: urlChar, maxLength: 60 }),
);

/**
 * How an id goes into a path: percent-encoded (what a correct client sends) or raw when it only
 * holds characters that are legal on the wire anyway (so `%`, `/` and `..` reach the router).
 */
export function pathSegment(raw: string, encode: boolean): string {
  if (!encode && /^[A-Za-z0-9\-._~!$&'()*+,;=:@%/]*$/.test(raw)) return raw;
  try {
    return encodeURIComponent(raw);
  } catch {
    // A lone surrogate cannot be UTF-8 encoded; send its code units as escaped bytes instead.
    return [...raw].map((char) => `%${(char.charCodeAt(0) & 0xff).toString(16).padStart(2, '0')}`).join('');
  }
}

/** Percent-encodes a query value (or leaves it raw when legal on the wire), lone surrogates included. */
export function queryValue(raw: string, encode: boolean): string {
  if (!encode && /^[A-Za-z0-9\-._~!$'()*+,;:@%/]*$/.test(raw)) return raw;
  return pathSegment(raw, true);
}

/** Content types worth sending with a body. */
export const contentTypes: fc.Arbitrary<string | undefined> = fc.oneof(
  fc.constantFrom(
    undefined,
    'application/json',
    'application/json; charset=utf-8',
    'application/json; charset=latin1',
    'APPLICATION/JSON',
    'application/json;',
    'application/merge-patch+json',
    'text/plain',
    'text/json',
    'application/x-www-form-urlencoded',
    'multipart/form-data',
    'multipart/form-data; boundary=',
    'multipart/form-data; boundary=xyz',
    'application/octet-stream',
    '',
    ';',
    '*/*',
    'application/',
    '/json',
    'json',
  ),
  headerValue(80),
);
