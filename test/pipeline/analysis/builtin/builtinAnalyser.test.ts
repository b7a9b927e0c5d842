import { describe, expect, test } from 'vitest';
import type { Analysis } from '../../../../src/domain/analysis/analysisSchema.js';
import type { CallMetadata } from '../../../../src/domain/calls/callTypes.js';
import { createBuiltinAnalyser } from '../../../../src/pipeline/analysis/builtin/builtinAnalyser.js';
import { resolveSpeakers } from '../../../../src/pipeline/speakers/resolveSpeakers.js';
import { callOf, type Turn } from '../../speakers/speakerTestCalls.js';
import { createTestStageContext } from '../../testStageContext.js';

const recordedAt = Date.UTC(2026, 10, 22, 10, 0, 0);

/** The built-in analysis of a call resolved as the pipeline resolves it: no contact name, only what `metadata` says. */
async function analysed(turns: readonly Turn[], metadata: CallMetadata, userDisplayName?: string): Promise<Analysis> {
  const transcript = resolveSpeakers(callOf(turns), { metadata, ...(userDisplayName ? { userDisplayName } : {}) });
  const { analysis } = await createBuiltinAnalyser().analyse({ transcript, metadata, recordedAt, timeZone: 'Europe/London' }, createTestStageContext());
  return analysis;
}

/** Every text of the analysis a reader reads as prose: the headline, the summary and its bullets, notes, key points, action titles. */
function proseOf(analysis: Analysis): string[] {
  return [
    analysis.suggestedTitle, analysis.oneLineSummary, analysis.executiveSummary,
    ...(analysis.executiveSummaryBullets ?? []).map((bullet) => bullet.text),
    analysis.sentiment?.userSentiment?.notes, analysis.sentiment?.contactSentiment?.notes,
    analysis.tone?.byParty.userTone?.notes, analysis.tone?.byParty.contactTone?.notes,
    ...(analysis.keyDiscussionPoints ?? []).map((point) => point.text),
    ...(analysis.actionItems ?? []).map((item) => item.title),
  ].filter((text): text is string => typeof text === 'string');
}

/** A cold call Diane received: the caller speaks first and names their company; Diane only declines. */
const coldCall: Turn[] = [
  ['SPEAKER_00', "Hi there, I'm ringing from Meadowbank Broadband about faster fibre in your area."],
  ['SPEAKER_01', "Sorry, I'm not interested."],
  ['SPEAKER_00', 'We could also cut your monthly bill in half with our fibre bundle.'],
  ['SPEAKER_01', "I'm really not interested, thank you. Please don't call again."],
  ['SPEAKER_00', "No problem, I'll take your number off our list. Sorry to bother you."],
  ['SPEAKER_01', 'Thanks. Bye.'],
];

describe('the built-in analyser on a short call without a contact name', () => {
  test('an incoming cold call: the caller is "the caller" in prose, never "Speaker 1", and the user is named', async () => {
    const analysis = await analysed(coldCall, { direction: 'INCOMING' }, 'Diane Carter');
    const prose = proseOf(analysis);
    expect(prose.filter((text) => /Speaker \d/.test(text))).toEqual([]);
    expect(analysis.oneLineSummary).toMatch(/^A (?:sales )?call between the caller and Diane Carter about /);
    expect(analysis.executiveSummary).toContain('The caller: ');
    expect(analysis.actionItems?.map((item) => item.ownerRole)).toEqual(['CONTACT']);
  });

  test('its topics are what the call was about: not the adjective the user declined with, nor the verbs of the pitch', async () => {
    const analysis = await analysed(coldCall, { direction: 'INCOMING' }, 'Diane Carter');
    expect(analysis.tags).toEqual(expect.arrayContaining(['fibre', 'broadband']));
    expect(analysis.tags.filter((tag) => /\b(?:interested|ringing|cut)\b/.test(tag))).toEqual([]);
    expect(analysis.suggestedTitle).not.toMatch(/interested/i);
  });

  test('an outgoing call by a user without a display name, to a number only: "the user" and "the contact", never a label', async () => {
    const analysis = await analysed([
      ['SPEAKER_00', 'Hello, Harlow Tyres.'],
      ['SPEAKER_01', "Hi, I'm calling about the winter tyres for my van. Are they in yet?"],
      ['SPEAKER_00', "They came in this morning. We can fit them on Saturday if you're free."],
      ['SPEAKER_01', "Saturday is fine, I'll bring the van at nine."],
      ['SPEAKER_00', 'Lovely, see you then.'],
    ], { direction: 'OUTGOING', phoneNumber: '+44 1279 555 0188' });
    const prose = proseOf(analysis);
    expect(prose.filter((text) => /Speaker \d|Contact …|0188/.test(text))).toEqual([]);
    expect(analysis.suggestedTitle).toMatch(/: the user will bring the van on Saturday$/);
    expect(analysis.executiveSummary).toMatch(/^The contact: .* The user: /);
  });
});
