import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { mp3File, wavFile } from '../../helpers/audioFixtures.js';
import { allCallRows, callFolders, errorOf, postUpload, tempFiles } from '../../helpers/callInspection.js';
import { startTestApp, type TestApp } from '../../helpers/startTestApp.js';
import { uploadForm } from '../../helpers/uploads.js';

let testApp: TestApp;
beforeAll(async () => { testApp = await startTestApp(); });
afterAll(async () => { await testApp.close(); });

const alice = () => testApp.as('alice');
const metadata = { contactName: 'Sheila', direction: 'INCOMING' };
const audio = wavFile(0.2);

let key: string;
beforeEach(() => { key = randomUUID(); });

function upload(idempotencyKey: string, file: Buffer = audio, parts: Parameters<typeof uploadForm>[2] = { metadata }): Promise<Response> {
  return postUpload(alice(), uploadForm(file, 'call.wav', parts), { 'idempotency-key': idempotencyKey });
}

describe('Idempotency-Key on POST /api/calls/analyze', () => {
  test('a repeat of the same upload replays the first answer and creates no second call', async () => {
    const rowsBefore = await allCallRows(testApp.services);
    const foldersBefore = callFolders(testApp.dataDir).length;

    const first = await upload(key);
    const firstBody = await first.text();
    const repeat = await upload(key);

    expect(first.status).toBe(202);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(repeat.status).toBe(202);
    expect(repeat.headers.get('idempotent-replayed')).toBe('true');
    expect(JSON.parse(await repeat.text())).toEqual(JSON.parse(firstBody));
    expect(await allCallRows(testApp.services)).toBe(rowsBefore + 1);
    expect(callFolders(testApp.dataDir)).toHaveLength(foldersBefore + 1);
    expect(tempFiles(testApp.dataDir)).toEqual([]);
  });

  test('the same key with a different file is refused with 409 idempotency_key_conflict', async () => {
    expect((await upload(key)).status).toBe(202);
    const rowsAfterFirst = await allCallRows(testApp.services);
    const foldersAfterFirst = callFolders(testApp.dataDir).length;

    const conflict = await upload(key, wavFile(0.3));

    expect(conflict.status).toBe(409);
    expect((await errorOf(conflict)).code).toBe('idempotency_key_conflict');
    expect(await allCallRows(testApp.services)).toBe(rowsAfterFirst);
    expect(callFolders(testApp.dataDir)).toHaveLength(foldersAfterFirst);
    expect(tempFiles(testApp.dataDir)).toEqual([]);
  });

  test('the same key with different metadata is refused with 409 idempotency_key_conflict', async () => {
    expect((await upload(key)).status).toBe(202);
    const foldersAfterFirst = callFolders(testApp.dataDir).length;

    const conflict = await upload(key, audio, { metadata: { ...metadata, contactName: 'Someone else' } });

    expect(conflict.status).toBe(409);
    expect((await errorOf(conflict)).code).toBe('idempotency_key_conflict');
    expect(callFolders(testApp.dataDir)).toHaveLength(foldersAfterFirst);
  });

  test('keys are per user: another user with the same key gets a call of their own', async () => {
    const aliceAnswer = (await (await upload(key)).json()) as { callId: string };
    const bobAnswer = await postUpload(testApp.as('bob'), uploadForm(audio, 'call.wav', { metadata }), { 'idempotency-key': key });

    expect(bobAnswer.status).toBe(202);
    expect(bobAnswer.headers.get('idempotent-replayed')).toBeNull();
    expect(((await bobAnswer.json()) as { callId: string }).callId).not.toBe(aliceAnswer.callId);
  });

  test('a refused upload does not use up the key', async () => {
    const refused = await postUpload(alice(), uploadForm(mp3File(), 'call.wav'), { 'idempotency-key': key });
    expect(refused.status).toBe(415);

    const retry = await upload(key);
    expect(retry.status).toBe(202);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
  });

  test.each([
    ['shorter than 8 characters', 'abc1234'],
    ['longer than 128 characters', 'k'.repeat(129)],
    ['with characters outside [A-Za-z0-9._:-]', 'key with spaces!'],
  ])('a key %s is refused with 400 validation_failed and nothing is stored', async (_case, badKey) => {
    const rowsBefore = await allCallRows(testApp.services);
    const response = await upload(badKey);

    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.code).toBe('validation_failed');
    expect(error.details?.fields?.[0]?.path).toBe('headers/idempotency-key');
    expect(await allCallRows(testApp.services)).toBe(rowsBefore);
  });

  test.each([
    ['exactly 8 characters', 'abcd1234'],
    ['128 characters of every allowed kind', `${'A'.repeat(60)}${'z'.repeat(60)}09._:-Zz`],
  ])('a key of %s is accepted', async (_case, goodKey) => {
    expect((await upload(goodKey)).status).toBe(202);
  });

  test('10 concurrent identical uploads with one key create exactly one call and one audio folder', async () => {
    const rowsBefore = await allCallRows(testApp.services);
    const foldersBefore = new Set(callFolders(testApp.dataDir));

    const responses = await Promise.all(Array.from({ length: 10 }, () => upload(key)));
    const bodies = (await Promise.all(responses.map((response) => response.json()))) as { callId: string; status: string }[];

    expect(responses.map((response) => response.status)).toEqual(Array(10).fill(202));
    const callIds = new Set(bodies.map((body) => body.callId));
    expect(callIds.size).toBe(1);
    expect(bodies.every((body) => body.status === 'QUEUED')).toBe(true);
    expect(responses.filter((response) => response.headers.get('idempotent-replayed') === 'true')).toHaveLength(9);
    expect(await allCallRows(testApp.services)).toBe(rowsBefore + 1);
    const newFolders = callFolders(testApp.dataDir).filter((folder) => !foldersBefore.has(folder));
    expect(newFolders).toEqual([...callIds]);
    expect(tempFiles(testApp.dataDir)).toEqual([]);
  });
});
