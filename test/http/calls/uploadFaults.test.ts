import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { wavFile } from '../../helpers/audioFixtures.js';
import { allCallRows, callFolders, errorOf, postUpload, tempFiles } from '../../helpers/callInspection.js';
import { startTestApp, type TestApp } from '../../helpers/startTestApp.js';
import { uploadForm } from '../../helpers/uploads.js';

/** Polls until `check` holds (cleanup after a cut connection is asynchronous), at most 3 s. */
async function eventually(check: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < 60 && !check(); attempt += 1) await sleep(50);
  expect(check()).toBe(true);
}

describe('an upload that drips slower than REQUEST_TIMEOUT_MS', () => {
  let testApp: TestApp;
  beforeAll(async () => { testApp = await startTestApp({ REQUEST_TIMEOUT_MS: '1000' }); });
  afterAll(async () => { await testApp.close(); });

  test('is answered 408 request_timeout in the envelope, and its partial file is removed', async () => {
    const boundary = 'slowdripboundary';
    const { port } = new URL(testApp.baseUrl);
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const upload = httpRequest({
        host: '127.0.0.1', port, method: 'POST', path: '/api/calls/analyze',
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'x-local-user-id': 'drip', 'content-length': '100000000' },
      }, (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => { body += chunk.toString(); });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      });
      upload.on('error', reject);
      // The part's head and a little audio, then silence: the client never finishes.
      upload.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="call.wav"\r\n\r\n`);
      upload.write(wavFile(0.5));
    });
    expect(answer.status).toBe(408);
    expect(JSON.parse(answer.body)).toEqual({ error: { code: 'request_timeout', message: expect.any(String) } });
    await eventually(() => tempFiles(testApp.dataDir).length === 0);
    expect(await allCallRows(testApp.services)).toBe(0);
    // The service keeps serving.
    expect((await postUpload(testApp.as('drip'), uploadForm(wavFile(0.2)))).status).toBe(202);
  });
});

describe('an upload onto a full disk (requires root: DATA_DIR on a 2 MiB tmpfs)', () => {
  let mountPoint: string;
  let testApp: TestApp;
  beforeAll(async () => {
    mountPoint = mkdtempSync(join(tmpdir(), 'callscope-full-disk-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', mountPoint]);
    testApp = await startTestApp({ DATA_DIR: mountPoint });
  });
  afterAll(async () => {
    await testApp.close();
    execFileSync('umount', [mountPoint]);
    rmSync(mountPoint, { recursive: true, force: true });
  });

  test('is answered 507 insufficient_storage, leaves nothing half-written, and the service recovers', async () => {
    const alice = testApp.as('alice');
    const response = await postUpload(alice, uploadForm(wavFile(120))); // 3.8 MB of audio
    expect(response.status).toBe(507);
    expect((await errorOf(response)).code).toBe('insufficient_storage');
    expect(tempFiles(mountPoint)).toEqual([]);
    expect(callFolders(mountPoint)).toEqual([]);
    expect(await allCallRows(testApp.services)).toBe(0);
    // Space is there again for a small recording.
    expect((await postUpload(alice, uploadForm(wavFile(1)))).status).toBe(202);
  });
});
