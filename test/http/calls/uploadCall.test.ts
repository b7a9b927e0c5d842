import { readFileSync, statSync } from 'node:fs';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { aacFile, m4aFile, mp3File, oggFile, wavFile } from '../../helpers/audioFixtures.js';
import { allCallRows, callFolders, errorOf, postUpload, rowsOfCall, storedAudioPath, tempFiles } from '../../helpers/callInspection.js';
import { startTestApp, type TestApp } from '../../helpers/startTestApp.js';
import { uploadForm } from '../../helpers/uploads.js';

interface Accepted {
  callId: string;
  status: string;
}

let testApp: TestApp;
beforeAll(async () => { testApp = await startTestApp(); });
afterAll(async () => { await testApp.close(); });

const alice = () => testApp.as('alice');

async function acceptedUpload(form: FormData): Promise<Accepted> {
  const response = await postUpload(alice(), form);
  expect(response.status).toBe(202);
  return (await response.json()) as Accepted;
}

async function detailOf(callId: string): Promise<Record<string, unknown>> {
  const response = await alice()(`/api/calls/${callId}`);
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

describe('accepted uploads', () => {
  test.each([
    ['wav', wavFile(0.2), 'call.wav'],
    ['mp3', mp3File(), 'call.mp3'],
    ['mp3', mp3File(10, true), 'tagged.mp3'],
    ['m4a', m4aFile(), 'call.m4a'],
    ['aac', aacFile(), 'call.aac'],
    ['ogg', oggFile(), 'call.ogg'],
  ])('a %s file (%s) is answered 202 QUEUED and stored under the call folder', async (format, audio, fileName) => {
    const accepted = await acceptedUpload(uploadForm(audio, fileName));

    expect(accepted).toEqual({ callId: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/), status: 'QUEUED' });
    expect(readFileSync(storedAudioPath(testApp.dataDir, accepted.callId, format))).toEqual(audio);
    expect(await rowsOfCall(testApp.services, 'calls', accepted.callId)).toBe(1);
    expect((await detailOf(accepted.callId)).status).toBe('QUEUED');
    expect(tempFiles(testApp.dataDir)).toEqual([]);
  });

  test.each([
    ['M4A content named .aac', m4aFile(), 'voice.aac', 'm4a'],
    ['ADTS AAC content named .m4a', aacFile(), 'voice.m4a', 'aac'],
    ['an upper-case extension', wavFile(0.1), 'VOICE.WAV', 'wav'],
    ['a file name without extension', wavFile(0.1), 'voice', 'wav'],
  ])('%s is accepted and stored in the detected format', async (_case, audio, fileName, storedFormat) => {
    const accepted = await acceptedUpload(uploadForm(audio, fileName));
    expect(readFileSync(storedAudioPath(testApp.dataDir, accepted.callId, storedFormat))).toEqual(audio);
  });
});

describe('refused files', () => {
  test.each([
    ['an extension that is not accepted', wavFile(0.1), 'call.flac'],
    ['a text file', Buffer.from('hello, this is not audio at all'), 'notes.txt'],
    ['content that is no audio format, named .wav', Buffer.from('hello, this is not audio at all'), 'call.wav'],
    ['MP3 content named .wav', mp3File(), 'call.wav'],
    ['WAV content named .mp3', wavFile(0.1), 'call.mp3'],
    ['OGG content named .m4a', oggFile(), 'call.m4a'],
  ])('%s is refused with 415 unsupported_media_type and nothing is stored', async (_case, content, fileName) => {
    const before = await allCallRows(testApp.services);
    const response = await postUpload(alice(), uploadForm(content, fileName));

    expect(response.status).toBe(415);
    expect((await errorOf(response)).code).toBe('unsupported_media_type');
    expect(await allCallRows(testApp.services)).toBe(before);
    expect(tempFiles(testApp.dataDir)).toEqual([]);
  });

  test('an empty file is refused with 400 validation_failed', async () => {
    const response = await postUpload(alice(), uploadForm(Buffer.alloc(0), 'call.wav'));
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.code).toBe('validation_failed');
    expect(error.details?.fields).toEqual([expect.objectContaining({ path: 'file' })]);
    expect(tempFiles(testApp.dataDir)).toEqual([]);
  });

  test('a form without a file part is refused with 400 validation_failed naming the file field', async () => {
    const form = new FormData();
    form.append('title', 'No audio here');
    const response = await postUpload(alice(), form);

    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.code).toBe('validation_failed');
    expect(error.details?.fields).toEqual([{ path: 'file', message: expect.any(String) }]);
  });

  test('a second file part is refused with 400 validation_failed and nothing is stored', async () => {
    const before = await allCallRows(testApp.services);
    const form = uploadForm(wavFile(0.1), 'first.wav');
    form.append('file', new Blob([new Uint8Array(wavFile(0.1))]), 'second.wav');
    const response = await postUpload(alice(), form);

    expect(response.status).toBe(400);
    expect((await errorOf(response)).code).toBe('validation_failed');
    expect(await allCallRows(testApp.services)).toBe(before);
    expect(tempFiles(testApp.dataDir)).toEqual([]);
  });

  test('a file sent under another part name is refused with 400 validation_failed naming that part', async () => {
    const form = new FormData();
    form.append('audio', new Blob([new Uint8Array(wavFile(0.1))]), 'call.wav');
    const response = await postUpload(alice(), form);

    expect(response.status).toBe(400);
    expect((await errorOf(response)).details?.fields).toEqual([expect.objectContaining({ path: 'audio' })]);
  });

  test('a JSON body instead of a multipart form is refused with 415 unsupported_content_type', async () => {
    const response = await alice()('/api/calls/analyze', {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ title: 'x' }),
    });
    expect(response.status).toBe(415);
    expect((await errorOf(response)).code).toBe('unsupported_content_type');
  });

  test('a raw audio body (not a form) is refused with 415 unsupported_content_type', async () => {
    const response = await alice()('/api/calls/analyze', {
      method: 'POST', headers: { 'content-type': 'audio/wav' }, body: new Uint8Array(wavFile(0.1)),
    });
    expect(response.status).toBe(415);
    expect((await errorOf(response)).code).toBe('unsupported_content_type');
  });
});

