import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config/loadConfig.js';
import { createCredentialAudit, type CredentialAudit } from '../../helpers/credentialAudit.js';
import { startOidcProvider, type OidcProvider } from '../../helpers/oidcProvider.js';
import { startTestApp, type TestApp } from '../../helpers/startTestApp.js';
import { bearer, expectAuthInvalid } from './expectAuthInvalid.js';

const apiKey = 'k3y-for-the-mobile-client-0123456789';

let provider: OidcProvider;
let testApp: TestApp;
let client: CredentialAudit;

beforeAll(async () => {
  provider = await startOidcProvider();
  testApp = await startTestApp({ ...provider.env('jwksUrl'), API_KEY: apiKey });
  client = createCredentialAudit(testApp.baseUrl);
});

afterAll(async () => {
  await testApp.close();
  await provider.close();
});

describe('with API_KEY configured', () => {
  test('GET /api/health stays public', async () => {
    expect((await client.fetch('/api/health')).status).toBe(200);
  });

  test('a valid identity with the right key is served', async () => {
    const token = await provider.signIdToken({ sub: 'keyed-user' });
    const response = await client.fetch('/api/users/me', { ...bearer(token), 'x-api-key': apiKey });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ externalUserId: 'keyed-user' });
  });

  test('a local user with the right key is served', async () => {
    client.remember(apiKey);
    expect((await testApp.as('keyed-local-user')('/api/users/me')).status).toBe(200);
  });

  test.each([
    ['missing', {}],
    ['wrong', { 'x-api-key': 'not-the-key-but-just-as-long-as-it' }],
    ['the right key with a character more', { 'x-api-key': `${apiKey}x` }],
    ['the right key in other letter case', { 'x-api-key': apiKey.toUpperCase() }],
    ['empty', { 'x-api-key': '' }],
  ])('a valid identity token with the key %s is refused', async (_case, keyHeader: Record<string, string>) => {
    const token = await provider.signIdToken();
    await expectAuthInvalid(await client.fetch('/api/users/me', { ...bearer(token), ...keyHeader }));
  });

  test('a local user without the key is refused', async () => {
    await expectAuthInvalid(await client.fetch('/api/users/me', { 'x-local-user-id': 'alice' }));
  });

  test('the key alone is not an identity', async () => {
    await expectAuthInvalid(await client.fetch('/api/users/me', { 'x-api-key': apiKey }));
  });

  test('the key sent as a Bearer token instead of X-API-Key is refused', async () => {
    await expectAuthInvalid(await client.fetch('/api/users/me', { ...bearer(apiKey), 'x-local-user-id': 'alice' }));
  });

  const someId = '0b9cbd5e-7f2f-4c39-9a0e-4b0d1f2b8d11';
  test.each([
    ['GET', '/api/users/me/stats'],
    ['PATCH', '/api/users/me'],
    ['DELETE', '/api/users/me'],
    ['POST', '/api/calls/analyze'],
    ['GET', '/api/calls'],
    ['GET', `/api/calls/status?ids=${someId}`],
    ['GET', `/api/calls/${someId}`],
    ['GET', `/api/calls/${someId}/transcript`],
    ['GET', `/api/calls/${someId}/analysis`],
    ['DELETE', `/api/calls/${someId}`],
    ['DELETE', '/api/calls'],
    ['GET', '/api/actions'],
    ['PATCH', `/api/actions/${someId}`],
  ])('%s %s with a valid identity but without the key is refused', async (method, path) => {
    const token = await provider.signIdToken();
    await expectAuthInvalid(await client.fetch(path, bearer(token), { method }));
  });
});

test('an API key shorter than 16 characters is refused at start-up', () => {
  expect(() => loadConfig({ LOCAL_AUTH: 'true', API_KEY: 'too-short-key' })).toThrow(ConfigError);
});

// Runs last: audits every request made above.
test('neither the API key nor any token appears in any log line', () => {
  expect(testApp.logLines.length).toBeGreaterThan(0);
  expect(client.leaksIn(testApp.logLines)).toEqual([]);
});
