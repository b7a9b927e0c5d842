import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SignJWT, base64url } from 'jose';
import { maxTokenLength } from '../../../src/http/auth/TokenVerifier.js';
import { createCredentialAudit, type CredentialAudit } from '../../helpers/credentialAudit.js';
import { generateSigningKey, startOidcProvider, type OidcProvider, type SigningKey } from '../../helpers/oidcProvider.js';
import { startTestApp, type TestApp } from '../../helpers/startTestApp.js';
import { bearer, expectAuthInvalid } from './expectAuthInvalid.js';

interface UserBody { id: string; externalUserId: string; email?: string; displayName?: string }

/** A compact JWS with the given header and payload and an empty signature, as an attacker would write it. */
function unsignedToken(header: Record<string, unknown>, payload: Record<string, unknown>): string {
  const encode = (part: Record<string, unknown>) => base64url.encode(JSON.stringify(part));
  return `${encode(header)}.${encode(payload)}.`;
}

let provider: OidcProvider;
let rsaKey: SigningKey;
let ecKey: SigningKey;
let testApp: TestApp;
let client: CredentialAudit;

beforeAll(async () => {
  rsaKey = await generateSigningKey('RS256');
  ecKey = await generateSigningKey('ES256');
  provider = await startOidcProvider({ keys: [rsaKey, ecKey] });
  // Discovery only: the service finds the JWKS through the issuer's OpenID configuration.
  testApp = await startTestApp(provider.env('discovery'));
  client = createCredentialAudit(testApp.baseUrl);
});

afterAll(async () => {
  await testApp.close();
  await provider.close();
});

const me = (headers: Record<string, string>) => client.fetch('/api/users/me', headers);

describe('a valid ID token', () => {
  test.each(['RS256', 'ES256'] as const)('signed with %s identifies the caller', async (alg) => {
    const token = await provider.signIdToken({ key: alg === 'RS256' ? rsaKey : ecKey, sub: `subject-${alg}` });
    const response = await me(bearer(token));
    expect(response.status).toBe(200);
    expect(((await response.json()) as UserBody).externalUserId).toBe(`subject-${alg}`);
  });

  test('creates the user on first use from the sub, email and name claims', async () => {
    const token = await provider.signIdToken({ sub: 'idp|first-use', email: 'ada@example.org', name: 'Ada Lovelace' });
    const response = await me(bearer(token));
    expect(response.status).toBe(200);
    const user = (await response.json()) as UserBody;
    expect(user).toMatchObject({ externalUserId: 'idp|first-use', email: 'ada@example.org', displayName: 'Ada Lovelace' });
    expect((await testApp.services.users.findById(user.id))?.externalUserId).toBe('idp|first-use');
  });

  test('a second token of the same subject reaches the same user', async () => {
    const first = (await (await me(bearer(await provider.signIdToken({ sub: 'idp|returning', key: rsaKey })))).json()) as UserBody;
    const second = await me(bearer(await provider.signIdToken({ sub: 'idp|returning', key: ecKey })));
    expect(second.status).toBe(200);
    expect(((await second.json()) as UserBody).id).toBe(first.id);
  });

  test('is accepted with a lower-case scheme and extra spaces after Bearer', async () => {
    const token = await provider.signIdToken();
    expect((await me({ authorization: `bearer   ${token}` })).status).toBe(200);
  });

  test('expired by less than the 30 s clock tolerance is still accepted', async () => {
    const token = await provider.signIdToken({ expiresInSeconds: -10 });
    expect((await me(bearer(token))).status).toBe(200);
  });

  test('whose nbf is less than the clock tolerance ahead is accepted', async () => {
    const token = await provider.signIdToken({ notBeforeInSeconds: 10 });
    expect((await me(bearer(token))).status).toBe(200);
  });

  test(`just under ${maxTokenLength} characters is accepted`, async () => {
    // Base64url makes the claims 4/3 as long; the header and signature add about 450 characters.
    const token = await provider.signIdToken({ name: 'n'.repeat(Math.floor(maxTokenLength * 0.65)) });
    expect(token.length).toBeGreaterThan(maxTokenLength - 500);
    expect(token.length).toBeLessThanOrEqual(maxTokenLength);
    expect((await me(bearer(token))).status).toBe(200);
  });
});

