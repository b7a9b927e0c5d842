import { Value } from 'typebox/value';
import { describe, expect, test } from 'vitest';
import { AnalysisSchema, bulletCategories, type Analysis } from '../../../../src/domain/analysis/analysisSchema.js';
import type { CallDirection } from '../../../../src/domain/calls/callTypes.js';
import type { Transcript } from '../../../../src/domain/transcripts/transcriptSchema.js';
import type { AnalysisInput } from '../../../../src/pipeline/analysis/Analyser.js';
import { assignPhases } from '../../../../src/pipeline/analysis/builtin/describe/assignPhases.js';
import { compressSentence, inThirdPerson } from '../../../../src/pipeline/analysis/builtin/describe/rephrase.js';
import { splitSentences } from '../../../../src/pipeline/analysis/text/sentences.js';
import {
  describeConversation, emptyTranscriptWarning, tooShortWarning, type ConversationDescription,
} from '../../../../src/pipeline/analysis/builtin/describeConversation.js';
import { transcriptFromSegments } from '../../../../src/pipeline/normalization/transcriptFromSegments.js';
import { resolveSpeakers } from '../../../../src/pipeline/speakers/resolveSpeakers.js';

/** One turn: raw speaker id and what they said. */
type Line = [speaker: string, text: string];

/** Speech rate of the test calls (words per second) and the pause between turns (seconds). */
const wordsPerSecond = 2.6;
const pauseSeconds = 0.6;
const recordedAt = Date.UTC(2026, 1, 25, 10, 0, 0);

/** A resolved transcript of the turns, laid out one after another at {@link wordsPerSecond}. */
function callOf(lines: readonly Line[], names: { user?: string; contact?: string; direction?: CallDirection } = {}): AnalysisInput {
  let time = 0;
  const segments = lines.map(([sourceSpeakerId, text]) => {
    const seconds = text.split(/\s+/).length / wordsPerSecond;
    const segment = { sourceSpeakerId, startSeconds: time, endSeconds: time + seconds, text };
    time += seconds + pauseSeconds;
    return segment;
  });
  const metadata = { ...(names.contact ? { contactName: names.contact } : {}), direction: names.direction ?? 'OUTGOING' };
  const unresolved = transcriptFromSegments({ language: 'en', segments }, { callId: '0b1c2d3e-4f50-4a61-8b72-9c8d7e6f5a4b', createdAt: recordedAt });
  const transcript = resolveSpeakers(unresolved, { ...(names.user ? { userDisplayName: names.user } : {}), metadata });
  return { transcript, metadata, recordedAt, timeZone: 'Europe/London' };
}

