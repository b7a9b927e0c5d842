import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Standard Webhooks (the open specification the `standardwebhooks` package implements), the
 * way a transcription provider signs the callback it sends when a call's transcript is ready:
 * - headers `webhook-id` (unique per message; a replay carries the same id), `webhook-timestamp`
 *   (Unix seconds) and `webhook-signature`: space-separated `v1,<base64 HMAC-SHA256>` entries,
 *   each over `${id}.${timestamp}.${rawBody}`;
 * - the key is the base64-decoded part of the secret after `whsec_`.
 * Written with node:crypto (a few lines), comparing in constant time.
 */

/** How far a timestamp may be from now, seconds (the specification's recommendation). */
export const webhookToleranceSeconds = 5 * 60;

/** Why a callback was refused: said in the 401's details and counted in a metric, never with the body or the secret. */
export type WebhookRefusal = 'missing_headers' | 'bad_timestamp' | 'stale_timestamp' | 'no_valid_signature';

export interface WebhookHeaders {
  id: string | undefined;
  timestamp: string | undefined;
  signature: string | undefined;
}

const secretPrefix = 'whsec_';

/** A new secret: `whsec_` and 32 random bytes in base64 (the form providers' SDKs take). */
export function newWebhookSecret(): string {
  return `${secretPrefix}${randomBytes(32).toString('base64')}`;
}

/** Whether `secret` has the `whsec_<base64>` form with a key of at least 24 bytes. */
export function isWebhookSecret(secret: string): boolean {
  if (!secret.startsWith(secretPrefix)) return false;
  const encoded = secret.slice(secretPrefix.length);
  return /^[A-Za-z0-9+/]+={0,2}$/.test(encoded) && Buffer.from(encoded, 'base64').length >= 24;
}

/** The `v1,<base64>` signature of a message (what a provider sends; the tests and the docs' example sign with it). */
export function signWebhook(secret: string, id: string, timestampSeconds: number, rawBody: string | Buffer): string {
  const key = Buffer.from(secret.slice(secretPrefix.length), 'base64');
  const signed = Buffer.concat([Buffer.from(`${id}.${timestampSeconds}.`), Buffer.isBuffer(rawBody) ? rawBody : Buffer.from(rawBody)]);
  return `v1,${createHmac('sha256', key).update(signed).digest('base64')}`;
}

/**
 * Checks a callback against the secret in force now: the headers are there, the timestamp is
 * within {@link webhookToleranceSeconds} of `nowSeconds`, and one of the `v1` signatures is the
 * HMAC of this id, timestamp and exact body. A signature made with an older secret fails, as
 * the specification asks of a rotated secret. Returns undefined when the callback is genuine.
 */
export function verifyWebhook(secret: string, headers: WebhookHeaders, rawBody: Buffer, nowSeconds: number): WebhookRefusal | undefined {
  const { id, timestamp, signature } = headers;
  if (!id || !timestamp || !signature) return 'missing_headers';
  if (!/^\d{1,12}$/.test(timestamp)) return 'bad_timestamp';
  const sentAt = Number(timestamp);
  if (Math.abs(nowSeconds - sentAt) > webhookToleranceSeconds) return 'stale_timestamp';
  const expected = Buffer.from(signWebhook(secret, id, sentAt, rawBody).slice('v1,'.length), 'base64');
  const offered = signature.split(' ').filter(Boolean).flatMap((entry) => {
    const [version, value] = entry.split(',', 2);
    return version === 'v1' && value ? [Buffer.from(value, 'base64')] : [];
  });
  const matches = offered.some((candidate) => candidate.length === expected.length && timingSafeEqual(candidate, expected));
  return matches ? undefined : 'no_valid_signature';
}
