import { describe, expect, test } from 'vitest';
import type { Analysis } from '../../../src/domain/analysis/analysisSchema.js';
import type { Analyser } from '../../../src/pipeline/analysis/Analyser.js';
import { analyseCall } from '../../../src/pipeline/analysis/analyseCall.js';
import { StageFailure } from '../../../src/pipeline/StageFailure.js';
import { createTestStageContext } from '../testStageContext.js';
import { contractCall, emptyAnalysis, recordedAt, timeZone } from './analysisFixtures.js';

const transcript = contractCall();
const input = { transcript, metadata: { contactName: 'Sheila Ross' }, recordedAt, timeZone };
const analyserOf = (analysis: Analysis): Analyser => ({ analyse: async () => ({ analysis, producer: { analyser: 'builtin', analyserVersion: 'test' } }) });

describe('the analysis stage around either analyser', () => {
  test('owners are reconciled, ungrounded facts removed, and action items derived with packed evidence', async () => {
    const analysed = await analyseCall(input, analyserOf(emptyAnalysis({
      actionItems: [{
        title: 'Send the signed copy', description: 'by Friday', dueDate: '2026-03-06', priority: 'high',
        ownerSpeakerId: null, ownerSpeakerLabel: 'diane', ownerDisplayName: null, ownerRole: null,
        sourceSegmentIds: ['seg_0003', 'seg_0077'], intent: 'email', intentMetadata: { toEmail: 'sheila.ross@acme.com', toName: 'Mallory' },
      }],
    })), createTestStageContext());
    expect(analysed.actionItems).toEqual([{
      title: 'Send the signed copy', description: 'by Friday', dueDate: '2026-03-06',
      sourceText: 'priority=high; segments=seg_0003; excerpt="Great. I will send the signed copy to sheila dot ross at acme dot com by Friday."',
      ownerSpeakerId: 'spk_0', ownerSpeakerLabel: 'Diane', ownerDisplayName: 'Diane', ownerRole: 'USER',
      sourceSegmentIds: ['seg_0003'], intent: 'email', intentMetadata: { toEmail: 'sheila.ross@acme.com' },
    }]);
    expect(analysed.analysis.actionItems![0]!.ownerSpeakerId).toBe('spk_0');
    expect(analysed.grounding.violationsBefore.map((violation) => violation.kind).sort()).toEqual(['name', 'segment']);
    expect(analysed.grounding.violationsAfter).toEqual([]);
    expect(analysed.producer).toEqual({ analyser: 'builtin', analyserVersion: 'test' });
  });

  test('an analysis that does not match the schema fails the stage as rejected, naming no content', async () => {
    const broken = { ...emptyAnalysis(), callType: 'podcast' } as unknown as Analysis;
    const failure = await analyseCall(input, analyserOf(broken), createTestStageContext()).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(StageFailure);
    expect(failure).toMatchObject({ kind: 'rejected', reason: 'The call analysis did not match its schema as the analyser made it' });
  });
});