describe('refused with 401 auth_invalid', () => {
  test('no credentials at all', async () => {
    await expectAuthInvalid(await me({}));
  });

  test.each([
    ['another scheme', 'Basic dXNlcjpwYXNzd29yZA=='],
    ['the scheme alone', 'Bearer'],
    ['the scheme with an empty token', 'Bearer '],
    ['a token without a scheme', 'eyJhbGciOiJSUzI1NiJ9.e30.c2lnbmF0dXJl'],
    ['two tokens', 'Bearer eyJhbGciOiJSUzI1NiJ9.e30.c2ln eyJhbGciOiJSUzI1NiJ9.e30.c2ln'],
  ])('an Authorization header with %s', async (_case, authorization) => {
    await expectAuthInvalid(await me({ authorization }));
  });

  test('a token that is not a JWT', async () => {
    await expectAuthInvalid(await me(bearer('not-a-jwt-at-all-but-long-enough')));
  });

  test('a token from another issuer', async () => {
    await expectAuthInvalid(await me(bearer(await provider.signIdToken({ issuer: 'https://idp.example.net' }))));
  });

  test('a token for another audience', async () => {
    await expectAuthInvalid(await me(bearer(await provider.signIdToken({ audience: 'some-other-client' }))));
  });

  test('a token expired for longer than the clock tolerance', async () => {
    await expectAuthInvalid(await me(bearer(await provider.signIdToken({ expiresInSeconds: -60 }))));
  });

  test('a token not valid before a time beyond the clock tolerance', async () => {
    await expectAuthInvalid(await me(bearer(await provider.signIdToken({ notBeforeInSeconds: 120 }))));
  });

  test('a token without sub', async () => {
    await expectAuthInvalid(await me(bearer(await provider.signIdToken({ omitClaims: ['sub'] }))));
  });

  test.each([['empty', ''], ['longer than 255 characters', 's'.repeat(256)]])('a token whose sub is %s', async (_case, sub) => {
    await expectAuthInvalid(await me(bearer(await provider.signIdToken({ sub }))));
  });

  test('a token whose sub uses the local: prefix reserved for local-user mode', async () => {
    await expectAuthInvalid(await me(bearer(await provider.signIdToken({ sub: 'local:alice' }))));
  });

  test('a token without exp', async () => {
    await expectAuthInvalid(await me(bearer(await provider.signIdToken({ omitClaims: ['exp'] }))));
  });

  test('an unsigned token (alg none)', async () => {
    const token = unsignedToken({ alg: 'none', typ: 'JWT' }, provider.idTokenClaims({ sub: 'forged-none' }));
    await expectAuthInvalid(await me(bearer(token)));
  });

  test('an HS256 token whose HMAC secret is the provider\'s public RSA key (key confusion)', async () => {
    const token = await new SignJWT(provider.idTokenClaims({ sub: 'forged-hmac' }))
      .setProtectedHeader({ alg: 'HS256', kid: rsaKey.kid, typ: 'JWT' })
      .sign(new TextEncoder().encode(rsaKey.publicKeyPem));
    await expectAuthInvalid(await me(bearer(token)));
  });

  test('a token signed with a key the provider does not publish (unknown kid)', async () => {
    const strangerKey = await generateSigningKey('RS256');
    await expectAuthInvalid(await me(bearer(await provider.signIdToken({ key: strangerKey }))));
  });

  test('a token whose payload was altered after signing', async () => {
    const [header, , signature] = (await provider.signIdToken({ sub: 'victim' })).split('.');
    const forgedPayload = base64url.encode(JSON.stringify(provider.idTokenClaims({ sub: 'attacker' })));
    await expectAuthInvalid(await me(bearer(`${header}.${forgedPayload}.${signature}`)));
  });

  test('a token with one character of its signature changed', async () => {
    const token = await provider.signIdToken();
    const position = token.lastIndexOf('.') + 10;
    const flipped = token[position] === 'A' ? 'B' : 'A';
    await expectAuthInvalid(await me(bearer(`${token.slice(0, position)}${flipped}${token.slice(position + 1)}`)));
  });

  test(`a validly signed token longer than ${maxTokenLength} characters`, async () => {
    const token = await provider.signIdToken({ name: 'n'.repeat(maxTokenLength) });
    expect(token.length).toBeGreaterThan(maxTokenLength);
    await expectAuthInvalid(await me(bearer(token)));
  });

  test('an invalid token even when X-Local-User-Id is sent as well', async () => {
    const token = await provider.signIdToken({ audience: 'some-other-client' });
    await expectAuthInvalid(await me({ ...bearer(token), 'x-local-user-id': 'alice' }));
  });
});

test('the clock tolerance follows OIDC_CLOCK_TOLERANCE_SECONDS', async () => {
  const strictApp = await startTestApp({ ...provider.env('jwksUrl'), OIDC_CLOCK_TOLERANCE_SECONDS: '0' });
  try {
    const expiredSecondsAgo = await provider.signIdToken({ expiresInSeconds: -10 });
    await expectAuthInvalid(await fetch(`${strictApp.baseUrl}/api/users/me`, { headers: bearer(expiredSecondsAgo) }));
  } finally {
    await strictApp.close();
  }
});

// Runs last: audits every request made above.
test('no token or Authorization header value appears in any log line', () => {
  expect(testApp.logLines.length).toBeGreaterThan(0);
  expect(client.leaksIn(testApp.logLines)).toEqual([]);
});
