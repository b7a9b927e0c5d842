import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { errorOf } from '../../helpers/callInspection.js';
import { seedCall } from '../../helpers/seedCalls.js';
import { startTestApp, type TestApp } from '../../helpers/startTestApp.js';

interface TranscriptBody {
  cleanText: string;
  speakers: { speakerId: string; displayName: string; label: string; role: string; confidence: string; labelSource: string }[];
  segments: { id: string; speakerId: string; speakerDisplayName: string; role: string; text: string }[];
  speakerResolution: { totalSpeakerCount: number };
}
interface ActionBody { callRecordId: string; title: string; ownerSpeakerId: string | null; ownerDisplayName: string | null; ownerRole: string | null }

let testApp: TestApp;
beforeEach(async () => { testApp = await startTestApp(); });
afterEach(async () => { await testApp.close(); });

const alice = () => testApp.as('alice');
const json = (method: string, body: unknown): RequestInit => ({ method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const patchSpeaker = (callId: string, speakerId: string, body: unknown, client = alice()) => client(`/api/calls/${callId}/speakers/${speakerId}`, json('PATCH', body));
const merge = (callId: string, body: unknown, client = alice()) => client(`/api/calls/${callId}/speakers/merge`, json('POST', body));
const itemsOf = async (callId: string) => ((await (await alice()('/api/actions')).json()) as ActionBody[]).filter((item) => item.callRecordId === callId);

describe('PATCH /api/calls/{id}/speakers/{speakerId}', () => {
  test('a new name is MANUAL and HIGH, and follows at once in the transcript, the analysis and the action items', async () => {
    const callId = await seedCall(testApp.services, 'alice');
    const response = await patchSpeaker(callId, 'spk_1', { displayName: '  Sheila Brown ' });
    expect(response.status).toBe(200);
    const answered = (await response.json()) as TranscriptBody;
    expect(answered.speakers[1]).toMatchObject({ speakerId: 'spk_1', displayName: 'Sheila Brown', label: 'Sheila Brown', role: 'CONTACT', confidence: 'HIGH', labelSource: 'MANUAL' });
    expect(answered.speakers[0]).toMatchObject({ displayName: 'Diane', labelSource: 'GREETING_MATCH' });

    const stored = (await (await alice()(`/api/calls/${callId}/transcript`)).json()) as TranscriptBody;
    expect(stored).toEqual(answered);
    expect(stored.segments.find((segment) => segment.speakerId === 'spk_1')).toMatchObject({ speakerDisplayName: 'Sheila Brown', text: 'Hello Diane, Sheila here.' });
    expect(stored.cleanText).toBe('[00:00-00:04] Diane: Hi, this is Diane.\n[00:04-00:08] Sheila Brown: Hello Diane, Sheila here.');
    const analysis = (await (await alice()(`/api/calls/${callId}/analysis`)).json()) as { oneLineSummary: string; executiveSummary: string };
    expect(analysis.oneLineSummary).toBe('Diane agrees to send Sheila Brown the contract.');
    expect(analysis.executiveSummary).toBe('Diane and Sheila Brown discussed the contract.');
    // The call's search rows follow in the same transaction.
    const search = (await (await alice()('/api/search?q=Brown')).json()) as { items: { callId: string }[] };
    expect(search.items.map((item) => item.callId)).toEqual([callId]);
  });

  test('a role change and a rename of the owner reach the action items', async () => {
    const callId = await seedCall(testApp.services, 'alice');
    expect((await patchSpeaker(callId, 'spk_0', { role: 'CONTACT' })).status).toBe(200);
    expect((await patchSpeaker(callId, 'spk_0', { displayName: 'Diane Keller' })).status).toBe(200);
    const items = await itemsOf(callId);
    expect(items).toHaveLength(2);
    for (const item of items) expect(item).toMatchObject({ ownerSpeakerId: 'spk_0', ownerDisplayName: 'Diane Keller', ownerRole: 'CONTACT' });
    const transcript = (await (await alice()(`/api/calls/${callId}/transcript`)).json()) as TranscriptBody;
    expect(transcript.segments[0]).toMatchObject({ speakerDisplayName: 'Diane Keller', role: 'CONTACT' });
  });

  test('another user\'s call is 404, an unknown speaker 404, a call not completed 409, a bad body 400; nothing changes', async () => {
    const callId = await seedCall(testApp.services, 'alice');
    const queued = await seedCall(testApp.services, 'alice', { status: 'QUEUED' });
    const failed = await seedCall(testApp.services, 'alice', { status: 'FAILED' });
    const before = await (await alice()(`/api/calls/${callId}/transcript`)).text();

    expect((await errorOf(await patchSpeaker(callId, 'spk_1', { displayName: 'Mallory' }, testApp.as('bob')))).code).toBe('call_not_found');
    expect((await errorOf(await patchSpeaker(callId, 'spk_7', { displayName: 'Nobody' }))).code).toBe('speaker_not_found');
    const notDone = await patchSpeaker(queued, 'spk_0', { displayName: 'Early' });
    expect(notDone.status).toBe(409);
    expect(await errorOf(notDone)).toMatchObject({ code: 'call_not_correctable', details: { status: 'QUEUED' } });
    expect((await errorOf(await patchSpeaker(failed, 'spk_0', { displayName: 'Late' }))).code).toBe('call_not_correctable');
    for (const body of [{}, { displayName: '   ' }, { displayName: 'a\u0007b' }, { role: 'BOSS' }, { displayName: 'x'.repeat(121) }, { displayName: 'Ok', extra: 1 }]) {
      const response = await patchSpeaker(callId, 'spk_1', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect((await errorOf(response)).code).toBe('validation_failed');
    }
    expect((await patchSpeaker(callId, 'speaker1', { displayName: 'X' })).status).toBe(400);
    expect((await patchSpeaker('not-a-uuid', 'spk_1', { displayName: 'X' })).status).toBe(400);
    expect(await (await alice()(`/api/calls/${callId}/transcript`)).text()).toBe(before);
  });
});

describe('POST /api/calls/{id}/speakers/merge', () => {
  test('every segment of one speaker goes to the other, which keeps its name; owners follow', async () => {
    const callId = await seedCall(testApp.services, 'alice');
    const response = await merge(callId, { from: 'spk_0', into: 'spk_1' });
    expect(response.status).toBe(200);
    const transcript = (await response.json()) as TranscriptBody;
    expect(transcript.speakers.map((speaker) => speaker.speakerId)).toEqual(['spk_1']);
    expect(transcript.speakerResolution.totalSpeakerCount).toBe(1);
    expect(transcript.segments.map((segment) => [segment.id, segment.speakerId, segment.speakerDisplayName])).toEqual([
      ['seg_0001', 'spk_1', 'Sheila'], ['seg_0002', 'spk_1', 'Sheila'],
    ]);
    expect(transcript.cleanText).toBe('[00:00-00:04] Sheila: Hi, this is Diane.\n[00:04-00:08] Sheila: Hello Diane, Sheila here.');
    for (const item of await itemsOf(callId)) expect(item).toMatchObject({ ownerSpeakerId: 'spk_1', ownerDisplayName: 'Sheila', ownerRole: 'CONTACT' });
    // The merged-away speaker is gone: correcting it now is a 404.
    expect((await errorOf(await patchSpeaker(callId, 'spk_0', { displayName: 'Gone' }))).code).toBe('speaker_not_found');
  });

  test('the same speaker twice is 400, an unknown one 404, another user\'s call 404', async () => {
    const callId = await seedCall(testApp.services, 'alice');
    expect((await errorOf(await merge(callId, { from: 'spk_1', into: 'spk_1' }))).code).toBe('validation_failed');
    expect((await errorOf(await merge(callId, { from: 'spk_1', into: 'spk_9' }))).code).toBe('speaker_not_found');
    expect((await errorOf(await merge(callId, { from: 'spk_9', into: 'spk_1' }))).code).toBe('speaker_not_found');
    expect((await errorOf(await merge(callId, { from: 'spk_0', into: 'spk_1' }, testApp.as('bob')))).code).toBe('call_not_found');
    expect((await errorOf(await merge(callId, { from: 'spk_0' }))).code).toBe('validation_failed');
  });
});
