import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import {
  createLocalJWKSet,
  decodeProtectedHeader,
  createRemoteJWKSet,
  errors as joseErrors,
  jwtVerify,
  type JSONWebKeySet,
  type JWTVerifyGetKey,
} from 'jose';
import type { Config } from '../../config/configSchema.js';
import type { Identity } from '../../domain/users/UserRepository.js';

/** Prefix of the `externalUserId` of local-user mode users; reserved, never a provider subject. */
export const localSubjectPrefix = 'local:';

/** Tokens longer than this are refused unparsed (a real ID token is 1-2 KB). */
export const maxTokenLength = 8192;

/** How long a verified token is remembered, at most. */
const verifiedTokenCacheMs = 60_000;
/** How long a loaded key set is trusted before it is fetched (or the file checked) again: a key removed from the JWKS stops verifying new tokens within this time. */
const keySetMaxAgeMs = 60_000;
const verifiedTokenCacheSize = 10_000;

/** The token itself is not acceptable: the client's fault, answered with 401. */
export class TokenRejected extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'TokenRejected';
  }
}

/** The provider's keys could not be had (network, timeout, bad discovery): answered with 503. */
export class IdentityProviderUnavailable extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'IdentityProviderUnavailable';
  }
}

/**
 * Verifies identity-provider ID tokens with jose: signature against the provider's keys
 * (OIDC discovery, an explicit JWKS URL, or a local JWKS file), `iss`, `aud`, `exp`/`nbf` with a
 * small clock tolerance, and an allow-list of asymmetric algorithms (so neither `none` nor an
 * HMAC signed with a public key can pass).
 */
export class TokenVerifier {
  private keySet?: Promise<JWTVerifyGetKey>;
  private readonly algorithms: string[];
  // Map iteration order is insertion order, which makes the oldest entry cheap to evict.
  private readonly verified = new Map<string, { identity: Identity; validUntil: number }>();

  constructor(private readonly config: Config & { OIDC_ISSUER: string; OIDC_AUDIENCE: string }) {
    this.algorithms = config.OIDC_ALGORITHMS.split(',');
  }

  async verify(token: string, now = Date.now()): Promise<Identity> {
    if (token.length > maxTokenLength) throw new TokenRejected('token too long');
    // A token that is not even a JWS is the client's fault, whatever state the provider is in.
    try {
      decodeProtectedHeader(token);
    } catch {
      throw new TokenRejected('token malformed');
    }
    const cacheKey = createHash('sha256').update(token).digest('base64url');
    const cached = this.verified.get(cacheKey);
    if (cached && cached.validUntil > now) return cached.identity;

    let payload;
    try {
      ({ payload } = await jwtVerify(token, await this.keys(), {
        issuer: this.config.OIDC_ISSUER,
        audience: this.config.OIDC_AUDIENCE,
        algorithms: this.algorithms,
        clockTolerance: this.config.OIDC_CLOCK_TOLERANCE_SECONDS,
        requiredClaims: ['sub', 'exp'],
      }));
    } catch (error) {
      if (isKeySetOutage(error)) throw new IdentityProviderUnavailable(error instanceof Error ? error.message : 'key set unavailable');
      throw new TokenRejected(describeJoseError(error));
    }
    if (typeof payload.sub !== 'string' || payload.sub.length === 0 || payload.sub.length > 255) {
      throw new TokenRejected('token subject missing or too long');
    }
    // `local:` names local-user mode's users; a provider subject may not reach one of them.
    if (payload.sub.startsWith(localSubjectPrefix)) throw new TokenRejected('token subject uses the reserved local: prefix');
    const identity: Identity = {
      externalUserId: payload.sub,
      ...(typeof payload.email === 'string' ? { email: payload.email } : {}),
      ...(typeof payload.name === 'string' ? { name: payload.name } : {}),
    };
    this.remember(cacheKey, identity, Math.min((payload.exp ?? 0) * 1000, now + verifiedTokenCacheMs));
    return identity;
  }

  private remember(cacheKey: string, identity: Identity, validUntil: number): void {
    if (this.verified.size >= verifiedTokenCacheSize) {
      const oldest = this.verified.keys().next().value;
      if (oldest !== undefined) this.verified.delete(oldest);
    }
    this.verified.set(cacheKey, { identity, validUntil });
  }

