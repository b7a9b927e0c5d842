import { describe, expect, test } from 'vitest';
import { loadConfig } from '../../src/config/loadConfig.js';
import { newWebhookSecret } from '../../src/infrastructure/inference/standardWebhooks.js';
import { problemsOf } from './configProblems.js';

describe('webhook settings', () => {
  test('defaults: no endpoints, no secret, no transcript, 8 attempts, 15 s timeout, 30 days kept', () => {
    expect(loadConfig({})).toMatchObject({ WEBHOOK_INCLUDE_TRANSCRIPT: false, WEBHOOK_MAX_ATTEMPTS: 8, WEBHOOK_TIMEOUT_SECONDS: 15, WEBHOOK_RETENTION_DAYS: 30 });
    expect(loadConfig({}).WEBHOOK_URLS).toBeUndefined();
    expect(loadConfig({}).WEBHOOK_SECRET).toBeUndefined();
  });

  test('accepts comma-separated http(s) URLs and a whsec_ secret of 32 bytes', () => {
    const secret = newWebhookSecret();
    expect(loadConfig({ WEBHOOK_URLS: 'http://crm.lan/hooks, https://records.lan:8443/in', WEBHOOK_SECRET: secret, WEBHOOK_INCLUDE_TRANSCRIPT: 'true' }))
      .toMatchObject({ WEBHOOK_URLS: 'http://crm.lan/hooks, https://records.lan:8443/in', WEBHOOK_SECRET: secret, WEBHOOK_INCLUDE_TRANSCRIPT: true });
  });

  test.each([
    ['a URL of another scheme', { WEBHOOK_URLS: 'ftp://crm.lan/hooks' }, 'WEBHOOK_URLS'],
    ['an entry that does not parse', { WEBHOOK_URLS: 'http://crm.lan/a,http://[::1' }, 'WEBHOOK_URLS: "http://[::1" is not an http(s) URL with a host'],
    ['an endpoint listed twice', { WEBHOOK_URLS: 'http://crm.lan,http://crm.lan/' }, 'WEBHOOK_URLS: crm.lan is listed twice'],
    ['a secret without whsec_', { WEBHOOK_SECRET: 'c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0' }, 'WEBHOOK_SECRET'],
    ['a secret of fewer than 24 bytes', { WEBHOOK_SECRET: `whsec_${Buffer.alloc(16, 7).toString('base64')}` }, 'WEBHOOK_SECRET: must be `whsec_` followed by the base64 of at least 24 random bytes'],
    ['no attempt at all', { WEBHOOK_MAX_ATTEMPTS: '0' }, 'WEBHOOK_MAX_ATTEMPTS'],
  ])('refuses %s', (_name, env, problem) => {
    expect(problemsOf(env).some((line) => line.startsWith(problem))).toBe(true);
  });
});