/** Diane (the user, Brightline Logistics) and Sheila (the contact): a complaint about late shipments, a price negotiation, a deal, next steps. */
const businessCall = callOf([
  ['A', 'Hi Sheila, this is Diane from Brightline Logistics. How are you today?'],
  ['B', "Hi Diane, I'm good, thanks. Thanks for calling back so quickly."],
  ['A', "Of course. I'm calling about the renewal of your freight contract, which runs out at the end of March."],
  ['B', 'Right. Before we get into the renewal, I have to be honest with you. The last three shipments to our Leeds warehouse arrived late, and one pallet was damaged.'],
  ['A', "I'm sorry to hear that. I saw the report on the damaged pallet this morning. Do you know which dates the late shipments were?"],
  ['B', 'The fourth, the eleventh and the eighteenth of February. Each one was two days late, and our store shelves were empty over the weekend.'],
  ['A', "That's a real problem, and I understand why you're frustrated. The delays came from a driver shortage on the northern route, which we fixed last week by adding a second carrier."],
  ['B', "Okay, that's good to know. But I'm worried it will happen again during the spring peak."],
  ['A', "That's a fair concern. For the new contract we can guarantee delivery within forty-eight hours on the Leeds route, with a credit if we miss it."],
  ['B', 'What kind of credit are we talking about?'],
  ['A', 'Ten percent of the shipment cost for every late delivery, applied to the next invoice.'],
  ['B', 'That helps. The other issue is price. Your renewal quote is eight percent higher than last year, and our budget for freight is flat.'],
  ['A', 'I understand. The increase covers fuel and the second carrier, but I have some room on the rate.'],
  ['B', 'We were hoping for no increase at all, to be honest.'],
  ['A', "I can't go to zero, but if you sign for two years instead of one, we can hold the increase at three percent."],
  ['B', 'Three percent for two years, with the late delivery credit included?'],
  ['A', 'Yes, the credit would be written into the contract for both years.'],
  ['B', 'Okay. That sounds fair. We have a deal, as long as the damaged pallet is refunded as well.'],
  ['A', "Agreed. I'll process the refund for the damaged pallet today, and you'll see it on the next invoice."],
  ['B', 'Perfect, thank you.'],
  ['A', "So the next steps: I'll send you the updated contract by Friday, with the two-year term and the credit clause."],
  ['B', "Great. I'll need to get sign-off from our finance director, Mark Ellis, but he's already seen the numbers."],
  ['A', 'Would it help if I joined a call with Mark next week to walk him through the terms?'],
  ['B', "Yes, let's do that. Tuesday afternoon works best for him."],
  ['A', "Tuesday afternoon it is. I'll send a calendar invite to both of you."],
  ['B', "Thanks, Diane. I'm really glad we sorted this out."],
  ['A', 'Me too. Thanks for your patience, Sheila. Have a great weekend.'],
  ['B', 'You too. Bye.'],
], { user: 'Diane Carter', contact: 'Sheila Brown' });

/** Priya (the user, support) and Tom Reed (the contact): an outage, missed appointments, an escalation. */
const complaintCall = callOf([
  ['A', 'Good afternoon, Apex Broadband support, this is Priya. How can I help?'],
  ['B', "Hi Priya, this is Tom Reed. My internet has been down for four days and this is the third time I'm calling about it."],
  ['A', "I'm sorry to hear that. Let me pull up your account."],
  ['B', "I've been told twice that an engineer would come, and nobody showed up. This is unacceptable."],
  ['A', 'I can see two missed appointments on the account. I apologise for that.'],
  ['B', "Apologies don't fix anything. I work from home and I've lost two days of work because of this."],
  ['A', 'I understand how frustrating that is. The next available engineer slot is on Thursday.'],
  ['B', "Thursday? That's another three days without internet. That's ridiculous."],
  ['A', "I'm afraid that is the earliest slot I can see in the system."],
  ['B', "Then I want to speak to a manager. I'm not waiting another week for nothing."],
  ['A', "I'll escalate this to my supervisor right away and mark it as urgent."],
  ['B', "And I want a refund for every day the service has been down. I'm paying for a service I don't get."],
  ['A', "I've noted the refund request on the case, but I can't approve it myself."],
  ['B', "This is the worst service I've ever had. I'm seriously thinking about cancelling my contract."],
  ['A', 'I understand. My supervisor will call you back within two hours.'],
  ['B', "Fine. But if nobody calls, I'm filing a formal complaint."],
  ['A', 'Your case number is 55821. Is there anything else I can help with today?'],
  ['B', 'No. Just get it fixed.'],
], { user: 'Priya', contact: 'Tom Reed', direction: 'INCOMING' });

/** Amy (the user) and Jess (the contact): small talk between friends. */
const smallTalkCall = callOf([
  ['A', "Hey Jess, it's Amy! How are you doing?"],
  ['B', "Amy! I'm great, how are you? How was the weekend?"],
  ['A', 'Oh it was lovely. We had a barbecue in the garden with the kids and my mum came over.'],
  ['B', 'That sounds so nice. Did the weather hold up?'],
  ['A', 'It did, it was sunny all afternoon. The kids played with the dog until they fell asleep.'],
  ['B', "Ha, that's adorable. Our weekend was quiet, we just watched a movie and had pizza."],
  ['A', 'Honestly that sounds perfect too. Which movie did you watch?'],
  ['B', 'That new space one with the talking robot. It was really funny.'],
  ['A', "Oh I've heard about that one, the kids would love it."],
  ['B', "You should take them. Anyway, how's your mum doing these days?"],
  ['A', "She's doing well, she started painting again and she's really enjoying it."],
  ['B', "That's wonderful. Give her my love."],
  ['A', "I will. Okay, I'd better go and start dinner. Love you, talk soon!"],
  ['B', 'Love you too, bye!'],
], { user: 'Amy', contact: 'Jess' });

