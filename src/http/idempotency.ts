import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IdempotencyRecord, IdempotencyRepository, StoredResponse } from '../domain/idempotency/IdempotencyRepository.js';
import type { Services } from '../createServices.js';
import type { Clock } from '../infrastructure/clock.js';
import { currentUser } from './auth/authenticate.js';
import { ApiError } from './errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** `custom`: the handler claims the Idempotency-Key itself (uploads, whose body is streamed). */
    idempotency?: 'custom';
  }
  interface FastifyRequest {
    /** The Idempotency-Key this request claimed, to be completed or released when it ends. */
    claimedIdempotencyKey: string | null;
  }
}

/** Keys: 8 to 128 characters of letters, digits and `._:-` (a UUID v4 is recommended). */
const keyPattern = /^[A-Za-z0-9._:-]{8,128}$/;
/** How often a waiting repeat looks whether the first request with its key has finished, ms. */
const pendingPollMs = 25;

const mutatingMethods = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

/** The validated Idempotency-Key header, or undefined when none was sent. */
export function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const key = request.headers['idempotency-key'];
  if (key === undefined) return undefined;
  if (typeof key !== 'string' || !keyPattern.test(key)) {
    throw new ApiError('validation_failed', 'Idempotency-Key must be 8 to 128 characters of letters, digits and ._:-', {
      fields: [{ path: 'headers/idempotency-key', message: 'must match ^[A-Za-z0-9._:-]{8,128}$' }],
    });
  }
  return key;
}

/** sha256 over what makes two requests "the same": method, route, parameters and body. */
export function requestFingerprint(parts: readonly unknown[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(canonicalJson(part)).update('\n');
  return hash.digest('hex');
}

/** JSON with object keys sorted, so `{a,b}` and `{b,a}` fingerprint alike. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Sends a stored response again, marked as a replay. */
export function replayResponse(reply: FastifyReply, response: StoredResponse): FastifyReply {
  reply.code(response.statusCode).header('idempotent-replayed', 'true');
  if (response.body === null) return reply.send();
  return reply.type('application/json; charset=utf-8').send(response.body);
}

/** Throws 409 when a key is reused for a different request. */
export function assertSameRequest(record: IdempotencyRecord, fingerprint: string): void {
  if (record.fingerprint !== fingerprint) throw new ApiError('idempotency_key_conflict');
}

export interface IdempotencyDependencies {
  records: IdempotencyRepository;
  clock: Clock;
  /** How long a repeat waits for the first request with its key, ms. */
  pendingWaitMs: number;
}

export function idempotencyDependenciesOf(services: Pick<Services, 'idempotency' | 'clock' | 'config'>): IdempotencyDependencies {
  return { records: services.idempotency, clock: services.clock, pendingWaitMs: services.config.IDEMPOTENCY_WAIT_MS };
}

export type IdempotencyClaim = { outcome: 'claimed' | 'none' } | { outcome: 'replay'; response: StoredResponse };

/**
 * Claims the request's Idempotency-Key for `fingerprint`: `claimed` (run the request; its
 * response is stored when it is sent), `replay` (answer with the stored `response`, e.g. with
 * {@link replayResponse}, once the request's own files are cleaned up) or `none` (no key). Waits
 * for a concurrent first request; throws 409 on a different request. Streamed routes
 * (`idempotency: 'custom'`) call it once they know their body's fingerprint.
 */
export async function claimIdempotencyKey(dependencies: IdempotencyDependencies, request: FastifyRequest, fingerprint: string): Promise<IdempotencyClaim> {
  const key = idempotencyKeyOf(request);
  if (key === undefined) return { outcome: 'none' };
  const { records, clock, pendingWaitMs } = dependencies;
  const userId = currentUser(request).id;
  const deadline = clock() + pendingWaitMs;
  for (;;) {
    const claim = await records.claim(userId, key, fingerprint, clock());
    if (claim.claimed) {
      request.claimedIdempotencyKey = key;
      return { outcome: 'claimed' };
    }
    assertSameRequest(claim.existing, fingerprint);
    if (claim.existing.state === 'COMPLETE' && claim.existing.statusCode !== null) {
      return { outcome: 'replay', response: { statusCode: claim.existing.statusCode, body: claim.existing.responseBody } };
    }
    if (clock() >= deadline) throw new ApiError('idempotency_key_in_progress');
    await sleep(pendingPollMs);
  }
}

/**
 * Idempotency for the mutating routes: the first request with a key runs and its
 * response (any status below 500) is stored for 24 hours; repeats get that response back,
 * concurrent repeats wait up to `pendingWaitMs` for it; the same key on a different request is a 409. A 5xx is not
 * stored, so the client's retry runs the request again.
 */
export function registerIdempotency(app: FastifyInstance, dependencies: IdempotencyDependencies): void {
  const { records } = dependencies;
  app.decorateRequest('claimedIdempotencyKey', null);

  app.addHook('preHandler', async (request, reply) => {
    if (!mutatingMethods.has(request.method) || request.routeOptions.config.idempotency === 'custom') return;
    const fingerprint = requestFingerprint([request.method, request.routeOptions.url, request.params, request.query, request.body ?? null]);
    const claim = await claimIdempotencyKey(dependencies, request, fingerprint);
    if (claim.outcome === 'replay') return replayResponse(reply, claim.response);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const key = request.claimedIdempotencyKey;
    if (key === null || !request.user) return payload;
    request.claimedIdempotencyKey = null;
    if (reply.statusCode >= 500) {
      await records.release(request.user.id, key);
    } else {
      const body = typeof payload === 'string' && payload.length > 0 ? payload : null;
      await records.complete(request.user.id, key, { statusCode: reply.statusCode, body });
    }
    return payload;
  });

  // A request that never reached onSend (client gone) must not leave its key pending forever.
  const releaseUnfinished = async (request: FastifyRequest) => {
    const key = request.claimedIdempotencyKey;
    request.claimedIdempotencyKey = null;
    if (key !== null && request.user) await records.release(request.user.id, key);
  };
  app.addHook('onRequestAbort', releaseUnfinished);
  app.addHook('onResponse', releaseUnfinished);
}
