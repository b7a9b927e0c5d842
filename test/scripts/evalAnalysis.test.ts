import { describe, expect, test } from 'vitest';
import { actionIntents, callTypes, providerHints } from '../../src/domain/analysis/analysisSchema.js';
import { diarizedTranscriptInputProblems } from '../../src/pipeline/normalization/diarizedTranscriptInput.js';
import { transcriptFromSegments } from '../../src/pipeline/normalization/transcriptFromSegments.js';
import { resolveSpeakers } from '../../src/pipeline/speakers/resolveSpeakers.js';
import { isJudgeCall, type AnalysisCall, type ExpectedActionItem } from '../../scripts/evaluation/analysisCalls.js';
import { evaluationCalls as analysisCalls } from '../../scripts/evaluation/evaluationCalls.js';
import {
  dueDateRight, localDateTime, matchActionItems, matchesKeywords, metadataFieldChecks, normalizeText, ownerRight, percent,
  samePhoneNumber, scoreActionItems, type ExtractedActionItem,
} from '../../scripts/evaluation/analysisScoring.js';

const expectedItem = (titleKeywords: string[], overrides: Partial<ExpectedActionItem> = {}): ExpectedActionItem => ({
  titleKeywords, intent: 'task', ownerRole: 'USER', dueDate: null, ...overrides,
});
const extractedItem = (title: string, overrides: Partial<ExtractedActionItem> = {}): ExtractedActionItem => ({
  title, description: null, dueDate: null, ownerRole: 'USER', intent: 'task', intentMetadata: {}, ...overrides,
});

/** The local calendar date of an instant in a time zone, `YYYY-MM-DD`. */
const localDate = (iso: string, timeZone: string) => localDateTime(iso, timeZone)!.slice(0, 10);
const allText = (call: AnalysisCall) => call.input.segments.map(({ text }) => text).join(' ');

/**
 * Each call under a title: its name, or for a call of a judge set its set and place in it, so
 * that the test report names no judge call (see `judgeSets`: only their form is checked here).
 */
const titleOf = (call: AnalysisCall) => (isJudgeCall(call)
  ? `${call.everyday} call #${analysisCalls.filter(({ everyday }) => everyday === call.everyday).indexOf(call) + 1}`
  : call.name);
const titled = (calls: readonly AnalysisCall[]) => calls.map((call) => [titleOf(call), call] as const);
/** The calls that may be read while changing the analyser: the original calls and the everyday sets tuned on. */
const tunedCalls = analysisCalls.filter((call) => !isJudgeCall(call));

