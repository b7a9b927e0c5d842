import { randomUUID } from 'node:crypto';
import { existsSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, exportSPKI, generateKeyPair, SignJWT, type CryptoKey, type JSONWebKeySet, type JWK, type JWTPayload } from 'jose';

export type SigningAlgorithm = 'RS256' | 'ES256';

/** A key pair of the test identity provider, with its public half as published in the JWKS. */
export interface SigningKey {
  kid: string;
  alg: SigningAlgorithm;
  privateKey: CryptoKey;
  publicJwk: JWK;
  /** The public key as SPKI PEM (what an HMAC key-confusion attacker would use as the secret). */
  publicKeyPem: string;
}

export async function generateSigningKey(alg: SigningAlgorithm, kid = `${alg.toLowerCase()}-${randomUUID()}`): Promise<SigningKey> {
  const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true });
  const publicJwk: JWK = { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' };
  return { kid, alg, privateKey, publicJwk, publicKeyPem: await exportSPKI(publicKey) };
}

/** The JWKS document publishing the public halves of `keys`. */
export function jwksOf(keys: readonly SigningKey[]): JSONWebKeySet {
  return { keys: keys.map((key) => key.publicJwk) };
}

/**
 * Writes a JWKS file and moves its mtime forward past the previous one, so a reader that
 * watches the mtime sees the change even when two writes fall within the same clock tick.
 */
export function writeJwksFile(path: string, keys: readonly SigningKey[]): void {
  const previousMtimeMs = existsSync(path) ? statSync(path).mtimeMs : 0;
  writeFileSync(path, JSON.stringify(jwksOf(keys)));
  const mtime = new Date(Math.max(Date.now(), previousMtimeMs + 1000));
  utimesSync(path, mtime, mtime);
}

export interface IdTokenOptions {
  /** Signs the token (its `kid` goes in the header). Defaults to the provider's first initial key. */
  key?: SigningKey;
  /** Defaults to a fresh random subject. */
  sub?: string;
  email?: string;
  name?: string;
  /** Defaults to the provider's issuer. */
  issuer?: string;
  /** Defaults to the provider's audience. */
  audience?: string | string[];
  /** `exp` relative to now, seconds; negative for an expired token. Defaults to `3600`. */
  expiresInSeconds?: number;
  /** `nbf` relative to now, seconds. Unset: no `nbf` claim. */
  notBeforeInSeconds?: number;
  /** Registered claims to leave out, to build tokens a verifier must refuse. */
  omitClaims?: ('sub' | 'exp')[];
}

export interface OidcProvider {
  /** Base URL of the provider, which is also its `iss`. */
  issuer: string;
  jwksUrl: string;
  /** The `aud` its tokens carry by default (the app's client id). */
  audience: string;
  /** The keys served when the provider started. */
  initialKeys: readonly SigningKey[];
  /** Replaces the served key set (key rotation). */
  serveKeys(keys: readonly SigningKey[]): void;
  /** Makes the JWKS endpoint answer with this HTTP status instead of the keys; `undefined` restores it. */
  failJwksWith(status: number | undefined): void;
  /** The claims of an ID token, as `signIdToken` would sign them. */
  idTokenClaims(options?: IdTokenOptions): JWTPayload;
  signIdToken(options?: IdTokenOptions): Promise<string>;
  /** Service settings that point at this provider through OIDC discovery (`jwksUrl`: through the JWKS URL). */
  env(source?: 'discovery' | 'jwksUrl'): Record<string, string>;
  close(): Promise<void>;
}

export interface OidcProviderOptions {
  /** Keys served at start. Defaults to one freshly generated RS256 key and one ES256 key. */
  keys?: readonly SigningKey[];
  /** Defaults to `callscope-mobile`. */
  audience?: string;
}

/**
 * A real OpenID provider on a loopback port: discovery document, JWKS and ID-token signing.
 * The service under test fetches its keys over HTTP exactly as it would from a real provider.
 */
export async function startOidcProvider(options: OidcProviderOptions = {}): Promise<OidcProvider> {
  const initialKeys = options.keys ?? [await generateSigningKey('RS256'), await generateSigningKey('ES256')];
  const defaultKey = initialKeys[0];
  if (!defaultKey) throw new Error('an OIDC provider needs at least one key');
  const audience = options.audience ?? 'callscope-mobile';
  let servedKeys = initialKeys;
  let jwksFailureStatus: number | undefined;
  let issuer = '';

  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', issuer).pathname;
    const sendJson = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    if (path === '/.well-known/openid-configuration') {
      sendJson(200, { issuer, jwks_uri: `${issuer}/jwks`, id_token_signing_alg_values_supported: ['RS256', 'ES256'] });
    } else if (path === '/jwks') {
      if (jwksFailureStatus !== undefined) sendJson(jwksFailureStatus, { error: 'unavailable' });
      else sendJson(200, jwksOf(servedKeys));
    } else {
      sendJson(404, { error: 'not_found' });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const idTokenClaims = (tokenOptions: IdTokenOptions = {}): JWTPayload => {
    const now = Math.floor(Date.now() / 1000);
    const omitted = new Set(tokenOptions.omitClaims ?? []);
    return {
      iss: tokenOptions.issuer ?? issuer,
      aud: tokenOptions.audience ?? audience,
      ...(omitted.has('sub') ? {} : { sub: tokenOptions.sub ?? `user-${randomUUID()}` }),
      ...(tokenOptions.email !== undefined ? { email: tokenOptions.email } : {}),
      ...(tokenOptions.name !== undefined ? { name: tokenOptions.name } : {}),
      iat: now,
      ...(omitted.has('exp') ? {} : { exp: now + (tokenOptions.expiresInSeconds ?? 3600) }),
      ...(tokenOptions.notBeforeInSeconds !== undefined ? { nbf: now + tokenOptions.notBeforeInSeconds } : {}),
    };
  };

  return {
    issuer,
    jwksUrl: `${issuer}/jwks`,
    audience,
    initialKeys,
    serveKeys: (keys) => { servedKeys = keys; },
    failJwksWith: (status) => { jwksFailureStatus = status; },
    idTokenClaims,
    signIdToken: async (tokenOptions = {}) => {
      const key = tokenOptions.key ?? defaultKey;
      return new SignJWT(idTokenClaims(tokenOptions))
        .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'JWT' })
        .sign(key.privateKey);
    },
    env: (source = 'discovery') => ({
      OIDC_ISSUER: issuer,
      OIDC_AUDIENCE: audience,
      ...(source === 'jwksUrl' ? { OIDC_JWKS_URL: `${issuer}/jwks` } : {}),
      // An unknown kid refetches the keys at once instead of after the 30 s production cooldown.
      OIDC_JWKS_COOLDOWN_MS: '0',
    }),
    close: () => new Promise<void>((resolve, reject) => {
      server.closeAllConnections();
      server.close((error) => (error ? reject(error) : resolve()));
    }),
  };
}
