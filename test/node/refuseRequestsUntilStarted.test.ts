import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/loadConfig.js';
import { createServices } from '../../src/createServices.js';
import { refuseRequestsUntilStarted } from '../../src/node/refuseRequestsUntilStarted.js';
import { testDatabaseEnvironment } from '../helpers/testDatabase.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

test('a node that has bound its port but not started answers every path 503 service_unavailable with Retry-After, then serves', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'callscope-starting-'));
  cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  const services = await createServices(loadConfig({ LOCAL_AUTH: 'true', DATA_DIR: dataDir, ...(await testDatabaseEnvironment()) }), { processMetrics: false });
  cleanups.push(() => services.close());
  const app = await buildApp({ services, logger: false });
  cleanups.push(() => app.close());
  const markStarted = refuseRequestsUntilStarted(app);

  // Probes with 503 schemas of their own, the API, and a path that does not exist.
  const paths = ['/api/health', '/actuator/health/readiness', '/api/calls', '/api/no-such-path'];
  for (const path of paths) {
    const response = await app.inject({ url: path, headers: { 'x-local-user-id': 'alice' } });
    expect(response.statusCode, path).toBe(503);
    expect(response.headers['retry-after'], path).toBe('1');
    expect(response.json(), path).toEqual({ error: { code: 'service_unavailable', message: 'This node is starting; try again in a moment' } });
  }

  markStarted();
  expect((await app.inject({ url: '/api/health' })).statusCode).toBe(200);
  expect((await app.inject({ url: '/api/calls', headers: { 'x-local-user-id': 'alice' } })).statusCode).toBe(200);
});
