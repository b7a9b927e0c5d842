import { describe, expect, test } from 'vitest';
import { packSourceText } from '../../../../src/pipeline/analysis/actionItems/packSourceText.js';
import { reconcileOwner } from '../../../../src/pipeline/analysis/actionItems/reconcileOwner.js';
import { contractCall } from '../analysisFixtures.js';

const transcript = contractCall();
const [diane, sheila] = transcript.speakers;

describe('owner reconciliation (the specification\'s rule)', () => {
  test('an ownerSpeakerId among the speakers wins; label, display name and role come from that speaker', () => {
    expect(reconcileOwner({ ownerSpeakerId: 'spk_1', ownerSpeakerLabel: 'Diane', ownerDisplayName: 'Someone', ownerRole: 'USER' }, transcript.speakers))
      .toEqual({ ownerSpeakerId: 'spk_1', ownerSpeakerLabel: sheila!.label, ownerDisplayName: sheila!.displayName, ownerRole: 'CONTACT' });
  });

  test('otherwise the label is matched case-insensitively against labels and display names', () => {
    expect(reconcileOwner({ ownerSpeakerId: 'spk_9', ownerSpeakerLabel: 'DIANE', ownerDisplayName: null, ownerRole: null }, transcript.speakers))
      .toMatchObject({ ownerSpeakerId: diane!.speakerId, ownerRole: 'USER' });
    expect(reconcileOwner({ ownerSpeakerId: null, ownerSpeakerLabel: 'sheila ross', ownerDisplayName: null, ownerRole: null }, transcript.speakers))
      .toMatchObject({ ownerSpeakerId: sheila!.speakerId });
  });

  test('when nothing matches, every owner field is null: an owner is never invented', () => {
    expect(reconcileOwner({ ownerSpeakerId: 'spk_5', ownerSpeakerLabel: 'Robert', ownerDisplayName: 'Robert', ownerRole: 'CONTACT' }, transcript.speakers))
      .toEqual({ ownerSpeakerId: null, ownerSpeakerLabel: null, ownerDisplayName: null, ownerRole: null });
  });
});

describe('sourceText packing', () => {
  const segments = new Map(transcript.segments.map((segment) => [segment.id, segment]));

  test('priority, cited segments and the first cited segment as the excerpt, in one parseable line', () => {
    expect(packSourceText({ priority: 'high', sourceSegmentIds: ['seg_0003', 'seg_0004'] }, segments))
      .toBe('priority=high; segments=seg_0003,seg_0004; excerpt="Great. I will send the signed copy to sheila dot ross at acme dot com by Friday."');
  });

  test('quotes inside the excerpt become single quotes; long excerpts are cut at a word with an ellipsis; no citation, no excerpt', () => {
    const long = new Map([['seg_0001', { ...transcript.segments[0]!, text: `She said "fine". ${'word '.repeat(80)}` }]]);
    const packed = packSourceText({ priority: 'low', sourceSegmentIds: ['seg_0001'] }, long);
    expect(packed).toMatch(/^priority=low; segments=seg_0001; excerpt="She said 'fine'\. (word )+word…"$/);
    expect(packed.length).toBeLessThan(260);
    expect(packSourceText({ priority: 'medium', sourceSegmentIds: [] }, segments)).toBe('priority=medium; segments=; excerpt=""');
  });
});