  /** The key resolver, created on first use; a failed discovery is retried on the next token. */
  private keys(): Promise<JWTVerifyGetKey> {
    this.keySet ??= this.createKeySet().catch((error: unknown) => {
      this.keySet = undefined;
      throw error;
    });
    return this.keySet;
  }

  private async createKeySet(): Promise<JWTVerifyGetKey> {
    const remoteOptions = { cooldownDuration: this.config.OIDC_JWKS_COOLDOWN_MS, cacheMaxAge: keySetMaxAgeMs, timeoutDuration: 5000 };
    if (this.config.OIDC_JWKS_FILE) return localFileKeySet(this.config.OIDC_JWKS_FILE, keySetMaxAgeMs);
    if (this.config.OIDC_JWKS_URL) return createRemoteJWKSet(new URL(this.config.OIDC_JWKS_URL), remoteOptions);
    return createRemoteJWKSet(await discoverJwksUri(this.config.OIDC_ISSUER), remoteOptions);
  }
}

/** Reads `jwks_uri` from the issuer's OpenID configuration, checking it names the same issuer. */
async function discoverJwksUri(issuer: string): Promise<URL> {
  const url = `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
  const response = await fetch(url, { signal: AbortSignal.timeout(5000) });
  if (!response.ok) throw new IdentityProviderUnavailable(`OIDC discovery failed with HTTP ${response.status}`);
  const document = (await response.json()) as { issuer?: unknown; jwks_uri?: unknown };
  if (document.issuer !== issuer) throw new IdentityProviderUnavailable('OIDC discovery document names another issuer');
  if (typeof document.jwks_uri !== 'string') throw new IdentityProviderUnavailable('OIDC discovery document has no jwks_uri');
  return new URL(document.jwks_uri);
}

/**
 * A JWKS file kept in sync with the disk: when a token names a key the loaded set lacks, or the
 * last look is older than `maxAgeMs`, and the file changed since it was read (an admin rotated
 * keys), it is read again.
 */
async function localFileKeySet(path: string, maxAgeMs: number): Promise<JWTVerifyGetKey> {
  let loadedMtimeMs = -1;
  let checkedAt = 0;
  let resolver: JWTVerifyGetKey = () => { throw new joseErrors.JWKSNoMatchingKey(); };
  const reloadIfChanged = async (): Promise<boolean> => {
    checkedAt = Date.now();
    const { mtimeMs } = await stat(path);
    if (mtimeMs === loadedMtimeMs) return false;
    resolver = createLocalJWKSet(JSON.parse(await readFile(path, 'utf8')) as JSONWebKeySet);
    loadedMtimeMs = mtimeMs;
    return true;
  };
  await reloadIfChanged();
  return async (header, token) => {
    if (Date.now() - checkedAt >= maxAgeMs) await reloadIfChanged();
    try {
      return await resolver(header, token);
    } catch (error) {
      if (error instanceof joseErrors.JWKSNoMatchingKey && (await reloadIfChanged())) return resolver(header, token);
      throw error;
    }
  };
}

/** Whether verification failed because keys could not be fetched, not because of the token. */
function isKeySetOutage(error: unknown): boolean {
  if (error instanceof IdentityProviderUnavailable || error instanceof joseErrors.JWKSTimeout) return true;
  if (error instanceof joseErrors.JWKSInvalid) return true;
  // jose throws the bare JOSEError only when the JWKS response is not 200 or not JSON.
  if (error instanceof joseErrors.JOSEError && error.code === joseErrors.JOSEError.code) return true;
  return !(error instanceof joseErrors.JOSEError) && !(error instanceof TokenRejected);
}

/** A short reason for logs and metrics; never the token or its claims. */
function describeJoseError(error: unknown): string {
  if (error instanceof TokenRejected) return error.reason;
  if (error instanceof joseErrors.JWTExpired) return 'token expired';
  if (error instanceof joseErrors.JWTClaimValidationFailed) return `claim ${error.claim} invalid`;
  if (error instanceof joseErrors.JOSEAlgNotAllowed) return 'algorithm not allowed';
  if (error instanceof joseErrors.JWKSNoMatchingKey) return 'no matching key';
  if (error instanceof joseErrors.JWSSignatureVerificationFailed) return 'signature invalid';
  if (error instanceof joseErrors.JWSInvalid || error instanceof joseErrors.JWTInvalid) return 'token malformed';
  if (error instanceof joseErrors.JOSEError) return error.code;
  return 'token rejected';
}
