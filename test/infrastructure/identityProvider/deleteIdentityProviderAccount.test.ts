import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, expect, test } from 'vitest';
import { deleteIdentityProviderAccount } from '../../../src/infrastructure/identityProvider/deleteIdentityProviderAccount.js';

const bearerToken = 'idp-admin-token-0123456789';
const subject = 'google-oauth2|1234 5678/ä?x=1';

interface Received {
  method: string | undefined;
  url: string | undefined;
  headers: IncomingHttpHeaders;
}

let server: Server | undefined;
afterEach(async () => {
  if (server?.listening) await new Promise<void>((resolve) => server!.close(() => resolve()));
  server = undefined;
});

/** A loopback identity provider answering every request with `status`; returns its URL template. */
async function startProvider(status: number, received: Received[]): Promise<string> {
  server = createServer((request, response) => {
    received.push({ method: request.method, url: request.url, headers: request.headers });
    response.writeHead(status).end();
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/admin/users/{sub}`;
}

/** A logger whose lines are collected, to check what a failure reveals. */
function capturingLogger() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
      callback();
    },
  });
  return { log: pino({ level: 'debug' }, stream), lines };
}

test('sends DELETE to the URL with the URL-encoded subject and the bearer token', async () => {
  const received: Received[] = [];
  const urlTemplate = await startProvider(204, received);
  const { log, lines } = capturingLogger();
  await deleteIdentityProviderAccount({ urlTemplate, bearerToken }, subject, log);

  expect(received).toHaveLength(1);
  expect(received[0]?.method).toBe('DELETE');
  expect(received[0]?.url).toBe(`/admin/users/${encodeURIComponent(subject)}`);
  expect(received[0]?.headers.authorization).toBe(`Bearer ${bearerToken}`);
  expect(lines.some((line) => line.level === 30)).toBe(true);
});

test('sends no authorization header when no token is configured', async () => {
  const received: Received[] = [];
  const urlTemplate = await startProvider(200, received);
  await deleteIdentityProviderAccount({ urlTemplate }, subject, capturingLogger().log);
  expect(received[0]?.headers.authorization).toBeUndefined();
});

test('a refusal (500) is logged as a warning with its status, not thrown, and reveals neither token nor subject', async () => {
  const urlTemplate = await startProvider(500, []);
  const { log, lines } = capturingLogger();
  await expect(deleteIdentityProviderAccount({ urlTemplate, bearerToken }, subject, log)).resolves.toBeUndefined();
  expect(lines.some((line) => line.level === 40 && line.status === 500)).toBe(true);
  const text = JSON.stringify(lines);
  expect(text).not.toContain(bearerToken);
  expect(text).not.toContain('1234');
});

test('an unreachable provider (closed port) is logged as a warning, not thrown', async () => {
  const urlTemplate = await startProvider(204, []);
  await new Promise<void>((resolve) => server!.close(() => resolve()));
  const { log, lines } = capturingLogger();
  await expect(deleteIdentityProviderAccount({ urlTemplate, bearerToken }, subject, log)).resolves.toBeUndefined();
  expect(lines.some((line) => line.level === 40)).toBe(true);
  expect(JSON.stringify(lines)).not.toContain(bearerToken);
});