describe('the scripted calls', () => {
  test('there are at least 18, with distinct names', () => {
    expect(analysisCalls.length).toBeGreaterThanOrEqual(18);
    expect(new Set(analysisCalls.map(({ name }) => name)).size).toBe(analysisCalls.length);
  });

  test('the judge sets (rounds 8 to 12) are told apart from the calls tuned on', () => {
    expect(new Set(analysisCalls.filter(isJudgeCall).map(({ everyday }) => everyday))).toEqual(new Set(['round8', 'round9', 'round10', 'round11', 'round12']));
    expect(tunedCalls.length).toBeGreaterThanOrEqual(18);
  });

  test.each(titled(analysisCalls))('%s: a valid transcript input of 8–30 segments lasting half a minute to 4 minutes', (_, call) => {
    expect(diarizedTranscriptInputProblems(call.input)).toEqual([]);
    // The scripted roles name exactly the transcript's speakers.
    expect(Object.keys(call.speakerRoles).sort()).toEqual([...new Set(call.input.segments.map(({ sourceSpeakerId }) => sourceSpeakerId))].sort());
    expect(call.input.segments.length).toBeGreaterThanOrEqual(8);
    expect(call.input.segments.length).toBeLessThanOrEqual(30);
    const end = Math.max(...call.input.segments.map(({ endSeconds }) => endSeconds));
    // A wrong number is over in well under a minute.
    expect(end).toBeGreaterThanOrEqual(30);
    expect(end).toBeLessThanOrEqual(240);
    expect(Number.isNaN(Date.parse(call.recordedAt))).toBe(false);
    expect(() => new Intl.DateTimeFormat('en', { timeZone: call.timeZone })).not.toThrow();
  });

  // Speaker resolution is part of what the judges measure: it runs on the tuned calls only.
  test.each(titled(tunedCalls))('%s: speaker resolution gives each speaker its scripted role', (_, call) => {
    const transcript = resolveSpeakers(
      transcriptFromSegments(call.input, { callId: '00000000-0000-4000-8000-000000000001', createdAt: Date.parse(call.recordedAt) }),
      { metadata: call.input.metadata ?? {}, userDisplayName: call.input.user?.displayName },
    );
    const roles = Object.fromEntries(transcript.speakers.map((speaker) => [speaker.sourceSpeakerId, speaker.role]));
    expect(roles).toEqual(call.speakerRoles);
    // The everyday calls are written as people talk, and may leave the resolver a doubt it warns
    // about; the roles, which the expected owners rest on, must still be right.
    if (!call.everyday) expect(transcript.speakerResolution.warnings).toEqual([]);
  });

  test.each(titled(analysisCalls))('%s: expectations are well-formed and grounded in the script', (_, call) => {
    const { expected } = call;
    if (expected.callType !== undefined) expect(callTypes).toContain(expected.callType);
    if (expected.sentiment !== undefined) expect(['positive', 'negative', 'neutral', 'mixed']).toContain(expected.sentiment);
    const callDate = localDate(call.recordedAt, call.timeZone);
    const text = allText(call);
    for (const item of expected.actionItems) {
      expect(actionIntents).toContain(item.intent);
      expect([null, 'USER', 'CONTACT']).toContain(item.ownerRole);
      expect(item.titleKeywords.length).toBeGreaterThan(0);
      // Every keyword is said in the call, so a grounded title or description can carry it.
      for (const keyword of item.titleKeywords) expect(matchesKeywords({ title: text }, [keyword]), keyword).toBe(true);
      if (item.dueDate !== null) {
        expect(item.dueDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        // A real calendar date, on or after the day of the call, within two months of it.
        expect(new Date(`${item.dueDate}T00:00:00Z`).toISOString().slice(0, 10)).toBe(item.dueDate);
        expect(item.dueDate >= callDate).toBe(true);
        expect(Date.parse(item.dueDate) - Date.parse(callDate)).toBeLessThanOrEqual(62 * 86_400_000);
      }
      const metadata = item.intentMetadata ?? {};
      if (metadata.providerHint !== undefined) expect(providerHints).toContain(metadata.providerHint);
      for (const time of [metadata.proposedAt, metadata.remindAt]) {
        if (time === undefined) continue;
        expect(time).toMatch(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2})?$/);
        expect(time.slice(0, 10)).toBe(item.dueDate);
      }
      if (metadata.phoneNumber !== undefined) expect(text.replace(/\D/g, '')).toContain(metadata.phoneNumber.replace(/\D/g, '').replace(/^44/, ''));
      if (metadata.toEmail !== undefined) expect(metadata.toEmail).toMatch(/^[a-z0-9.]+@[a-z0-9.]+\.[a-z]+$/);
    }
  });

  test('the calls cover what the evaluation promises', () => {
    const items = analysisCalls.flatMap((call) => call.expected.actionItems);
    const intents = new Set(items.map(({ intent }) => intent));
    for (const intent of ['meeting', 'email', 'call', 'message', 'reminder', 'task'] as const) expect(intents).toContain(intent);
    const hints = new Set(items.map((item) => item.intentMetadata?.providerHint));
    for (const hint of ['zoom', 'teams', 'meet', 'whatsapp', 'sms'] as const) expect(hints).toContain(hint);
    expect(items.some((item) => item.ownerRole === null)).toBe(true);
    expect(analysisCalls.filter((call) => call.expected.actionItems.length === 0).length).toBeGreaterThanOrEqual(2);
    expect(analysisCalls.some((call) => new Set(call.expected.actionItems.map(({ ownerRole }) => ownerRole)).size >= 2)).toBe(true);
    expect(analysisCalls.some((call) => call.input.segments.every(({ sourceSpeakerId }) => sourceSpeakerId === 'SPEAKER_00'))).toBe(true);
    expect(analysisCalls.some((call) => /next Tuesday at 3/.test(allText(call)))).toBe(true);
    expect(analysisCalls.some((call) => /end of the month/.test(allText(call)))).toBe(true);
    expect(analysisCalls.some((call) => /\$12,500/.test(allText(call)) && /15 percent/.test(allText(call)) && /€300/.test(allText(call)))).toBe(true);
  });

  test('an extraction equal to the expectations scores perfectly on every call', () => {
    for (const call of analysisCalls) {
      const extracted = call.expected.actionItems.map((item): ExtractedActionItem => ({
        title: item.titleKeywords.join(' '), description: null, dueDate: item.dueDate, ownerRole: item.ownerRole, intent: item.intent,
        intentMetadata: item.intentMetadata ?? {},
      }));
      const score = scoreActionItems(call.expected.actionItems, extracted, call.timeZone);
      expect(score.matched, titleOf(call)).toBe(call.expected.actionItems.length);
      expect(score.extra, titleOf(call)).toEqual([]);
      expect([score.intentRight, score.ownerRight, score.dueDateRight], titleOf(call)).toEqual([score.matched, score.matched, score.matched]);
      expect(score.metadataRight, titleOf(call)).toBe(score.metadataFields);
    }
  });
});

