import { Value } from 'typebox/value';
import { describe, expect, test } from 'vitest';
import { AnalysisSchema, type AnalysisActionItem } from '../../../../src/domain/analysis/analysisSchema.js';
import { findViolations, groundAnalysis } from '../../../../src/pipeline/analysis/grounding/groundAnalysis.js';
import { buildGroundingCorpus } from '../../../../src/pipeline/analysis/grounding/groundingCorpus.js';
import { contractCall, contractCallWith, emptyAnalysis, recordedAt, timeZone } from '../analysisFixtures.js';

const transcript = contractCall();
const corpus = buildGroundingCorpus(transcript, { contactName: 'Sheila Ross', organization: 'Acme' }, recordedAt, timeZone);

function item(overrides: Partial<AnalysisActionItem> = {}): AnalysisActionItem {
  return {
    title: 'Send the signed copy to Sheila', description: null, dueDate: null, priority: 'medium',
    ownerSpeakerId: 'spk_0', ownerSpeakerLabel: 'Diane', ownerDisplayName: 'Diane', ownerRole: 'USER',
    sourceSegmentIds: ['seg_0003'], intent: 'email', intentMetadata: {}, ...overrides,
  };
}

describe('what the call supports passes untouched', () => {
  test('names, a spelled-out email, a spoken phone number, relative dates and amounts from the call', () => {
    const analysis = emptyAnalysis({
      executiveSummary: 'Diane will send the signed copy to Sheila by Friday. The fee is $12,500.',
      actionItems: [
        item({ dueDate: '2026-03-06', intentMetadata: { toEmail: 'sheila.ross@acme.com', toName: 'Sheila Ross' } }),
        item({ title: 'Meet with Priya Shah', intent: 'meeting', dueDate: '2026-03-10', sourceSegmentIds: ['seg_0005'], intentMetadata: { proposedAt: '2026-03-10T15:00:00+00:00', attendees: [{ name: 'Priya Shah' }] } }),
        item({ title: 'Call Sheila back if needed', intent: 'call', ownerSpeakerId: 'spk_1', sourceSegmentIds: ['seg_0004'], intentMetadata: { phoneNumber: '555 0142' } }),
      ],
      numbersAndAmounts: [{ text: '$12,500', kind: 'money', value: 12500, unit: null, currency: 'USD', context: 'contract fee', sourceSegmentIds: ['seg_0002'] }],
      peopleMentioned: [{ name: 'Priya Shah', relation: 'third_party', role: 'colleague', speakerId: null, sourceSegmentIds: ['seg_0005'] }],
    });
    expect(findViolations(analysis, corpus)).toEqual([]);
    const grounded = groundAnalysis(analysis, corpus);
    expect(grounded.analysis).toEqual(analysis);
    expect(grounded.violationsBefore).toEqual([]);
  });
});

