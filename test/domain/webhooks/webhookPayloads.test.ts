import { Value } from 'typebox/value';
import { describe, expect, test } from 'vitest';
import { endpointHost, webhookEndpointsOf, webhookUrlProblems } from '../../../src/domain/webhooks/webhookEndpoints.js';
import {
  actionItemUpdatedPayload, callCompletedPayload, callDeletedPayload, callFailedPayload, WebhookPayloadSchema, withoutTranscript,
} from '../../../src/domain/webhooks/webhookPayloads.js';
import { newWebhookSecret, signWebhook, verifyWebhook } from '../../../src/infrastructure/inference/standardWebhooks.js';

const now = Date.UTC(2026, 2, 4, 9, 30);
const callId = '7a0c1f3e-52a1-4b7e-9d2e-0f4c7b8a9e11';
const userId = '0b9d2c4a-1e3f-4a5b-8c7d-6e5f4a3b2c1d';
const completed = { callId, userId, actionItemIds: ['5d0f3c2b-7a6e-4d1c-9b8a-7f6e5d4c3b2a'], transcriptText: '[00:00-00:04] Diane: Hello.' };

describe('webhook payloads', () => {
  test('each event has the Standard Webhooks shape {type, timestamp, data} and passes its schema', () => {
    const payloads = [
      callCompletedPayload(completed, false, now),
      callCompletedPayload(completed, true, now),
      callFailedPayload({ callId, userId, errorReason: 'The audio could not be decoded' }, now),
      callDeletedPayload({ callId, userId }, now),
      actionItemUpdatedPayload({ id: completed.actionItemIds[0]!, callId, userId, status: 'COMPLETED' }, now),
    ];
    for (const payload of payloads) {
      expect(Value.Check(WebhookPayloadSchema, payload)).toBe(true);
      expect(payload.timestamp).toBe('2026-03-04T09:30:00.000Z');
    }
    expect(payloads.map((payload) => payload.type)).toEqual(['call.completed', 'call.completed', 'call.failed', 'call.deleted', 'action_item.updated']);
  });

  test('call.completed carries the transcript only with the opt-in; withoutTranscript takes it out again', () => {
    const plain = callCompletedPayload(completed, false, now);
    const withText = callCompletedPayload(completed, true, now);
    expect(plain.data).toEqual({ callId, userId, status: 'COMPLETED', actionItemIds: completed.actionItemIds });
    expect(withText.data).toEqual({ ...plain.data, transcript: completed.transcriptText });
    expect(JSON.parse(withoutTranscript(JSON.stringify(withText))!)).toEqual(plain);
    expect(withoutTranscript(JSON.stringify(plain))).toBeUndefined();
    expect(withoutTranscript(JSON.stringify(callDeletedPayload({ callId, userId }, now)))).toBeUndefined();
  });

  test('a body signed with signWebhook is accepted by verifyWebhook with the same secret, and only with it', () => {
    const secret = newWebhookSecret();
    const body = JSON.stringify(callFailedPayload({ callId, userId, errorReason: 'Décodage impossible ✗' }, now));
    const timestamp = Math.floor(now / 1000);
    const signature = signWebhook(secret, 'msg_0123', timestamp, body);
    expect(signature).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(verifyWebhook(secret, { id: 'msg_0123', timestamp: String(timestamp), signature }, Buffer.from(body), timestamp + 30)).toBeUndefined();
    expect(verifyWebhook(newWebhookSecret(), { id: 'msg_0123', timestamp: String(timestamp), signature }, Buffer.from(body), timestamp)).toBe('no_valid_signature');
  });
});

describe('WEBHOOK_URLS', () => {
  test('is split at commas, trimmed and normalised; unset is no endpoint', () => {
    expect(webhookEndpointsOf(undefined)).toEqual([]);
    expect(webhookEndpointsOf(' http://crm.lan , https://records.lan:8443/in?key=x ')).toEqual(['http://crm.lan/', 'https://records.lan:8443/in?key=x']);
    expect(webhookUrlProblems('http://crm.lan,https://records.lan/in')).toEqual([]);
  });

  test('names each entry that is not an http(s) URL with a host, and each listed twice', () => {
    expect(webhookUrlProblems('ftp://crm.lan,http://crm.lan,http://crm.lan/,http://')).toEqual([
      'WEBHOOK_URLS: "ftp://crm.lan" is not an http(s) URL with a host',
      'WEBHOOK_URLS: crm.lan is listed twice (http://crm.lan/)',
      'WEBHOOK_URLS: "http://" is not an http(s) URL with a host',
    ]);
  });

  test('logs name only the host of an endpoint', () => {
    expect(endpointHost('https://user:pw@records.lan:8443/in?key=secret')).toBe('records.lan:8443');
    expect(endpointHost('::')).toBe('invalid-url');
  });
});