describe('the metadata part', () => {
  test('its fields are stored and shown in the call detail', async () => {
    const accepted = await acceptedUpload(uploadForm(wavFile(0.1), 'call.wav', {
      metadata: {
        title: 'Quarterly review', contactName: 'Sheila Park', phoneNumber: '+1 555 010 0199',
        direction: 'INCOMING', recordedAt: '2025-03-04T10:15:00Z', durationSeconds: 312, organization: 'Acme',
      },
    }));

    expect(await detailOf(accepted.callId)).toMatchObject({
      callId: accepted.callId, title: 'Quarterly review', contactName: 'Sheila Park', phoneNumber: '+1 555 010 0199',
      direction: 'INCOMING', recordedAt: '2025-03-04T10:15:00.000Z', durationSeconds: 312, status: 'QUEUED', errorReason: null,
    });
  });

  test('a recording time with a UTC offset is shown in UTC with a trailing Z', async () => {
    const accepted = await acceptedUpload(uploadForm(wavFile(0.1), 'call.wav', { metadata: { recordedAt: '2025-03-04T12:15:00+02:00' } }));
    expect((await detailOf(accepted.callId)).recordedAt).toBe('2025-03-04T10:15:00.000Z');
  });

  test('sent as a plain text field it is read the same way', async () => {
    const form = new FormData();
    form.append('metadata', JSON.stringify({ contactName: 'Omar', direction: 'OUTGOING' }));
    form.append('file', new Blob([new Uint8Array(wavFile(0.1))]), 'call.wav');
    const accepted = await acceptedUpload(form);

    expect(await detailOf(accepted.callId)).toMatchObject({ title: 'Call with Omar', contactName: 'Omar', direction: 'OUTGOING' });
  });

  test('when present, flat fields are ignored (even invalid ones)', async () => {
    const accepted = await acceptedUpload(uploadForm(wavFile(0.1), 'call.wav', {
      metadata: { contactName: 'Priya' },
      fields: { title: 'Flat title', contactName: 'Flat contact', direction: 'SIDEWAYS', durationSeconds: 'long', fileName: 'renamed.mp3' },
    }));

    const detail = await detailOf(accepted.callId);
    expect(detail).toMatchObject({ title: 'Call with Priya', contactName: 'Priya', direction: 'UNKNOWN' });
    expect(detail).not.toHaveProperty('durationSeconds');
  });

  test('malformed JSON is refused with 400 validation_failed', async () => {
    const before = await allCallRows(testApp.services);
    const response = await postUpload(alice(), uploadForm(wavFile(0.1), 'call.wav', { metadata: '{"contactName": "Sheila"' }));

    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.code).toBe('validation_failed');
    expect(error.details?.fields).toEqual([expect.objectContaining({ path: 'metadata' })]);
    expect(await allCallRows(testApp.services)).toBe(before);
    expect(tempFiles(testApp.dataDir)).toEqual([]);
  });

  test.each([
    ['a JSON array', '[1, 2]'],
    ['a JSON string', '"Sheila"'],
    ['JSON null', 'null'],
  ])('%s instead of an object is refused with 400 validation_failed', async (_case, metadata) => {
    const response = await postUpload(alice(), uploadForm(wavFile(0.1), 'call.wav', { metadata }));
    expect(response.status).toBe(400);
    expect((await errorOf(response)).code).toBe('validation_failed');
  });

  test.each([
    ['direction', { direction: 'SIDEWAYS' }],
    ['durationSeconds', { durationSeconds: -1 }],
    ['durationSeconds', { durationSeconds: 12.5 }],
    ['durationSeconds', { durationSeconds: '30' }],
    ['recordedAt', { recordedAt: 'yesterday' }],
    ['phoneNumber', { phoneNumber: 'abc' }],
    ['title', { title: '' }],
    ['contactName', { contactName: 42 }],
  ])('a wrong %s is refused with 400 and a field path under metadata/', async (field, metadata) => {
    const before = await allCallRows(testApp.services);
    const response = await postUpload(alice(), uploadForm(wavFile(0.1), 'call.wav', { metadata }));

    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.code).toBe('validation_failed');
    expect(error.details?.fields?.map((problem) => problem.path)).toContain(`metadata/${field}`);
    expect(await allCallRows(testApp.services)).toBe(before);
    expect(tempFiles(testApp.dataDir)).toEqual([]);
  });

  test('larger than 64 KiB is refused with 400 validation_failed', async () => {
    const response = await postUpload(alice(), uploadForm(wavFile(0.1), 'call.wav', { metadata: { title: 'x'.repeat(70_000) } }));
    expect(response.status).toBe(400);
    expect((await errorOf(response)).details?.fields).toEqual([expect.objectContaining({ path: 'metadata' })]);
    expect(tempFiles(testApp.dataDir)).toEqual([]);
  });

  test('unknown fields are ignored, so newer clients keep working', async () => {
    const accepted = await acceptedUpload(uploadForm(wavFile(0.1), 'call.wav', { metadata: { contactName: 'Lee', mood: 'cheerful' } }));
    expect((await detailOf(accepted.callId)).contactName).toBe('Lee');
  });
});

