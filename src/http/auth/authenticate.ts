import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config/configSchema.js';
import type { Identity, UserRecord, UserRepository } from '../../domain/users/UserRepository.js';
import type { Clock } from '../../infrastructure/clock.js';
import { ApiError } from '../errors.js';
import { IdentityProviderUnavailable, localSubjectPrefix, TokenRejected, type TokenVerifier } from './TokenVerifier.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated caller; set by the `/api` authentication hook. */
    user: UserRecord | null;
  }
}

/** Local user ids: short, printable, no separators that could smuggle another namespace in. */
const localUserIdPattern = /^[A-Za-z0-9._@-]{1,128}$/;

export interface AuthenticationDependencies {
  config: Config;
  users: UserRepository;
  tokenVerifier?: TokenVerifier;
  clock: Clock;
  /** The key generated on the admin page, used when `API_KEY` is unset; asked on every request, so a rotation applies at once. */
  storedApiKey?: { digest(): Promise<Buffer | undefined> };
}

/**
 * The `/api` guard: the API key first (when one is configured: `API_KEY`, else the key stored
 * from the admin page), then exactly one identity:
 * a Bearer ID token, or `X-Local-User-Id` when local-user mode is on. The reason a request
 * failed goes to the debug log only; the client always sees the same `auth_invalid`.
 */
export function createAuthenticator(dependencies: AuthenticationDependencies) {
  const { config, users, tokenVerifier, clock, storedApiKey } = dependencies;
  const environmentKeyDigest = config.API_KEY ? digest(config.API_KEY) : undefined;

  return async function authenticate(request: FastifyRequest): Promise<void> {
    const expectedKeyDigest = environmentKeyDigest ?? (await storedApiKey?.digest());
    if (expectedKeyDigest) {
      const presented = request.headers['x-api-key'];
      if (typeof presented !== 'string' || !timingSafeEqual(digest(presented), expectedKeyDigest)) {
        throw refuse(request, 'api key missing or wrong');
      }
    }
    // Reads may reuse a sign-in of the last few seconds (polling clients); writes look the user up.
    request.user = await users.findOrCreate(await identify(request), clock(), { reuse: request.method === 'GET' || request.method === 'HEAD' });
  };

  async function identify(request: FastifyRequest): Promise<Identity> {
    const authorization = request.headers.authorization;
    const localUserId = request.headers['x-local-user-id'];
    if (authorization !== undefined) {
      const match = /^Bearer +([^ ]+) *$/i.exec(authorization);
      if (!match?.[1]) throw refuse(request, 'authorization header is not a Bearer token');
      if (!tokenVerifier) throw refuse(request, 'no identity provider configured');
      try {
        return await tokenVerifier.verify(match[1], clock());
      } catch (error) {
        if (error instanceof TokenRejected) throw refuse(request, error.reason);
        if (error instanceof IdentityProviderUnavailable) {
          request.log.warn({ reason: error.message }, 'identity provider unavailable');
          throw new ApiError('service_unavailable', 'The identity provider could not be reached');
        }
        throw error;
      }
    }
    if (localUserId !== undefined) {
      if (!config.LOCAL_AUTH) throw refuse(request, 'X-Local-User-Id sent but local-user mode is off');
      if (typeof localUserId !== 'string' || !localUserIdPattern.test(localUserId)) throw refuse(request, 'X-Local-User-Id malformed');
      return { externalUserId: `${localSubjectPrefix}${localUserId}` };
    }
    throw refuse(request, 'no credentials');
  }
}

function refuse(request: FastifyRequest, reason: string): ApiError {
  request.log.debug({ reason }, 'authentication refused');
  return new ApiError('auth_invalid');
}

/** Fixed-length digests make the comparison constant-time whatever the lengths presented. */
function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/** The authenticated user of a request behind the `/api` guard. */
export function currentUser(request: FastifyRequest): UserRecord {
  if (!request.user) throw new ApiError('auth_invalid');
  return request.user;
}
