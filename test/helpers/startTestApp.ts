import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/loadConfig.js';
import { createServices, type Services } from '../../src/createServices.js';
import { loggerOptions } from '../../src/infrastructure/logging/loggerOptions.js';
import { testDatabaseEnvironment } from './testDatabase.js';

export interface TestApp {
  app: FastifyInstance;
  services: Services;
  /** `http://127.0.0.1:<port>`: tests talk to a real listening server. */
  baseUrl: string;
  dataDir: string;
  /** Every log line the app wrote, parsed (for privacy audits). */
  logLines: Record<string, unknown>[];
  /** fetch against the app with `X-Local-User-Id: <user>` (and the API key when configured). */
  as(user: string): (path: string, init?: RequestInit) => Promise<Response>;
  close(): Promise<void>;
}

/**
 * Builds the real app on a fresh temp DATA_DIR with the given environment (local-user mode on
 * unless overridden), on a database of its own (SQLite in DATA_DIR, or on a PostgreSQL run a
 * fresh database: test/helpers/testDatabase.ts), listens on a loopback port and returns helpers to call it.
 */
export async function startTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'callscope-test-'));
  const database = env.DATABASE_URL ? {} : await testDatabaseEnvironment();
  const config = loadConfig({ LOCAL_AUTH: 'true', DATA_DIR: dataDir, LOG_LEVEL: 'debug', RATE_LIMIT_PER_MINUTE: '0', ...database, ...env });
  const services = await createServices(config, { processMetrics: false });
  const logLines: Record<string, unknown>[] = [];
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) logLines.push(JSON.parse(line) as Record<string, unknown>);
      callback();
    },
  });
  const app = await buildApp({ services, logger: { ...(loggerOptions(config) as object), stream: logStream } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  const baseUrl = `http://127.0.0.1:${address.port}`;
  return {
    app, services, baseUrl, dataDir, logLines,
    as: (user) => (path, init = {}) => {
      const headers = new Headers(init.headers);
      headers.set('x-local-user-id', user);
      if (config.API_KEY && !headers.has('x-api-key')) headers.set('x-api-key', config.API_KEY);
      return fetch(`${baseUrl}${path}`, { ...init, headers });
    },
    close: async () => {
      // A request answered before its body was read (a 404, 413 or 401 to an upload) leaves its
      // client still sending; app.close() only drops idle connections and would wait for it.
      app.server.closeAllConnections();
      await app.close();
      await services.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