describe('flat fields (no metadata part)', () => {
  test('are used for the call, durationSeconds given as text', async () => {
    const accepted = await acceptedUpload(uploadForm(wavFile(0.1), 'call.wav', {
      fields: {
        title: 'Supplier call', contactName: 'Marta', phoneNumber: '+44 20 7946 0000', direction: 'OUTGOING',
        durationSeconds: '95', recordedAt: '2025-01-02T03:04:05Z',
      },
    }));

    expect(await detailOf(accepted.callId)).toMatchObject({
      title: 'Supplier call', contactName: 'Marta', phoneNumber: '+44 20 7946 0000', direction: 'OUTGOING',
      durationSeconds: 95, recordedAt: '2025-01-02T03:04:05.000Z',
    });
  });

  test('fileName replaces the file part\'s own name, for the title and the extension check', async () => {
    const accepted = await acceptedUpload(uploadForm(mp3File(), 'blob', { fields: { fileName: 'Team sync.mp3' } }));
    expect((await detailOf(accepted.callId)).title).toBe('Team sync');

    const mismatch = await postUpload(alice(), uploadForm(mp3File(), 'call.mp3', { fields: { fileName: 'Team sync.wav' } }));
    expect(mismatch.status).toBe(415);
  });

  test.each([
    ['direction', { direction: 'SIDEWAYS' }],
    ['durationSeconds', { durationSeconds: '-1' }],
    ['durationSeconds', { durationSeconds: 'ninety' }],
    ['phoneNumber', { phoneNumber: 'abc' }],
  ])('a wrong %s is refused with 400 validation_failed naming the field', async (field, fields) => {
    const response = await postUpload(alice(), uploadForm(wavFile(0.1), 'call.wav', { fields }));
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.code).toBe('validation_failed');
    expect(error.details?.fields?.some((problem) => problem.path.endsWith(`/${field}`))).toBe(true);
  });
});

describe('the title of an uploaded call', () => {
  test.each([
    ['the given title', { metadata: { title: 'Given title', contactName: 'Ann' } }, 'call.wav', 'Given title'],
    ['"Call with <contact>" without a title', { metadata: { contactName: 'Ann Lee' } }, 'call.wav', 'Call with Ann Lee'],
    ['the file name without extension otherwise', { metadata: {} }, 'weekly-standup.wav', 'weekly-standup'],
    ['the file name without extension from flat fields too', {}, 'budget.v2.wav', 'budget.v2'],
  ])('is %s', async (_case, parts, fileName, expectedTitle) => {
    const accepted = await acceptedUpload(uploadForm(wavFile(0.1), fileName, parts));
    expect((await detailOf(accepted.callId)).title).toBe(expectedTitle);
  });
});

