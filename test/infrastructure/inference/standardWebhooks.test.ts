import { createHmac } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import {
  isWebhookSecret, newWebhookSecret, signWebhook, verifyWebhook, webhookToleranceSeconds,
} from '../../../src/infrastructure/inference/standardWebhooks.js';

// Standard Webhooks verification for the transcription provider's callbacks.

const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const id = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
const now = 1_614_265_330;
const body = Buffer.from('{"test": 2432232314}');

describe('Standard Webhooks', () => {
  test('signs as the specification\'s example does (HMAC-SHA256 over id.timestamp.body, key = base64 after whsec_)', () => {
    // The specification's published test vector.
    expect(signWebhook(secret, id, now, body)).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
    const key = Buffer.from('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'base64');
    expect(signWebhook(secret, id, now, body)).toBe(`v1,${createHmac('sha256', key).update(`${id}.${now}.${body.toString()}`).digest('base64')}`);
  });

  test('accepts a genuine callback, also among several space-separated signatures and other versions', () => {
    const signature = signWebhook(secret, id, now, body);
    expect(verifyWebhook(secret, { id, timestamp: String(now), signature }, body, now)).toBeUndefined();
    expect(verifyWebhook(secret, { id, timestamp: String(now), signature: `v2,abc v1,AAAA ${signature}` }, body, now + 10)).toBeUndefined();
  });

  test.each([
    ['no id', { id: undefined }, 'missing_headers'],
    ['no timestamp', { timestamp: undefined }, 'missing_headers'],
    ['no signature', { signature: undefined }, 'missing_headers'],
    ['a timestamp that is not a number', { timestamp: '12ab' }, 'bad_timestamp'],
    ['a forged signature', { signature: 'v1,Zm9yZ2Vk' }, 'no_valid_signature'],
    ['another id than the one signed', { id: 'msg_other' }, 'no_valid_signature'],
  ] as const)('refuses %s', (_name, change, refusal) => {
    const headers = { id, timestamp: String(now), signature: signWebhook(secret, id, now, body), ...change };
    expect(verifyWebhook(secret, headers, body, now)).toBe(refusal);
  });

  test('refuses a tampered body, and one signed with an outdated secret after rotation', () => {
    const signature = signWebhook(secret, id, now, body);
    expect(verifyWebhook(secret, { id, timestamp: String(now), signature }, Buffer.from('{"test": 2432232315}'), now)).toBe('no_valid_signature');
    const rotated = newWebhookSecret();
    expect(verifyWebhook(rotated, { id, timestamp: String(now), signature }, body, now)).toBe('no_valid_signature');
  });

  test('refuses timestamps more than 5 minutes off, either way', () => {
    const at = (sentAt: number) => verifyWebhook(secret, { id, timestamp: String(sentAt), signature: signWebhook(secret, id, sentAt, body) }, body, now);
    expect(at(now - webhookToleranceSeconds)).toBeUndefined();
    expect(at(now - webhookToleranceSeconds - 1)).toBe('stale_timestamp');
    expect(at(now + webhookToleranceSeconds + 1)).toBe('stale_timestamp');
  });

  test('new secrets have the whsec_ form and 32 random bytes; malformed ones are recognised', () => {
    const fresh = newWebhookSecret();
    expect(isWebhookSecret(fresh)).toBe(true);
    expect(Buffer.from(fresh.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect(fresh).not.toBe(newWebhookSecret());
    expect(isWebhookSecret(secret)).toBe(true);
    for (const bad of ['MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'whsec_', 'whsec_short', 'whsec_not base64!']) expect(isWebhookSecret(bad), bad).toBe(false);
  });
});
