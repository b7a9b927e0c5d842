import { describe, expect, test } from 'vitest';
import {
  applySpeakerCorrection, applySpeakerCorrections, withSpeakerCorrections, type ActionItemOwnerFields, type CallDocuments,
} from '../../../src/domain/speakerCorrections/applySpeakerCorrection.js';
import type { Transcript } from '../../../src/domain/transcripts/transcriptSchema.js';
import { analysisV1Fixture, analysisV2Fixture, transcriptFixture } from '../../helpers/seedCalls.js';

const callId = '00000000-0000-4000-8000-000000000001';

function documents(analysis: Record<string, unknown> = analysisV2Fixture()): CallDocuments {
  const item: ActionItemOwnerFields = {
    title: 'Send Sheila the contract', description: 'Diane sends it to Sheila by Friday', ownerSpeakerId: 'spk_0', ownerSpeakerLabel: 'Diane',
    ownerDisplayName: 'Diane', ownerRole: 'USER', intentMetadata: JSON.stringify({ toName: 'Sheila', attendees: [{ name: 'Sheila' }] }),
  };
  return { transcript: transcriptFixture(callId, 0) as unknown as Transcript, analysis, actionItems: [item] };
}

const withReferences = () => ({
  ...analysisV2Fixture(),
  keyDiscussionPoints: [{ text: 'Sheila asks about pricing', topic: 'pricing', phase: 'middle', speakerId: 'spk_1', speakerLabel: 'Sheila', speakerDisplayName: 'Sheila', speakerRole: 'CONTACT', sourceSegmentIds: ['seg_0002'] }],
  decisions: [{ text: 'Sheila decides', madeBySpeakerId: 'spk_1', sourceSegmentIds: ['seg_0002'] }],
  peopleMentioned: [{ name: 'Sheila', relation: 'participant', role: null, speakerId: 'spk_1', sourceSegmentIds: ['seg_0002'] }],
  actionItems: [{ title: 'Send Sheila the contract', description: null, dueDate: null, priority: 'medium', ownerSpeakerId: 'spk_1', ownerSpeakerLabel: 'Sheila', ownerDisplayName: 'Sheila', ownerRole: 'CONTACT', sourceSegmentIds: ['seg_0002'], intent: 'task', intentMetadata: {} }],
});