describe('the size limit', () => {
  test('a 60 MB upload is refused with 413 payload_too_large and leaves no file, row or object behind', async () => {
    const rowsBefore = await allCallRows(testApp.services);
    const foldersBefore = callFolders(testApp.dataDir);
    const huge = Buffer.alloc(60 * 1024 * 1024);
    huge.set(wavFile(0).subarray(0, 44));

    const response = await postUpload(alice(), uploadForm(huge, 'huge.wav'));

    expect(response.status).toBe(413);
    const error = await errorOf(response);
    expect(error.code).toBe('payload_too_large');
    expect(tempFiles(testApp.dataDir)).toEqual([]);
    expect(await allCallRows(testApp.services)).toBe(rowsBefore);
    expect(callFolders(testApp.dataDir)).toEqual(foldersBefore);
  });

  test('MAX_FILE_SIZE sets the limit: a file just over it is refused, one at it accepted', async () => {
    const smallLimitApp = await startTestApp({ MAX_FILE_SIZE: '4096' });
    try {
      const client = smallLimitApp.as('alice');
      const atLimit = Buffer.concat([wavFile(0).subarray(0, 44), Buffer.alloc(4096 - 44)]);
      const overLimit = Buffer.concat([atLimit, Buffer.alloc(1)]);

      const refused = await postUpload(client, uploadForm(overLimit, 'call.wav'));
      expect(refused.status).toBe(413);
      expect((await errorOf(refused)).code).toBe('payload_too_large');
      expect(tempFiles(smallLimitApp.dataDir)).toEqual([]);
      expect(callFolders(smallLimitApp.dataDir)).toEqual([]);

      const accepted = await postUpload(client, uploadForm(atLimit, 'call.wav'));
      expect(accepted.status).toBe(202);
    } finally {
      await smallLimitApp.close();
    }
  });
});

describe('streaming to disk', () => {
  const boundary = 'callscope-test-boundary';

  /** Starts an upload over plain HTTP and sends only the first part of the file. */
  function startUpload(firstBytes: Buffer) {
    const request = httpRequest(`${testApp.baseUrl}/api/calls/analyze`, {
      method: 'POST',
      headers: { 'x-local-user-id': 'alice', 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    const response = new Promise<IncomingMessage>((resolve, reject) => {
      request.on('response', resolve);
      request.on('error', reject);
    });
    request.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.wav"\r\n\r\n`);
    request.write(firstBytes);
    return { request, response };
  }

  /** Waits (up to 5 s) until `condition` holds; the test fails if it never does. */
  async function eventually(condition: () => boolean): Promise<void> {
    for (let attempt = 0; attempt < 250 && !condition(); attempt += 1) await sleep(20);
    expect(condition()).toBe(true);
  }

  const partialUploads = () => tempFiles(testApp.dataDir).filter((name) => name.endsWith('.upload'));
  const bytesOnDisk = () => partialUploads().reduce((sum, name) => sum + statSync(join(testApp.dataDir, 'tmp', name)).size, 0);

  test('an upload still arriving is written to tmp/*.upload, then moved into the call folder', async () => {
    const audio = wavFile(1);
    const { request, response } = startUpload(audio.subarray(0, 16_000));
    await eventually(() => bytesOnDisk() >= 16_000);

    request.end(Buffer.concat([audio.subarray(16_000), Buffer.from(`\r\n--${boundary}--\r\n`)]));
    const answer = await response;
    const chunks: Buffer[] = [];
    for await (const chunk of answer) chunks.push(chunk as Buffer);
    const accepted = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Accepted;

    expect(answer.statusCode).toBe(202);
    expect(tempFiles(testApp.dataDir)).toEqual([]);
    expect(readFileSync(storedAudioPath(testApp.dataDir, accepted.callId, 'wav'))).toEqual(audio);
  });

  test('an upload cut off by the client leaves no partial file, row or folder', async () => {
    const rowsBefore = await allCallRows(testApp.services);
    const foldersBefore = callFolders(testApp.dataDir);
    const { request, response } = startUpload(wavFile(1).subarray(0, 16_000));
    response.catch(() => undefined);
    await eventually(() => bytesOnDisk() > 0);

    request.destroy();

    await eventually(() => tempFiles(testApp.dataDir).length === 0);
    expect(await allCallRows(testApp.services)).toBe(rowsBefore);
    expect(callFolders(testApp.dataDir)).toEqual(foldersBefore);
  });
});
