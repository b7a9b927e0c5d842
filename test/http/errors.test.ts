import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ApiError, ErrorCodes, errorEnvelope, type ErrorCode } from '../../src/http/errors.js';
import { startTestApp, type TestApp } from '../helpers/startTestApp.js';
import { specErrorCodes } from '../helpers/specErrorCodes.js';


describe('the error-code table', () => {
  const entries = Object.entries(ErrorCodes) as [ErrorCode, (typeof ErrorCodes)[ErrorCode]][];

  test('every key is a snake_case code and an ApiError built from it carries that key as its code', () => {
    for (const [key, entry] of entries) {
      expect(key).toMatch(/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/);
      const error = new ApiError(key);
      expect(error.code).toBe(key);
      expect(error.statusCode).toBe(entry.status);
      expect(errorEnvelope(key).error.code).toBe(key);
    }
  });

  test('every status is a 4xx or 5xx and every default message is short and non-empty', () => {
    for (const [, entry] of entries) {
      expect(Number.isInteger(entry.status)).toBe(true);
      expect(entry.status).toBeGreaterThanOrEqual(400);
      expect(entry.status).toBeLessThan(600);
      expect(entry.message.length).toBeGreaterThan(0);
      expect(entry.message.length).toBeLessThanOrEqual(120);
    }
  });

  test('codes are unique, also ignoring case', () => {
    const keys = entries.map(([key]) => key.toLowerCase());
    expect(new Set(keys).size).toBe(keys.length);
  });

  test('the codes of the interface specification are present with their specified status', () => {
    for (const [code, status] of Object.entries(specErrorCodes)) {
      expect(ErrorCodes).toHaveProperty(code);
      expect(ErrorCodes[code as ErrorCode].status).toBe(status);
    }
  });
});

describe('error responses over HTTP', () => {
  let testApp: TestApp;
  beforeAll(async () => { testApp = await startTestApp(); });
  afterAll(async () => { await testApp.close(); });

  interface Envelope {
    error: { code: string; message: string; details?: Record<string, unknown> };
  }

  /** Checks the response is the envelope with `code` and the code's status, and returns it. */
  async function expectEnvelope(response: Response, code: ErrorCode): Promise<Envelope> {
    expect(response.status).toBe(ErrorCodes[code].status);
    expect(response.status).toBeLessThan(500);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await response.json()) as Envelope;
    expect(Object.keys(body)).toEqual(['error']);
    expect(body.error.code).toBe(code);
    expect(typeof body.error.message).toBe('string');
    expect(body.error.message.length).toBeGreaterThan(0);
    for (const key of Object.keys(body.error)) expect(['code', 'message', 'details']).toContain(key);
    if (body.error.details !== undefined) expect(typeof body.error.details).toBe('object');
    return body;
  }

  const patchJson = (body: string, contentType = 'application/json') =>
    testApp.as('alice')('/api/users/me', { method: 'PATCH', headers: { 'content-type': contentType }, body });

  test('an unknown route answers 404 route_not_found', async () => {
    await expectEnvelope(await testApp.as('alice')('/api/no-such-thing'), 'route_not_found');
    await expectEnvelope(await fetch(`${testApp.baseUrl}/nowhere`), 'route_not_found');
  });

  test('a wrong method on an existing path answers 404 route_not_found, never 500', async () => {
    await expectEnvelope(await testApp.as('alice')('/api/users/me', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{}' }), 'route_not_found');
    await expectEnvelope(await testApp.as('alice')('/api/actions', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }), 'route_not_found');
  });

  test('a malformed JSON body answers 400 validation_failed', async () => {
    await expectEnvelope(await patchJson('{"displayName": '), 'validation_failed');
  });

  test('a JSON body sent as text/plain answers 415 unsupported_content_type', async () => {
    await expectEnvelope(await patchJson(JSON.stringify({ displayName: 'Alice' }), 'text/plain'), 'unsupported_content_type');
  });

  test('a JSON body over 1 MB answers 413 payload_too_large', async () => {
    const body = JSON.stringify({ displayName: 'x'.repeat(1024 * 1024 + 10) });
    await expectEnvelope(await patchJson(body), 'payload_too_large');
  });

  test('a schema violation answers 400 validation_failed with the offending fields in details', async () => {
    for (const invalid of [{ displayName: { first: 'Alice' } }, {}]) {
      const body = await expectEnvelope(await patchJson(JSON.stringify(invalid)), 'validation_failed');
      const fields = body.error.details?.fields as { path: string; message: string }[];
      expect(Array.isArray(fields)).toBe(true);
      expect(fields.length).toBeGreaterThan(0);
      expect(fields.some((field) => field.path.endsWith('/displayName'))).toBe(true);
      for (const field of fields) expect(typeof field.message).toBe('string');
    }
  });

  test('an unaccepted extra field is named in details.fields', async () => {
    const body = await expectEnvelope(await patchJson(JSON.stringify({ displayName: 'Alice', role: 'admin' })), 'validation_failed');
    const fields = body.error.details?.fields as { path: string }[];
    expect(fields.some((field) => field.path.endsWith('/role'))).toBe(true);
  });
});

describe('a server-side fault', () => {
  let testApp: TestApp;
  beforeAll(async () => { testApp = await startTestApp(); });
  afterAll(async () => { await testApp.close(); });

  test('is a 500 internal_error in the envelope, revealing no path, and logged as an error', async () => {
    const { seedCall } = await import('../helpers/seedCalls.js');
    const { rm } = await import('node:fs/promises');
    const callId = await seedCall(testApp.services, 'alice');
    // The stored transcript vanishes from disk behind the database's back.
    await rm(testApp.services.store.pathOf(`calls/${callId}/transcript.json`));
    const response = await testApp.as('alice')(`/api/calls/${callId}/transcript`);
    expect(response.status).toBe(500);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body).toEqual({ error: { code: 'internal_error', message: 'Internal server error' } });
    expect(testApp.logLines.some((line) => line.level === 50 && line.msg === 'request failed')).toBe(true);
  });
});
