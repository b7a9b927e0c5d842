import { statSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { waitFor } from '../helpers/processingHarness.js';
import { callCount, expectNoOrphans, faultRig, sampleCall, sampleMetadata, uploadSample, waitForOutcome, type FaultRig } from './faultSetup.js';
import { killServer, newDataDir, startServer, storedFiles, waitForHold, type ServerProcess } from '../helpers/serverProcess.js';

// SIGKILL of the real service while an upload arrives, while it is being stored, and while
// accepted calls wait in the queue; then a restart on the same DATA_DIR. A client whose request
// died without an answer retries it with the same Idempotency-Key, as the mobile app does.

let rig: FaultRig;
beforeAll(async () => {
  rig = await faultRig();
});
afterAll(() => rig?.remove());

/**
 * Sends the first half of the sample call's multipart body and leaves the request open, as a
 * phone losing its connection mid-upload would. Resolves with how the request ended.
 */
function startHalfUpload(server: ServerProcess, idempotencyKey: string): Promise<string> {
  const boundary = 'callscope-fault-boundary';
  const file = sampleCall();
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="metadata"\r\nContent-Type: application/json\r\n\r\n${JSON.stringify(sampleMetadata)}\r\n`
    + `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="sample.wav"\r\nContent-Type: audio/wav\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((resolve) => {
    const upload = request(`${server.baseUrl}/api/calls/analyze`, {
      method: 'POST',
      headers: {
        'x-local-user-id': 'alice', 'idempotency-key': idempotencyKey,
        'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': head.length + file.length + tail.length,
      },
    });
    upload.on('response', (response) => resolve(`answered ${response.statusCode}`));
    upload.on('error', (error: NodeJS.ErrnoException) => resolve(`failed ${error.code ?? error.message}`));
    upload.write(Buffer.concat([head, file.subarray(0, file.length / 2)]));
  });
}

/** The temp files of uploads in progress, with their sizes in bytes. */
function uploadsInProgress(dataDir: string): number[] {
  return storedFiles(dataDir).filter((file) => file.startsWith('tmp/')).map((file) => statSync(join(dataDir, file)).size);
}

/**
 * Restarts the service on `dataDir` after a kill during an unanswered upload: nothing of it is
 * kept; the app's retry with the same key then creates the call, once, and it completes.
 */
async function expectCleanRestartThenOneCall(dataDir: string, idempotencyKey: string): Promise<void> {
  const second = await startServer(dataDir, rig.env);
  expect(storedFiles(dataDir)).toEqual([]);
  expect(await callCount(dataDir)).toBe(0);
  const retry = await uploadSample(second, 'alice', idempotencyKey);
  expect(retry.status).toBe(202);
  const { callId } = (await retry.json()) as { callId: string };
  expect((await waitForOutcome(second, 'alice', callId)).status).toBe('COMPLETED');
  expect(await callCount(dataDir)).toBe(1);
  await expectNoOrphans(dataDir);
  await killServer(second);
}

describe('SIGKILL during uploads, then a restart', () => {
  test('killed while the body arrives: nothing is kept, and the retried upload creates the call once', async () => {
    const dataDir = newDataDir();
    const first = await startServer(dataDir, rig.env);
    const ended = startHalfUpload(first, 'cut-upload-1');
    await waitFor('half the audio to be on disk', () => uploadsInProgress(dataDir).some((size) => size > 0));

    await killServer(first);
    expect(await ended).toMatch(/^failed /);

    await expectCleanRestartThenOneCall(dataDir, 'cut-upload-1');
  }, 120_000);

  test('killed after the audio is stored but before its call is committed: the audio is removed at restart, and the retry creates the call once', async () => {
    const dataDir = newDataDir();
    const first = await startServer(dataDir, { ...rig.env, FAULT_HOLD_AT: 'upload.accept' });
    const answer = uploadSample(first, 'alice', 'held-upload-1').then((response) => `answered ${response.status}`, () => 'failed');
    await waitForHold(first, 'upload.accept');
    // The audio sits under objects/ with no row naming it.
    expect(storedFiles(dataDir)).toEqual([expect.stringMatching(/^objects\/calls\/[0-9a-f-]{36}\/original\.wav$/)]);
    expect(await callCount(dataDir)).toBe(0);

    await killServer(first);
    expect(await answer).toBe('failed');

    await expectCleanRestartThenOneCall(dataDir, 'held-upload-1');
  }, 120_000);

  test('killed with one call in flight and two queued: all three complete after the restart, none twice', async () => {
    const dataDir = newDataDir();
    const first = await startServer(dataDir, { ...rig.env, FAULT_HOLD_AT: 'stage.diarization', WORKER_CONCURRENCY: '1' });
    const callIds: string[] = [];
    for (const key of ['queued-call-1', 'queued-call-2', 'queued-call-3']) {
      const response = await uploadSample(first, 'alice', key);
      expect(response.status).toBe(202);
      callIds.push(((await response.json()) as { callId: string }).callId);
    }
    await waitForHold(first, 'stage.diarization');

    await killServer(first);

    const second = await startServer(dataDir, rig.env);
    const outcomes = [];
    for (const callId of callIds) outcomes.push(await waitForOutcome(second, 'alice', callId));
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['COMPLETED', 'COMPLETED', 'COMPLETED']);
    // The same recording three times: the same action items for each, none duplicated.
    expect(outcomes[0]!.actionItemTitles.length).toBeGreaterThanOrEqual(3);
    expect(new Set(outcomes[0]!.actionItemTitles).size).toBe(outcomes[0]!.actionItemTitles.length);
    expect(outcomes[1]).toEqual(outcomes[0]);
    expect(outcomes[2]).toEqual(outcomes[0]);
    expect(await callCount(dataDir)).toBe(3);
    await expectNoOrphans(dataDir);
    await killServer(second);
  }, 180_000);
});
