import { PassThrough, Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, test } from 'vitest';
import { loadConfig } from '../../../src/config/loadConfig.js';
import { loggerOptions, usesPrettyLogs } from '../../../src/infrastructure/logging/loggerOptions.js';
import { maskPhoneNumber } from '../../../src/infrastructure/logging/maskPhoneNumber.js';

/** Logs the same entries through a Fastify logger in the given format and returns what was written. */
async function writtenLog(format: 'pretty' | 'json'): Promise<string> {
  const chunks: string[] = [];
  const sink = new Writable({ write(chunk: Buffer, _encoding, done) { chunks.push(chunk.toString()); done(); } });
  const config = loadConfig({ LOG_FORMAT: format, LOG_LEVEL: 'info' });
  const base = loggerOptions(config, { terminal: false, prettyDestination: sink }) as object;
  const app = Fastify({ logger: format === 'json' ? { ...base, stream: sink } : base });
  const log = app.log.child({ component: 'processing' });
  log.info({ callId: 'call-1', phoneNumber: maskPhoneNumber('+15551234567'), token: 'secret-token-value', segment: { text: 'I will pay on Friday' } }, 'processing started');
  log.warn({ user: { apiKey: 'key-0123456789abcdef', password: 'hunter2' } }, 'something to look at');
  await app.close();
  return chunks.join('');
}

describe('LOG_FORMAT', () => {
  test('auto is pretty on a terminal and JSON otherwise; pretty and json force one', () => {
    const of = (format: string) => loadConfig({ LOG_FORMAT: format });
    expect(usesPrettyLogs(of('auto'), true)).toBe(true);
    expect(usesPrettyLogs(of('auto'), false)).toBe(false);
    expect(usesPrettyLogs(of('pretty'), false)).toBe(true);
    expect(usesPrettyLogs(of('json'), true)).toBe(false);
    expect(loadConfig({}).LOG_FORMAT).toBe('auto');
  });

  test('an unknown format is a configuration error naming the setting', () => {
    expect(() => loadConfig({ LOG_FORMAT: 'xml' })).toThrow(/LOG_FORMAT/);
  });

  test('pretty lines are one readable line per entry with the level, component and message', async () => {
    const pretty = await writtenLog('pretty');
    const lines = pretty.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\[?\d\d:\d\d:\d\d\.\d{3}\]? INFO: \(processing\): processing started \{.*"callId":"call-1"/);
    expect(lines[1]).toMatch(/WARN: \(processing\): something to look at/);
    expect(() => JSON.parse(lines[0]!)).toThrow();
  });

  test('both formats carry the same fields, masked the same way', async () => {
    const json = await writtenLog('json');
    const pretty = await writtenLog('pretty');
    const entries = json.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries[0]).toMatchObject({ callId: 'call-1', phoneNumber: '+*********67', token: '[redacted]', segment: { text: '[redacted]' } });
    expect(entries[1]).toMatchObject({ user: { apiKey: '[redacted]', password: '[redacted]' } });
    for (const text of [json, pretty]) {
      for (const secret of ['5551234567', 'secret-token-value', 'I will pay on Friday', 'key-0123456789abcdef', 'hunter2']) expect(text).not.toContain(secret);
      expect(text).toContain('+*********67');
      expect(text).toContain('[redacted]');
    }
    // Every field of the JSON entry (bar pino's own bookkeeping) shows in the pretty line.
    for (const key of Object.keys(entries[0]!).filter((name) => !['level', 'time', 'pid', 'hostname', 'msg', 'component'].includes(name))) {
      expect(pretty).toContain(`"${key}"`);
    }
  });

  test('a pretty stream is written in this thread, so nothing waits in a worker at exit', () => {
    const destination = new PassThrough();
    const options = loggerOptions(loadConfig({ LOG_FORMAT: 'pretty' }), { prettyDestination: destination }) as { stream?: unknown; transport?: unknown };
    expect(options.stream).toBeDefined();
    expect(options.transport).toBeUndefined();
  });
});
