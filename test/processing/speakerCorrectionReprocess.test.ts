import { describe, expect, test } from 'vitest';
import { ProcessingQueue } from '../../src/processing/ProcessingQueue.js';
import { testPipeline, uploadCall, useEngineTestApp, waitForStatus } from '../helpers/processingHarness.js';

const setup = useEngineTestApp();
const alice = () => setup.testApp.as('alice');
const json = (method: string, body: unknown): RequestInit => ({ method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('speaker corrections and reprocess', () => {
  test('a reprocessed call gets its manual corrections again, in order, on its new transcript, analysis and action items', async () => {
    const callId = await uploadCall(alice());
    const engine = await setup.startEngine(testPipeline());
    await waitForStatus(alice(), callId, 'COMPLETED');
    expect((await alice()(`/api/calls/${callId}/speakers/spk_1`, json('PATCH', { displayName: 'Sheila Brown' }))).status).toBe(200);
    expect((await alice()(`/api/calls/${callId}/speakers/spk_0`, json('PATCH', { role: 'CONTACT' }))).status).toBe(200);
    expect((await alice()(`/api/calls/${callId}/speakers/merge`, json('POST', { from: 'spk_1', into: 'spk_0' }))).status).toBe(200);

    const { services } = setup.testApp;
    expect(await new ProcessingQueue(services.database.sql).requeue(callId, services.clock())).toBe('queued');
    void engine.engine.wake();
    await waitForStatus(alice(), callId, 'COMPLETED');

    const transcript = (await (await alice()(`/api/calls/${callId}/transcript`)).json()) as { speakers: { speakerId: string; displayName: string; role: string; labelSource: string }[]; segments: { speakerId: string }[] };
    expect(transcript.speakers).toEqual([expect.objectContaining({ speakerId: 'spk_0', displayName: 'Diane', role: 'CONTACT', labelSource: 'MANUAL' })]);
    expect(new Set(transcript.segments.map((segment) => segment.speakerId))).toEqual(new Set(['spk_0']));
    const analysis = (await (await alice()(`/api/calls/${callId}/analysis`)).json()) as { oneLineSummary: string };
    // The summary named Sheila; after her rename and merge into Diane it names who stands for her now.
    expect(analysis.oneLineSummary).toBe('Diane agrees to send Diane the contract.');
    const items = ((await (await alice()('/api/actions')).json()) as { callRecordId: string; ownerRole: string }[]).filter((item) => item.callRecordId === callId);
    expect(items.length).toBeGreaterThan(0);
    for (const item of items) expect(item.ownerRole).toBe('CONTACT');
  });
});
