import { expect, test } from 'vitest';
import { censored, censorSecrets } from '../../../src/infrastructure/logging/loggerOptions.js';

test('secret fields are censored at the top of an entry and one level down, as before, and no deeper', () => {
  const entry = { callId: 'c1', token: 'abc', user: { apiKey: 'k', password: 'p', name: 'Ann' }, deep: { a: { text: 'kept: two levels down' } }, transcript: undefined };
  expect(censorSecrets(entry)).toEqual({ callId: 'c1', token: censored, user: { apiKey: censored, password: censored, name: 'Ann' }, deep: { a: { text: 'kept: two levels down' } }, transcript: undefined });
});

test('secret headers are censored in a headers object at the top or one level down; other headers stay', () => {
  const entry = { headers: { authorization: 'Bearer t', accept: 'json' }, request: { headers: { 'x-api-key': 'k', cookie: 'c', 'x-local-user-id': 'alice' } } };
  expect(censorSecrets(entry)).toEqual({
    headers: { authorization: censored, accept: 'json' },
    request: { headers: { 'x-api-key': censored, cookie: censored, 'x-local-user-id': censored } },
  });
});

test('the caller\'s objects are not changed; an entry without secrets is passed through as it is', () => {
  const user = { password: 'p' };
  const entry = { user };
  censorSecrets(entry);
  expect(user.password).toBe('p');
  const clean = { callId: 'c1', durationMs: 5 };
  expect(censorSecrets(clean)).toBe(clean);
});

test('instances (a request, an error) are left to their serializers', () => {
  class Request { text = 'left alone'; get url() { return '/api/calls'; } }
  const request = new Request();
  const result = censorSecrets({ req: request });
  expect(result.req).toBe(request);
});
