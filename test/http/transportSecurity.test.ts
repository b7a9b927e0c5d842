import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, tlsServerOptions } from '../../src/app.js';
import { loadConfig } from '../../src/config/loadConfig.js';
import { createServices, type Services } from '../../src/createServices.js';
import { isLoopbackAddress } from '../../src/http/loopback.js';
import { testDatabaseEnvironment } from '../helpers/testDatabase.js';

// The plain-HTTP rules of TLS=auto, on the app's routes: who is sent to HTTPS, and where.
// (test/node/https.test.ts speaks to the real server over real sockets.)

let dataDir: string;
let services: Services;
let app: FastifyInstance;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'callscope-transport-'));
  services = await createServices(loadConfig({ LOCAL_AUTH: 'true', DATA_DIR: dataDir, HTTPS_PORT: '8443', LOG_LEVEL: 'silent', ...(await testDatabaseEnvironment()) }), { processMetrics: false });
  app = await buildApp({ services, https: tlsServerOptions((await services.tls.current()).pair) });
});
afterAll(async () => {
  await app.close();
  await services.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('plain HTTP with TLS=auto', () => {
  it('sends a client on another address to the same path and query on HTTPS with 308, by the host it asked for', async () => {
    const cases: [Record<string, string>, string, string][] = [
      [{ host: 'callscope.clinic.example:8080' }, '/api/calls?limit=5&status=COMPLETED', 'https://callscope.clinic.example:8443/api/calls?limit=5&status=COMPLETED'],
      [{ host: '192.0.2.10:8080' }, '/admin', 'https://192.0.2.10:8443/admin'],
      [{ host: '[2001:db8::10]:8080' }, '/docs', 'https://[2001:db8::10]:8443/docs'],
      // A Host header that is no host name (an attempt to inject a path) is not echoed: the address the client reached is
      // named instead (an injected request has none: localhost).
      [{ host: 'evil.example/x\\@y' }, '/api/health', 'https://localhost:8443/api/health'],
    ];
    for (const [headers, url, location] of cases) {
      const response = await app.inject({ method: 'GET', url, headers, remoteAddress: '192.0.2.50' });
      expect(response.statusCode).toBe(308);
      expect(response.headers.location).toBe(location);
      expect(response.headers['strict-transport-security']).toBeUndefined();
    }
    const upload = await app.inject({ method: 'POST', url: '/api/calls/analyze', headers: { host: 'box:8080', 'content-type': 'application/json' }, payload: '{}', remoteAddress: '198.51.100.7' });
    expect(upload.statusCode).toBe(308);
  });

  it('answers the health probes to anyone, and everything to the box itself', async () => {
    for (const url of ['/actuator/health', '/actuator/health/liveness', '/actuator/health/liveness/', '/actuator/health/readiness']) {
      const response = await app.inject({ method: 'GET', url, remoteAddress: '192.0.2.50' });
      expect(response.statusCode, url).not.toBe(308);
    }
    for (const remoteAddress of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1']) {
      expect((await app.inject({ method: 'GET', url: '/api/health', remoteAddress })).statusCode, remoteAddress).toBe(200);
    }
  });

  it('counts 127.0.0.0/8, ::1 and IPv4-mapped loopback as the box, nothing else', () => {
    expect(['127.0.0.1', '127.255.0.1', '::1', '::ffff:127.0.0.2'].every(isLoopbackAddress)).toBe(true);
    expect(['128.0.0.1', '::2', '::ffff:10.0.0.1', '10.127.0.1', 'fe80::1', undefined].some(isLoopbackAddress)).toBe(false);
  });
});