/** Ten seconds: Sheila leaves a message. */
const shortCall = callOf([
  ['A', "Hi Diane, it's Sheila. Can you call me back about the invoice? Thanks, bye."],
], { user: 'Diane Carter', contact: 'Sheila Brown', direction: 'INCOMING' });

const emptyCall: AnalysisInput = { ...shortCall, transcript: { ...shortCall.transcript, segments: [], speakers: [], cleanText: '', durationSeconds: 0 } };

const calls = { businessCall, complaintCall, smallTalkCall, shortCall, emptyCall } as const;

/** The description made a full Analysis v2, the facts half left empty. */
function asAnalysis(description: ConversationDescription): Analysis {
  return {
    schemaVersion: 2, ...description,
    actionItems: [], followUps: [], importantDates: [], decisions: [], commitments: [], openQuestions: [], risks: [], opportunities: [],
    peopleMentioned: [], numbersAndAmounts: [],
  };
}

/** The executive summary's sentences without their "Name: " attribution, split at each speaker's name. */
function summarySentences(summary: string, transcript: Transcript): string[] {
  const names = transcript.speakers.map((speaker) => speaker.displayName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return summary.split(new RegExp(`(?:^| )(?:${names.join('|')}): `)).map((part) => part.trim()).filter(Boolean);
}

describe('describeConversation', () => {
  test.each(Object.entries(calls))('%s: the description with empty fact lists validates against AnalysisSchema', (_, input) => {
    const analysis = asAnalysis(describeConversation(input));
    const valid = Value.Check(AnalysisSchema, analysis);
    if (!valid) console.error([...Value.Errors(AnalysisSchema, analysis)]);
    expect(valid).toBe(true);
  });

  // The empty call has no summary to check (its own test says it is null).
  const summarised = { businessCall, complaintCall, smallTalkCall, shortCall } as const;
  test.each(Object.entries(summarised))('%s: invents no text: every summary sentence was said in some segment', (_, input) => {
    const { executiveSummary } = describeConversation(input);
    expect(executiveSummary).not.toBeNull();
    const texts = input.transcript.segments.map((segment) => segment.text);
    const sentences = summarySentences(executiveSummary!, input.transcript);
    expect(sentences.length).toBeGreaterThan(0);
    for (const sentence of sentences) {
      // A full stop is added to a sentence said without one; a long one is cut with "…".
      const said = sentence.replace(/…$/, '');
      expect(texts.some((text) => text.includes(said) || text.includes(said.replace(/\.$/, '')))).toBe(true);
    }
  });

  test('a business call: summary, 3 to 7 bullets that rephrase it, chronological key points citing real segments', () => {
    const description = describeConversation(businessCall);
    const segmentIds = businessCall.transcript.segments.map((segment) => segment.id);
    const sentences = summarySentences(description.executiveSummary!, businessCall.transcript);
    expect(sentences.length).toBeGreaterThanOrEqual(2);
    expect(sentences.length).toBeLessThanOrEqual(5);
    expect(description.executiveSummary).toMatch(/^(?:Diane Carter|Sheila Brown): /);

    const bullets = description.executiveSummaryBullets!;
    expect(bullets.length).toBeGreaterThanOrEqual(3);
    expect(bullets.length).toBeLessThanOrEqual(7);
    for (const bullet of bullets) {
      expect(bulletCategories).toContain(bullet.category);
      expect(bullet.sourceSegmentIds.length).toBeGreaterThan(0);
      expect(bullet.sourceSegmentIds.every((id) => segmentIds.includes(id))).toBe(true);
      expect(sentences).not.toContain(bullet.text);
      expect(description.executiveSummary).not.toContain(bullet.text);
    }
    const categories = bullets.map((bullet) => bullet.category);
    expect(categories).toContain('agreement');
    expect(categories).toContain('next_steps');
    expect(bullets.some((bullet) => /^Next steps: Diane Carter will send/.test(bullet.text))).toBe(true);

    const points = description.keyDiscussionPoints!;
    expect(points.length).toBeGreaterThanOrEqual(5);
    expect(points.length).toBeLessThanOrEqual(15);
    const firstCited = points.map((point) => segmentIds.indexOf(point.sourceSegmentIds[0]!));
    expect(firstCited).toEqual([...firstCited].sort((first, second) => first - second));
    for (const point of points) {
      expect(point.sourceSegmentIds.length).toBeGreaterThan(0);
      expect(point.sourceSegmentIds.every((id) => segmentIds.includes(id))).toBe(true);
      if (point.speakerRole !== null) expect(['Diane Carter', 'Sheila Brown']).toContain(point.speakerDisplayName);
    }
    expect(points.some((point) => point.speakerRole === null && point.speakerId === null)).toBe(true);
  });

  test('topics leave out greetings, money units, months, channels and vague words, however often said', () => {
    const description = describeConversation(callOf([
      ['SPEAKER_00', 'Hiya Sheila, it is Diane. I am ringing about the gas bill for April, the one for two hundred pounds.'],
      ['SPEAKER_01', 'Hiya Diane. Yes, the April gas bill is two hundred pounds. I can email the bill breakdown, what is your email?'],
      ['SPEAKER_00', 'My email is on file. Can you email the gas bill breakdown and the meter reading to that email?'],
      ['SPEAKER_01', 'My pleasure. I will email the gas bill breakdown and the meter reading by the end of April, the number is on it.'],
      ['SPEAKER_00', 'Brilliant, cheers. The number on the April bill is the account number I think.'],
    ], { user: 'Diane', contact: 'Sheila' }));
    expect(description.tags.length).toBeGreaterThan(0);
    expect(description.tags.filter((tag) => /\b(?:hiya|pounds|april|email|number|end|pleasure|cheers)\b/.test(tag))).toEqual([]);
  });

  test('a business call: type, outcome, title and one-line summary from facts said', () => {
    const description = describeConversation(businessCall);
    expect(description.callType).toBe('negotiation');
    expect(description.conversationOutcome).toBe('agreement');
    expect(description.suggestedTitle).toMatch(/^Negotiation with Sheila Brown: /);
    // The metadata says the call was outgoing: who called whom, not only who spoke.
    expect(description.oneLineSummary).toMatch(/^Diane Carter called Sheila Brown about .+, ending in agreement\.$/);
    expect(description.tags.length).toBeGreaterThan(0);
    expect(description.tags.length).toBeLessThanOrEqual(8);
    expect(description.tags.every((tag) => tag === tag.toLowerCase() && !/diane|sheila/.test(tag))).toBe(true);
    expect(description.sections!.length).toBeGreaterThanOrEqual(1);
    expect(description.qualityWarnings).toEqual([]);
  });

  test('a business call: phases open with greetings, close with goodbyes, and follow-up talk near the end', () => {
    const phases = assignPhases(businessCall.transcript.segments);
    expect(phases[0]).toBe('opening');
    expect(phases.at(-1)).toBe('closing');
    expect(phases[10]).toBe('middle');
    // "I'll send a calendar invite to both of you."
    expect(phases[24]).toBe('followup');
    expect(phases.indexOf('closing')).toBeGreaterThan(phases.lastIndexOf('opening'));
  });

  test('a resolved complaint: sentiment turns from negative to positive by the end; tone judged', () => {
    const { sentiment, tone } = describeConversation(businessCall);
    const progression = sentiment!.progression;
    expect(progression.length).toBeGreaterThanOrEqual(2);
    expect(progression.length).toBeLessThanOrEqual(4);
    const firstNegative = progression.findIndex((step) => step.overall === 'negative');
    expect(firstNegative).toBeGreaterThanOrEqual(0);
    expect(progression.at(-1)!.overall).toBe('positive');
    expect(progression.at(-1)!.phase).toBe('closing');
    expect(sentiment!.contactSentiment).not.toBeNull();
    expect(sentiment!.userSentiment).not.toBeNull();
    expect(sentiment!.emotionalSignals).toEqual(expect.arrayContaining(['frustrated', 'worried']));
    expect(sentiment!.reason).toMatch(/"/);
    expect(tone!.formality).toBe('semi-formal');
    expect(tone!.pace).toBe('normal');
    expect(tone!.byParty.userTone).not.toBeNull();
    expect(tone!.byParty.contactTone).not.toBeNull();
  });

  test('a complaint that is escalated: negative, tense or escalated tone, escalated outcome', () => {
    const description = describeConversation(complaintCall);
    expect(description.callType).toBe('complaint');
    expect(description.conversationOutcome).toBe('escalated');
    expect(description.sentiment!.overall).toBe('negative');
    expect(description.sentiment!.score).toBeLessThan(0);
    expect(description.sentiment!.contactSentiment!.overall).toBe('negative');
    expect(['escalated', 'tense', 'confrontational']).toContain(description.tone!.overall);
    expect(description.sentiment!.emotionalSignals).toEqual(expect.arrayContaining(['angry', 'urgent']));
  });

  test('small talk: a personal call with no outcome', () => {
    const description = describeConversation(smallTalkCall);
    expect(description.callType).toBe('personal');
    expect(description.conversationOutcome).toBe('no_outcome');
    expect(description.sentiment!.overall).toBe('positive');
    expect(['friendly', 'casual', 'playful', 'conversational']).toContain(description.tone!.overall);
  });

  test('a ten-second call: what can honestly be said, and a warning', () => {
    const description = describeConversation(shortCall);
    expect(description.qualityWarnings).toEqual([tooShortWarning]);
    expect(description.callType).toBe('voicemail');
    expect(description.sentiment).toMatchObject({ overall: 'unclear', score: null, progression: [] });
    expect(description.tone).toBeNull();
    expect(description.sections).toEqual([]);
    expect(description.executiveSummaryBullets!.length).toBeLessThan(3);
  });

  test('an empty transcript: nulls, empty lists and a warning', () => {
    expect(describeConversation(emptyCall)).toEqual({
      callType: null, suggestedTitle: null, oneLineSummary: null, conversationOutcome: null, executiveSummary: null,
      executiveSummaryBullets: [], sections: [], keyDiscussionPoints: [], sentiment: null, tone: null, tags: [],
      qualityWarnings: [emptyTranscriptWarning],
    });
  });

  test('is pure: the same input gives the same description and is not changed', () => {
    const before = structuredClone(businessCall);
    expect(describeConversation(businessCall)).toEqual(describeConversation(businessCall));
    expect(businessCall).toEqual(before);
  });
});

describe('sentence helpers', () => {
  test('splitSentences keeps abbreviations and numbers inside a sentence', () => {
    expect(splitSentences('I spoke to Dr. Patel at 3 p.m. today. It costs $4.50! Really? yes')).toEqual([
      'I spoke to Dr. Patel at 3 p.m. today.', 'It costs $4.50!', 'Really?', 'yes',
    ]);
  });

  test('a bullet tells the speaker in the third person, and quotes when that is not safe', () => {
    expect(inThirdPerson("I'll send you the contract by Friday.", 'Diane', 'Sheila')).toBe('Diane will send Sheila the contract by Friday.');
    expect(inThirdPerson("I'm worried about my order.", 'Sheila', null)).toBe("Sheila is worried about Sheila's order.");
    expect(inThirdPerson('Thank you, I really need it.', 'Sheila', 'Diane')).toBeNull();
    expect(compressSentence('So, um, yeah, the invoice is, you know, wrong.')).toBe('The invoice is wrong.');
  });
});