describe('applySpeakerCorrection', () => {
  test('a rename reaches every reference and the old name as a whole word, never the spoken text or other words', () => {
    const original = documents(withReferences());
    const corrected = applySpeakerCorrection(original, { kind: 'label', speakerId: 'spk_1', displayName: 'Shayla' });
    if (typeof corrected === 'string') throw new Error(corrected);
    const analysis = corrected.analysis as ReturnType<typeof withReferences>;
    expect(analysis.keyDiscussionPoints[0]).toMatchObject({ text: 'Shayla asks about pricing', speakerDisplayName: 'Shayla', speakerLabel: 'Shayla', speakerRole: 'CONTACT' });
    expect(analysis.peopleMentioned[0]!.name).toBe('Shayla');
    expect(analysis.actionItems[0]).toMatchObject({ title: 'Send Shayla the contract', ownerDisplayName: 'Shayla' });
    expect(corrected.analysis.oneLineSummary).toBe('Diane agrees to send Shayla the contract.');
    expect(corrected.actionItems[0]).toMatchObject({ title: 'Send Shayla the contract', description: 'Diane sends it to Shayla by Friday', ownerDisplayName: 'Diane' });
    expect(JSON.parse(corrected.actionItems[0]!.intentMetadata!)).toEqual({ toName: 'Shayla', attendees: [{ name: 'Shayla' }] });
    expect(corrected.transcript.segments[1]!.text).toBe('Hello Diane, Sheila here.');
    // Inputs are untouched.
    expect(original.transcript.speakers[1]!.displayName).toBe('Sheila');
    expect((original.analysis as ReturnType<typeof withReferences>).keyDiscussionPoints[0]!.speakerDisplayName).toBe('Sheila');
  });

  test('a name inside another word is left alone', () => {
    const base = documents();
    const corrected = applySpeakerCorrection({ ...base, actionItems: [{ ...base.actionItems[0]!, title: 'Check Dianella and Diane\'s notes' }] }, { kind: 'label', speakerId: 'spk_0', displayName: 'Dee' });
    if (typeof corrected === 'string') throw new Error(corrected);
    expect(corrected.actionItems[0]!.title).toBe('Check Dianella and Dee\'s notes');
  });

  test('a name too long for a v2 field keeps the text and still corrects the references', () => {
    const analysis = { ...withReferences(), oneLineSummary: `${'x'.repeat(290)} Sheila` };
    const corrected = applySpeakerCorrection(documents(analysis), { kind: 'label', speakerId: 'spk_1', displayName: 'Sheila Montgomery-Fairweather' });
    if (typeof corrected === 'string') throw new Error(corrected);
    const stored = corrected.analysis as typeof analysis;
    expect(stored.oneLineSummary).toBe(analysis.oneLineSummary);
    expect(stored.keyDiscussionPoints[0]!.speakerDisplayName).toBe('Sheila Montgomery-Fairweather');
  });

  test('a v1 analysis gets the name in its prose', () => {
    const corrected = applySpeakerCorrection(documents(analysisV1Fixture()), { kind: 'label', speakerId: 'spk_1', displayName: 'Sheila Brown' });
    if (typeof corrected === 'string') throw new Error(corrected);
    expect(corrected.analysis.summary).toBe('Diane and Sheila Brown discussed the contract.');
  });

  test('a merge moves references to the speaker that stays and counts the speakers again', () => {
    const corrected = applySpeakerCorrection(documents(withReferences()), { kind: 'merge', speakerId: 'spk_1', intoSpeakerId: 'spk_0' });
    if (typeof corrected === 'string') throw new Error(corrected);
    const analysis = corrected.analysis as ReturnType<typeof withReferences>;
    expect(analysis.decisions[0]!.madeBySpeakerId).toBe('spk_0');
    expect(analysis.keyDiscussionPoints[0]).toMatchObject({ speakerId: 'spk_0', speakerDisplayName: 'Diane', speakerRole: 'USER' });
    expect(corrected.transcript.speakers).toHaveLength(1);
    expect(corrected.transcript.speakerResolution).toMatchObject({ totalSpeakerCount: 1, resolvedSpeakerCount: 1 });
  });

  test('refusals: unknown speakers and a merge into itself', () => {
    expect(applySpeakerCorrection(documents(), { kind: 'label', speakerId: 'spk_5', role: 'USER' })).toBe('speaker_not_found');
    expect(applySpeakerCorrection(documents(), { kind: 'merge', speakerId: 'spk_0', intoSpeakerId: 'spk_5' })).toBe('speaker_not_found');
    expect(applySpeakerCorrection(documents(), { kind: 'merge', speakerId: 'spk_0', intoSpeakerId: 'spk_0' })).toBe('same_speaker');
  });
});

describe('corrections applied again (reprocess)', () => {
  test('in order, skipping those whose speakers the new run lacks', () => {
    const { documents: corrected, applied, skipped } = applySpeakerCorrections(documents(), [
      { kind: 'label', speakerId: 'spk_1', displayName: 'Sheila Brown' },
      { kind: 'label', speakerId: 'spk_4', displayName: 'Ghost' },
      { kind: 'label', speakerId: 'spk_1', role: 'UNKNOWN' },
    ]);
    expect({ applied, skipped }).toEqual({ applied: 2, skipped: 1 });
    expect(corrected.transcript.speakers[1]).toMatchObject({ displayName: 'Sheila Brown', role: 'UNKNOWN', labelSource: 'MANUAL' });
  });

  test('withSpeakerCorrections fills the pipeline\'s optional item fields and changes nothing without corrections', () => {
    const results = { transcript: transcriptFixture(callId, 0), analysis: analysisV2Fixture(), actionItems: [{ id: 'a', title: 'Call Sheila', ownerSpeakerId: 'spk_1' }] };
    expect(withSpeakerCorrections(results, [])).toBe(results);
    const corrected = withSpeakerCorrections(results, [{ kind: 'label', speakerId: 'spk_1', displayName: 'Sheila Brown' }]);
    expect(corrected.actionItems[0]).toMatchObject({ id: 'a', title: 'Call Sheila Brown', ownerDisplayName: 'Sheila Brown', ownerRole: 'CONTACT' });
  });
});