describe('keyword matching', () => {
  test('case-insensitive, punctuation ignored, at the start of a word, in title or description', () => {
    expect(normalizeText("Dr. Lim's check-up")).toBe('dr lim s check up');
    expect(matchesKeywords({ title: 'Escalate order to logistics', description: null }, ['escalat'])).toBe(true);
    expect(matchesKeywords({ title: 'Book appointment', description: 'With Dr. Lim on Wednesday' }, ['lim'])).toBe(true);
    expect(matchesKeywords({ title: 'We climbed Catbells', description: null }, ['lim'])).toBe(false);
    expect(matchesKeywords({ title: 'Upload the Gas-Safety certificate' }, ['gas safety', 'certificate'])).toBe(true);
    expect(matchesKeywords({ title: 'Upload the certificate' }, ['gas safety', 'certificate'])).toBe(false);
    expect(matchesKeywords({ title: 'Anything' }, [''])).toBe(false);
  });
});

describe('matchActionItems', () => {
  test('one-to-one; unmatched expected items are missing, unmatched extracted ones extra', () => {
    const matching = matchActionItems(
      [expectedItem(['quote']), expectedItem(['cfo'])],
      [extractedItem('Email revised quote'), extractedItem('Send the invoice'), extractedItem('Another quote')],
    );
    expect(matching.pairs).toEqual([{ expected: 0, extracted: 0 }]);
    expect(matching.missing).toEqual([1]);
    expect(matching.extra).toEqual([1, 2]);
  });

  test('the most constrained expected item chooses first', () => {
    // The first extracted item mentions both; only it mentions "escalat", so it goes to that item.
    const matching = matchActionItems(
      [expectedItem(['call']), expectedItem(['escalat'])],
      [extractedItem('Escalate the order', { description: 'Customer calling for the third time' }), extractedItem('Call Martin back')],
    );
    expect(matching.pairs).toEqual([{ expected: 0, extracted: 1 }, { expected: 1, extracted: 0 }]);
    expect(matching.missing).toEqual([]);
    expect(matching.extra).toEqual([]);
  });

  test('among candidates, the one agreeing best is taken: intent, then owner, then due date, then order', () => {
    const photos = expectedItem(['photo'], { intent: 'email', ownerRole: 'CONTACT', dueDate: '2026-03-03' });
    const pick = (...candidates: ExtractedActionItem[]) => matchActionItems([photos], candidates).pairs[0]?.extracted;
    expect(pick(extractedItem('Photos of the ceiling', { intent: 'task', ownerRole: 'CONTACT', dueDate: '2026-03-03' }), extractedItem('Email photos', { intent: 'email' }))).toBe(1);
    expect(pick(extractedItem('Email photos', { intent: 'email', dueDate: '2026-03-03' }), extractedItem('Email photos', { intent: 'email', ownerRole: 'CONTACT' }))).toBe(1);
    expect(pick(extractedItem('Email photos', { intent: 'email', ownerRole: 'CONTACT' }), extractedItem('Email photos', { intent: 'email', ownerRole: 'CONTACT', dueDate: '2026-03-03' }))).toBe(1);
    expect(pick(extractedItem('Email photos', { intent: 'email' }), extractedItem('Email photos', { intent: 'email' }))).toBe(0);
  });
});

