import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { errorEnvelope } from '../../../src/http/errors.js';
import { createCredentialAudit, type CredentialAudit } from '../../helpers/credentialAudit.js';
import { generateSigningKey, startOidcProvider, writeJwksFile, type OidcProvider, type SigningKey } from '../../helpers/oidcProvider.js';
import { startTestApp, type TestApp } from '../../helpers/startTestApp.js';
import { bearer, expectAuthInvalid } from './expectAuthInvalid.js';

/** A loopback port nothing listens on: bound once to get a free number, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return address.port;
}

/** Where the service reads the provider's keys from, and how the provider publishes a new set there. */
interface KeySource {
  name: string;
  env(provider: OidcProvider, folder: string): Record<string, string>;
  publish(provider: OidcProvider, folder: string, keys: readonly SigningKey[]): void;
}

const jwksFileName = 'jwks.json';

const keySources: KeySource[] = [
  {
    name: 'OIDC discovery (OIDC_ISSUER only)',
    env: (provider) => provider.env('discovery'),
    publish: (provider, _folder, keys) => provider.serveKeys(keys),
  },
  {
    name: 'an explicit OIDC_JWKS_URL',
    env: (provider) => provider.env('jwksUrl'),
    publish: (provider, _folder, keys) => provider.serveKeys(keys),
  },
  {
    name: 'a local OIDC_JWKS_FILE',
    env: (provider, folder) => ({ OIDC_ISSUER: provider.issuer, OIDC_AUDIENCE: provider.audience, OIDC_JWKS_FILE: join(folder, jwksFileName) }),
    publish: (_provider, folder, keys) => writeJwksFile(join(folder, jwksFileName), keys),
  },
];

describe.each(keySources)('keys from $name', (source) => {
  let keyA: SigningKey;
  let keyB: SigningKey;
  let provider: OidcProvider;
  let folder: string;
  let testApp: TestApp;
  let client: CredentialAudit;

  beforeAll(async () => {
    [keyA, keyB] = await Promise.all([generateSigningKey('RS256'), generateSigningKey('ES256')]);
    provider = await startOidcProvider({ keys: [keyA] });
    folder = mkdtempSync(join(tmpdir(), 'callscope-jwks-'));
    source.publish(provider, folder, [keyA]);
    testApp = await startTestApp(source.env(provider, folder));
    client = createCredentialAudit(testApp.baseUrl);
  });

  afterAll(async () => {
    await testApp.close();
    await provider.close();
    rmSync(folder, { recursive: true, force: true });
  });

  const me = async (token: string) => client.fetch('/api/users/me', bearer(token));

  test('follow a key rotation: new keys are picked up, removed keys stop working', async () => {
    expect((await me(await provider.signIdToken({ key: keyA }))).status).toBe(200);

    // The provider publishes B next to A; tokens signed with A keep working meanwhile.
    source.publish(provider, folder, [keyA, keyB]);
    expect((await me(await provider.signIdToken({ key: keyA }))).status).toBe(200);

    // A is retired; the first token naming B's kid makes the service fetch the new set.
    source.publish(provider, folder, [keyB]);
    expect((await me(await provider.signIdToken({ key: keyB }))).status).toBe(200);
    // A freshly signed token, so no earlier verification of the same token string can answer.
    await expectAuthInvalid(await me(await provider.signIdToken({ key: keyA })));
  });

  test('stop accepting a removed key within a minute, even when no token names an unknown key', async () => {
    source.publish(provider, folder, [keyA, keyB]);
    expect((await me(await provider.signIdToken({ key: keyA }))).status).toBe(200);
    expect((await me(await provider.signIdToken({ key: keyB }))).status).toBe(200);

    // A is withdrawn (say it leaked) while B, already known to the service, keeps signing.
    source.publish(provider, folder, [keyB]);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 61_000);
      expect((await me(await provider.signIdToken({ key: keyB }))).status).toBe(200);
      await expectAuthInvalid(await me(await provider.signIdToken({ key: keyA })));
    } finally {
      vi.useRealTimers();
    }
  });

  test('write none of the tokens to the log', () => {
    expect(client.leaksIn(testApp.logLines)).toEqual([]);
  });
});

describe('an unreachable identity provider', () => {
  let provider: OidcProvider;
  beforeAll(async () => { provider = await startOidcProvider(); });
  afterAll(async () => { await provider.close(); });

  const expectServiceUnavailable = async (response: Response) => {
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ error: { code: 'service_unavailable', message: expect.any(String) } });
  };

  test('gives 503 service_unavailable, not 401, when the JWKS URL refuses connections', async () => {
    const testApp = await startTestApp({ ...provider.env('discovery'), OIDC_JWKS_URL: `http://127.0.0.1:${await closedPort()}/jwks` });
    try {
      const client = createCredentialAudit(testApp.baseUrl);
      await expectServiceUnavailable(await client.fetch('/api/users/me', bearer(await provider.signIdToken())));
      expect(client.leaksIn(testApp.logLines)).toEqual([]);
    } finally {
      await testApp.close();
    }
  });

  test('still answers 401 to a token that is not a JWS at all: that is the client\'s fault', async () => {
    const testApp = await startTestApp({ ...provider.env('discovery'), OIDC_JWKS_URL: `http://127.0.0.1:${await closedPort()}/jwks` });
    try {
      const response = await fetch(`${testApp.baseUrl}/api/users/me`, { headers: bearer('not-a-jwt') });
      expect(response.status).toBe(401);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('auth_invalid');
    } finally {
      await testApp.close();
    }
  });

  test('gives 503 service_unavailable when OIDC discovery cannot reach the issuer', async () => {
    const unreachableIssuer = `http://127.0.0.1:${await closedPort()}`;
    const testApp = await startTestApp({ OIDC_ISSUER: unreachableIssuer, OIDC_AUDIENCE: provider.audience });
    try {
      const client = createCredentialAudit(testApp.baseUrl);
      await expectServiceUnavailable(await client.fetch('/api/users/me', bearer(await provider.signIdToken({ issuer: unreachableIssuer }))));
      expect(client.leaksIn(testApp.logLines)).toEqual([]);
    } finally {
      await testApp.close();
    }
  });

  test('gives 503 while the JWKS endpoint answers with a server error, and recovers once it serves keys again', async () => {
    const testApp = await startTestApp(provider.env('jwksUrl'));
    try {
      const client = createCredentialAudit(testApp.baseUrl);
      const me = async () => client.fetch('/api/users/me', bearer(await provider.signIdToken()));
      provider.failJwksWith(500);
      const duringOutage = await me();
      expect(duringOutage.status).toBe(503);
      expect(await duringOutage.json()).toEqual(errorEnvelope('service_unavailable', 'The identity provider could not be reached'));
      provider.failJwksWith(undefined);
      expect((await me()).status).toBe(200);
      expect(client.leaksIn(testApp.logLines)).toEqual([]);
    } finally {
      provider.failJwksWith(undefined);
      await testApp.close();
    }
  });
});
