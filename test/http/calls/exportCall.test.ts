import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { errorOf } from '../../helpers/callInspection.js';
import { docxDocument } from '../../helpers/docxText.js';
import { seedCall } from '../../helpers/seedCalls.js';
import { startTestApp, type TestApp } from '../../helpers/startTestApp.js';

let testApp: TestApp;
// A fixed zone, so the recording date in names and headers does not depend on the machine's.
beforeAll(async () => { testApp = await startTestApp({ ANALYSIS_TIME_ZONE: 'America/New_York' }); });
afterAll(async () => { await testApp.close(); });

const alice = () => testApp.as('alice');
/** seedCall records the call a minute before this: 2026-11-20 14:05 in New York. */
const createdAt = Date.parse('2026-11-20T19:06:00.000Z');

function exportOf(callId: string, format: string, user = 'alice'): Promise<Response> {
  return testApp.as(user)(`/api/calls/${callId}/export?format=${format}`);
}

async function dentistCall(options: Parameters<typeof seedCall>[2] = {}): Promise<string> {
  return seedCall(testApp.services, 'alice', { title: 'Dentist appointment', contactName: 'Sheila', createdAt, ...options });
}

describe('GET /api/calls/{id}/export', () => {
  test.each([
    ['txt', 'text/plain; charset=utf-8'],
    ['srt', 'application/x-subrip; charset=utf-8'],
    ['vtt', 'text/vtt; charset=utf-8'],
    ['docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
    ['json', 'application/json; charset=utf-8'],
  ])('answers %s as %s, an attachment named after the recording date and the title, kept out of caches', async (format, contentType) => {
    const response = await exportOf(await dentistCall(), format);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(contentType);
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="2026-11-20-dentist-appointment.${format}"`);
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(0);
  });

  test('txt: the header, then one timestamped line per segment with the speaker\'s name', async () => {
    const response = await exportOf(await dentistCall(), 'txt');
    expect(await response.text()).toBe([
      'Dentist appointment',
      'Date: 2026-11-20 14:05 (America/New_York)',
      'Direction: outgoing',
      'Duration: 00:00:30',
      'Participants: Diane, Sheila',
      '',
      '[00:00:00] Diane: Hi, this is Diane.',
      '[00:00:04] Sheila: Hello Diane, Sheila here.',
      '',
    ].join('\n'));
  });

  test('srt and vtt: the transcript as timed cues', async () => {
    const callId = await dentistCall();
    expect(await (await exportOf(callId, 'srt')).text()).toBe(
      '1\n00:00:00,000 --> 00:00:04,000\nDiane: Hi, this is Diane.\n\n2\n00:00:04,000 --> 00:00:08,000\nSheila: Hello Diane, Sheila here.\n',
    );
    expect(await (await exportOf(callId, 'vtt')).text()).toBe(
      'WEBVTT\n\nseg_0001\n00:00:00.000 --> 00:00:04.000\n<v Diane>Hi, this is Diane.\n\nseg_0002\n00:00:04.000 --> 00:00:08.000\n<v Sheila>Hello Diane, Sheila here.\n',
    );
  });

  test('json: the call, transcript, analysis and action items exactly as their own endpoints answer them', async () => {
    const callId = await dentistCall();
    const exported = await (await exportOf(callId, 'json')).json() as Record<string, unknown>;
    const own = async (path: string) => (await alice()(path)).json() as Promise<unknown>;
    const actions = (await own('/api/actions')) as { callRecordId: string }[];
    expect(Object.keys(exported)).toEqual(['call', 'transcript', 'analysis', 'actionItems']);
    expect(exported.call).toEqual(await own(`/api/calls/${callId}`));
    expect(exported.transcript).toEqual(await own(`/api/calls/${callId}/transcript`));
    expect(exported.analysis).toEqual(await own(`/api/calls/${callId}/analysis`));
    expect(exported.actionItems).toEqual(expect.arrayContaining(actions.filter((item) => item.callRecordId === callId)));
    expect(exported.actionItems).toHaveLength(2);
  });

  test('docx: a Word document with the title, participants, summary, action items with their current status and the transcript', async () => {
    const callId = await dentistCall();
    const [item] = (await (await alice()('/api/actions')).json() as { id: string; title: string; callRecordId: string }[])
      .filter((candidate) => candidate.callRecordId === callId && candidate.title === 'Send the contract');
    const patched = await alice()(`/api/actions/${item!.id}`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ status: 'COMPLETED' }) });
    expect(patched.status).toBe(200);

    const response = await exportOf(callId, 'docx');
    const { xml, text } = await docxDocument(new Uint8Array(await response.arrayBuffer()));
    expect(xml).toContain('Dentist appointment');
    const lines = text.split('\n');
    expect(lines).toEqual(expect.arrayContaining([
      'Dentist appointment',
      'Participants: Diane, Sheila',
      'Contract discussed',
      'Send the contract', 'Diane', '2026-12-01', 'Completed',
      'Call back about pricing', 'Pending',
      '[00:00:04] Sheila: Hello Diane, Sheila here.',
    ]));
  });

  test('docx of a call with a v1 analysis shows its prose summary', async () => {
    const { text } = await docxDocument(new Uint8Array(await (await exportOf(await dentistCall({ analysisVersion: 1 }), 'docx')).arrayBuffer()));
    expect(text.split('\n')).toContain('Diane and Sheila discussed the contract.');
  });

  test('follows the stored transcript: a renamed speaker is exported under the new name', async () => {
    const callId = await dentistCall();
    const artifact = await testApp.services.artifacts.find(callId, 'transcript');
    const stored = await testApp.services.store.readJson<{ speakers: { displayName: string }[]; segments: { speakerDisplayName: string }[] }>(artifact!.objectKey);
    stored.speakers[1]!.displayName = 'Sheila Brown';
    for (const segment of stored.segments) if (segment.speakerDisplayName === 'Sheila') segment.speakerDisplayName = 'Sheila Brown';
    await testApp.services.store.writeJson(artifact!.objectKey, stored);

    const text = await (await exportOf(callId, 'txt')).text();
    expect(text).toContain('Participants: Diane, Sheila Brown');
    expect(text).toContain('[00:00:04] Sheila Brown: Hello Diane, Sheila here.');
  });

  test('a non-ASCII title gets an ASCII file name and an RFC 5987 UTF-8 one', async () => {
    const response = await exportOf(await dentistCall({ title: 'Zahnarzt Müller' }), 'srt');
    expect(response.headers.get('content-disposition')).toBe(
      'attachment; filename="2026-11-20-zahnarzt-muller.srt"; filename*=UTF-8\'\'2026-11-20-zahnarzt-m%C3%BCller.srt',
    );
  });

  test('accepts the id in upper case', async () => {
    const callId = await dentistCall();
    expect((await exportOf(callId.toUpperCase(), 'txt')).status).toBe(200);
  });

  test('answers 404 call_not_found for another user\'s call and for an unknown id', async () => {
    const bobCall = await seedCall(testApp.services, 'bob');
    for (const callId of [bobCall, randomUUID()]) {
      const response = await exportOf(callId, 'txt');
      expect(response.status).toBe(404);
      expect((await errorOf(response)).code).toBe('call_not_found');
    }
    expect((await exportOf(bobCall, 'txt', 'bob')).status).toBe(200);
  });

  test.each(['QUEUED', 'TRANSCRIBING', 'ANALYZING', 'FAILED'] as const)('answers 422 call_not_completed while the call is %s', async (status) => {
    const response = await exportOf(await dentistCall({ status }), 'docx');
    expect(response.status).toBe(422);
    const error = await errorOf(response);
    expect(error.code).toBe('call_not_completed');
    expect(error.details?.status).toBe(status);
  });

  test.each([['a missing format', ''], ['an unknown format', 'pdf'], ['a format in upper case', 'TXT'], ['an empty format', '&format=']])(
    'answers 400 validation_failed for %s', async (_case, format) => {
      const callId = await dentistCall();
      const response = await alice()(`/api/calls/${callId}/export${format === '' ? '' : `?format=${format}`}`);
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect((await errorOf(response)).code).toBe('validation_failed');
    },
  );

  test('answers 400 validation_failed for an id that is not a UUID', async () => {
    const response = await alice()('/api/calls/not-a-uuid/export?format=txt');
    expect(response.status).toBe(400);
    expect((await errorOf(response)).code).toBe('validation_failed');
  });

  test('writes no transcript text to the logs', async () => {
    await exportOf(await dentistCall(), 'txt');
    expect(JSON.stringify(testApp.logLines)).not.toContain('Hello Diane');
  });
});

describe('the OpenAPI entry', () => {
  test('describes each format\'s content, the file name header and the errors', async () => {
    const document = await (await fetch(`${testApp.baseUrl}/docs/json`)).json() as {
      paths: Record<string, Record<string, { operationId: string; responses: Record<string, { content?: Record<string, unknown>; headers?: Record<string, unknown>; $ref?: string }> }>>;
    };
    const operation = document.paths['/api/calls/{id}/export']!.get!;
    expect(operation.operationId).toBe('exportCall');
    expect(Object.keys(operation.responses['200']!.content!)).toEqual([
      'text/plain', 'application/x-subrip', 'text/vtt', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'application/json',
    ]);
    expect(Object.keys(operation.responses['200']!.headers!)).toEqual(expect.arrayContaining(['Content-Disposition', 'X-Request-Id']));
    for (const status of ['400', '401', '404', '422']) expect(operation.responses[status]?.$ref, status).toBe(`#/components/responses/Error${status}`);
  });
});