describe('field checks', () => {
  test('owner: roles agree; expected null accepts null and UNKNOWN', () => {
    expect(ownerRight('USER', 'USER')).toBe(true);
    expect(ownerRight('USER', 'CONTACT')).toBe(false);
    expect(ownerRight('CONTACT', null)).toBe(false);
    expect(ownerRight(null, null)).toBe(true);
    expect(ownerRight(null, 'UNKNOWN')).toBe(true);
    expect(ownerRight(null, 'USER')).toBe(false);
  });

  test('due date: same day or both null', () => {
    expect(dueDateRight('2026-03-10', '2026-03-10')).toBe(true);
    expect(dueDateRight('2026-03-10', '2026-03-17')).toBe(false);
    expect(dueDateRight(null, null)).toBe(true);
    expect(dueDateRight(null, undefined)).toBe(true);
    expect(dueDateRight('2026-03-10', null)).toBe(false);
  });

  test('phone numbers by digits; national matches international', () => {
    expect(samePhoneNumber('0161 496 0732', '01614960732')).toBe(true);
    expect(samePhoneNumber('+44 7700 900456', '07700 900456')).toBe(true);
    expect(samePhoneNumber('07700 900456', '+447700900456')).toBe(true);
    expect(samePhoneNumber('07700 900456', '07700 900457')).toBe(false);
    expect(samePhoneNumber('111', '0111')).toBe(false);
    expect(samePhoneNumber('0161 496 0732', '')).toBe(false);
  });

  test('local wall-clock time in the call\'s time zone', () => {
    expect(localDateTime('2026-03-10T15:00:00+00:00', 'Europe/London')).toBe('2026-03-10T15:00:00');
    expect(localDateTime('2026-03-10T15:00:00Z', 'America/New_York')).toBe('2026-03-10T11:00:00'); // EDT from 8 March
    expect(localDateTime('2026-03-30T18:00:00.000Z', 'America/New_York')).toBe('2026-03-30T14:00:00');
    expect(localDateTime('2026-03-05T16:00:00Z', 'Europe/Berlin')).toBe('2026-03-05T17:00:00');
    expect(localDateTime('2026-03-10T15:00:00', 'America/New_York')).toBe('2026-03-10T15:00:00');
    expect(localDateTime('2026-03-09', 'Europe/London')).toBe('2026-03-09');
    expect(localDateTime('next Tuesday', 'Europe/London')).toBeUndefined();
  });

  test('intentMetadata: one check per expected field', () => {
    const checks = metadataFieldChecks(
      {
        providerHint: 'zoom', proposedAt: '2026-03-10T15:00', durationMinutes: 60, attendees: [{ name: 'Tom' }],
        toEmail: 'j.morales@acme.com', phoneNumber: '0161 496 0732', location: 'Parkside Road',
      },
      {
        providerHint: 'ZOOM', proposedAt: '2026-03-10T15:00:00+00:00', durationMinutes: 45, attendees: [{ name: 'Sheila' }, { name: 'Tom Reyes' }],
        toEmail: 'J.Morales@acme.com ', phoneNumber: '+44 161 496 0732', location: 'Parkside Road surgery',
      },
      'Europe/London',
    );
    expect(Object.fromEntries(checks.map(({ field, right }) => [field, right]))).toEqual({
      providerHint: true, proposedAt: true, durationMinutes: false, attendees: true, toEmail: true, phoneNumber: true, location: true,
    });
    expect(metadataFieldChecks({ proposedAt: '2026-03-10T15:00' }, { proposedAt: '2026-03-10T03:00:00+00:00' }, 'Europe/London')[0]!.right).toBe(false);
    expect(metadataFieldChecks({ toEmail: 'a@b.com' }, null, 'Europe/London')).toEqual([{ field: 'toEmail', expected: 'a@b.com', got: undefined, right: false }]);
    expect(metadataFieldChecks(undefined, { toEmail: 'a@b.com' }, 'Europe/London')).toEqual([]);
  });
});

describe('scoreActionItems', () => {
  test('counts over matched items; metadata over the expected fields of matched items', () => {
    const score = scoreActionItems(
      [
        expectedItem(['zoom'], { intent: 'meeting', dueDate: '2026-03-10', intentMetadata: { providerHint: 'zoom', proposedAt: '2026-03-10T15:00' } }),
        expectedItem(['measurement'], { ownerRole: 'CONTACT', dueDate: '2026-03-06' }),
        expectedItem(['cfo'], { ownerRole: 'CONTACT', intentMetadata: { toName: 'Richard' } }),
      ],
      [
        extractedItem('Set up Zoom meeting', { intent: 'meeting', dueDate: '2026-03-10', intentMetadata: { providerHint: 'zoom', proposedAt: '2026-03-10T03:00:00+00:00' } }),
        extractedItem('Update site measurements', { intent: 'email', ownerRole: 'CONTACT', dueDate: '2026-03-06' }),
        extractedItem('Say goodbye'),
      ],
      'Europe/London',
    );
    expect(score).toMatchObject({
      expectedCount: 3, extractedCount: 3, matched: 2, intentRight: 1, ownerRight: 2, dueDateRight: 2, metadataFields: 2, metadataRight: 1,
    });
    expect(score.items.map((item) => item.extracted?.title ?? null)).toEqual(['Set up Zoom meeting', 'Update site measurements', null]);
    expect(score.extra.map(({ title }) => title)).toEqual(['Say goodbye']);
  });

  test('nothing expected and nothing extracted is a clean score', () => {
    expect(scoreActionItems([], [], 'Europe/London')).toMatchObject({ expectedCount: 0, extractedCount: 0, matched: 0, items: [], extra: [] });
  });

  test('percent', () => {
    expect(percent(7, 8)).toBe('87.5 % (7/8)');
    expect(percent(0, 0)).toBe('— (0/0)');
  });
});