describe('what the call does not support is removed, with a warning', () => {
  test('an invented email or phone number is removed from the intent metadata; the item stays', () => {
    const analysis = emptyAnalysis({ actionItems: [item({ intentMetadata: { toEmail: 'sheila@example.org', phoneNumber: '555 9999', subject: 'Contract' } })] });
    const grounded = groundAnalysis(analysis, corpus);
    expect(grounded.violationsBefore.map((violation) => violation.kind).sort()).toEqual(['email', 'phone']);
    expect(grounded.analysis.actionItems![0]!.intentMetadata).toEqual({ subject: 'Contract' });
    expect(grounded.violationsAfter).toEqual([]);
    expect(grounded.analysis.qualityWarnings).toEqual(['Removed statements the transcript does not support: 1 email, 1 phone']);
  });

  test('a due date no expression in the call gives is set to null', () => {
    const grounded = groundAnalysis(emptyAnalysis({ actionItems: [item({ dueDate: '2026-04-17' })] }), corpus);
    expect(grounded.analysis.actionItems![0]!.dueDate).toBeNull();
    expect(grounded.violationsBefore).toEqual([{ path: '/actionItems/0/dueDate', kind: 'date', value: '2026-04-17' }]);
  });

  test('a meeting time on a day the call never gives is removed from the metadata; its time and offset are no amounts', () => {
    const grounded = groundAnalysis(emptyAnalysis({ actionItems: [item({ intent: 'meeting', intentMetadata: { proposedAt: '2026-04-17T15:45:00+01:00', title: 'Contract review' } })] }), corpus);
    expect(grounded.violationsBefore).toEqual([{ path: '/actionItems/0/intentMetadata/proposedAt', kind: 'date', value: '2026-04-17T15:45:00+01:00' }]);
    expect(grounded.analysis.actionItems![0]!.intentMetadata).toEqual({ title: 'Contract review' });
  });

  test('a list item naming someone never mentioned, or an amount never said, is dropped', () => {
    const analysis = emptyAnalysis({
      decisions: [
        { text: 'Diane and Sheila agreed on the fee.', madeBySpeakerId: null, sourceSegmentIds: ['seg_0002'] },
        { text: 'Sheila will ask Robert Jenkins to approve it.', madeBySpeakerId: 'spk_1', sourceSegmentIds: ['seg_0002'] },
      ],
      numbersAndAmounts: [{ text: '$15,000', kind: 'money', value: 15000, unit: null, currency: 'USD', context: 'fee', sourceSegmentIds: ['seg_0002'] }],
      peopleMentioned: [{ name: 'Robert Jenkins', relation: 'third_party', role: null, speakerId: null, sourceSegmentIds: ['seg_0002'] }],
    });
    const grounded = groundAnalysis(analysis, corpus);
    expect(grounded.analysis.decisions!.map((decision) => decision.text)).toEqual(['Diane and Sheila agreed on the fee.']);
    expect(grounded.analysis.numbersAndAmounts).toEqual([]);
    expect(grounded.analysis.peopleMentioned).toEqual([]);
    expect(grounded.violationsAfter).toEqual([]);
  });

  test('prose loses only the sentences that state something unsupported', () => {
    const grounded = groundAnalysis(emptyAnalysis({ executiveSummary: 'Diane called Sheila about the contract. They will meet on 2026-05-01. The fee is $12,500.' }), corpus);
    expect(grounded.analysis.executiveSummary).toBe('Diane called Sheila about the contract. The fee is $12,500.');
  });

  test('a value that runs across a sentence end (a phone number of digits on both sides of a full stop) loses both sentences', () => {
    const text = 'Diane called Sheila about the contract. The order ships on the 12. 555 0199 is the desk. The fee is $12,500.';
    const grounded = groundAnalysis(emptyAnalysis({ executiveSummary: text, oneLineSummary: text, suggestedTitle: 'Contract on the 12. 555 0199 desk' }), corpus);
    expect(grounded.violationsBefore.map((violation) => [violation.kind, violation.path])).toEqual(expect.arrayContaining([['phone', '/executiveSummary'], ['phone', '/suggestedTitle']]));
    expect(grounded.violationsAfter).toEqual([]);
    expect(grounded.analysis.executiveSummary).toBe('Diane called Sheila about the contract. The fee is $12,500.');
    expect(grounded.analysis.oneLineSummary).toBe('Diane called Sheila about the contract. The fee is $12,500.');
    expect(Value.Check(AnalysisSchema, grounded.analysis)).toBe(true);
  });

  test('citations of segments or speakers that do not exist are removed; a key point left uncited is dropped', () => {
    const analysis = emptyAnalysis({
      executiveSummaryBullets: [
        { text: 'Fee accepted', category: 'agreement', importance: 'high', sourceSegmentIds: ['seg_0002', 'seg_0099'] },
        { text: 'Signed copy by Friday', category: 'next_steps', importance: 'medium', sourceSegmentIds: ['seg_0003'] },
        { text: 'Meeting next Tuesday', category: 'next_steps', importance: 'medium', sourceSegmentIds: ['seg_0005'] },
      ],
      keyDiscussionPoints: [{ text: 'Fee', topic: 'fee', phase: 'middle', speakerId: 'spk_7', speakerLabel: null, speakerDisplayName: null, speakerRole: null, sourceSegmentIds: ['seg_0042'] }],
      commitments: [{ text: 'Diane will send the copy', speakerId: 'spk_9', dueDate: null, sourceSegmentIds: ['seg_0003'] }],
    });
    const grounded = groundAnalysis(analysis, corpus);
    expect(grounded.analysis.executiveSummaryBullets![0]!.sourceSegmentIds).toEqual(['seg_0002']);
    expect(grounded.analysis.keyDiscussionPoints).toEqual([]);
    expect(grounded.analysis.commitments![0]!.speakerId).toBeNull();
    expect(grounded.violationsAfter).toEqual([]);
    expect(Value.Check(AnalysisSchema, grounded.analysis)).toBe(true);
  });

  test('one or two bullets left after the filter are no summary: none are kept, with a warning', () => {
    const bullet = (text: string) => ({ text, category: 'context' as const, importance: 'medium' as const, sourceSegmentIds: ['seg_0002'] });
    const grounded = groundAnalysis(emptyAnalysis({ executiveSummaryBullets: [bullet('The fee is $12,500'), bullet('Fee agreed with Sheila'), bullet('Marcus Webb will call')] }), corpus);
    expect(grounded.analysis.executiveSummaryBullets).toEqual([]);
    expect(grounded.analysis.qualityWarnings.some((warning) => warning.startsWith('summary_bullets_dropped'))).toBe(true);
    expect(Value.Check(AnalysisSchema, grounded.analysis)).toBe(true);
  });

  test('the letters of a code said with digits ("1Z 999 AA1") are no name', () => {
    const withCode = buildGroundingCorpus(contractCallWith('The tracking number is 1Z 999 AA1 0123.'), {}, recordedAt, timeZone);
    expect(findViolations(emptyAnalysis({ executiveSummary: 'The tracking number is 1Z 999 AA 1 0123.' }), withCode)).toEqual([]);
  });

  test('an invented attendee is removed from a meeting; the grounded one stays', () => {
    const grounded = groundAnalysis(emptyAnalysis({
      actionItems: [item({ intent: 'meeting', intentMetadata: { attendees: [{ name: 'Priya Shah' }, { name: 'Tom Baker', email: 'tom@acme.com' }] } })],
    }), corpus);
    expect(grounded.analysis.actionItems![0]!.intentMetadata.attendees).toEqual([{ name: 'Priya Shah' }]);
  });
});
