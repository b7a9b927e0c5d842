import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { generateSigningKey, startOidcProvider, type OidcProvider } from '../../helpers/oidcProvider.js';
import { startTestApp, type TestApp } from '../../helpers/startTestApp.js';
import { bearer, expectAuthInvalid } from './expectAuthInvalid.js';

interface UserBody { id: string; externalUserId: string }

describe('with LOCAL_AUTH=true', () => {
  let testApp: TestApp;
  beforeAll(async () => { testApp = await startTestApp({ LOCAL_AUTH: 'true' }); });
  afterAll(async () => { await testApp.close(); });

  const me = (headers: Record<string, string>) => fetch(`${testApp.baseUrl}/api/users/me`, { headers });

  test('X-Local-User-Id identifies the caller as local:<id>', async () => {
    const response = await me({ 'x-local-user-id': 'alice' });
    expect(response.status).toBe(200);
    expect(((await response.json()) as UserBody).externalUserId).toBe('local:alice');
  });

  test('the same id reaches the same user, another id another user', async () => {
    const first = (await (await me({ 'x-local-user-id': 'bob' })).json()) as UserBody;
    const again = (await (await me({ 'x-local-user-id': 'bob' })).json()) as UserBody;
    const other = (await (await me({ 'x-local-user-id': 'carol' })).json()) as UserBody;
    expect(again.id).toBe(first.id);
    expect(other.id).not.toBe(first.id);
  });

  test.each([
    ['letters, digits and . _ @ -', 'dev.user_01@example-lab'],
    ['128 characters', 'u'.repeat(128)],
  ])('an id of %s is accepted', async (_case, id) => {
    const response = await me({ 'x-local-user-id': id });
    expect(response.status).toBe(200);
    expect(((await response.json()) as UserBody).externalUserId).toBe(`local:${id}`);
  });

  test.each([
    ['empty', ''],
    ['with a space', 'alice smith'],
    ['of 129 characters', 'u'.repeat(129)],
    ['of 200 characters', 'u'.repeat(200)],
    ['with a colon (another namespace)', 'idp:alice'],
    ['with a slash', 'alice/admin'],
    ['with a comma (two ids)', 'alice,bob'],
  ])('an id %s is refused', async (_case, id) => {
    await expectAuthInvalid(await me({ 'x-local-user-id': id }));
  });

  test('two X-Local-User-Id headers are refused', async () => {
    const headers = new Headers();
    headers.append('x-local-user-id', 'alice');
    headers.append('x-local-user-id', 'bob');
    await expectAuthInvalid(await fetch(`${testApp.baseUrl}/api/users/me`, { headers }));
  });

  test('a Bearer token is refused when no identity provider is configured', async () => {
    const provider = await startOidcProvider({ keys: [await generateSigningKey('ES256')] });
    try {
      await expectAuthInvalid(await me(bearer(await provider.signIdToken())));
    } finally {
      await provider.close();
    }
  });
});

describe('with LOCAL_AUTH=false', () => {
  let provider: OidcProvider;
  let testApp: TestApp;
  beforeAll(async () => {
    provider = await startOidcProvider({ keys: [await generateSigningKey('ES256')] });
    testApp = await startTestApp({ ...provider.env('jwksUrl'), LOCAL_AUTH: 'false' });
  });
  afterAll(async () => {
    await testApp.close();
    await provider.close();
  });

  const me = (headers: Record<string, string>) => fetch(`${testApp.baseUrl}/api/users/me`, { headers });

  test('X-Local-User-Id is refused', async () => {
    await expectAuthInvalid(await me({ 'x-local-user-id': 'alice' }));
  });

  test('an identity-provider token still works, and X-Local-User-Id beside it changes nothing', async () => {
    const response = await me({ ...bearer(await provider.signIdToken({ sub: 'idp-user' })), 'x-local-user-id': 'alice' });
    expect(response.status).toBe(200);
    expect(((await response.json()) as UserBody).externalUserId).toBe('idp-user');
  });
});
