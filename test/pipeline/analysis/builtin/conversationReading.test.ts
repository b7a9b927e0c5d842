import { describe, expect, test } from 'vitest';
import type { CallMetadata } from '../../../../src/domain/calls/callTypes.js';
import type { AnalysisInput } from '../../../../src/pipeline/analysis/Analyser.js';
import { analyseCall } from '../../../../src/pipeline/analysis/analyseCall.js';
import { createBuiltinAnalyser } from '../../../../src/pipeline/analysis/builtin/builtinAnalyser.js';
import { fewBulletsWarning } from '../../../../src/pipeline/analysis/builtin/describe/summariseCall.js';
import { saidOfASubject, withoutAddresses } from '../../../../src/pipeline/analysis/builtin/describe/words.js';
import { describeConversation, tooShortWarning } from '../../../../src/pipeline/analysis/builtin/describeConversation.js';
import { extractFacts, type ExtractedFacts } from '../../../../src/pipeline/analysis/builtin/extractFacts.js';
import { findAmounts } from '../../../../src/pipeline/analysis/builtin/facts/findAmounts.js';
import { findDateMentions } from '../../../../src/pipeline/analysis/builtin/facts/findDateMentions.js';
import { lexiconFor } from '../../../../src/pipeline/analysis/builtin/facts/lexiconFor.js';
import { groundAnalysis } from '../../../../src/pipeline/analysis/grounding/groundAnalysis.js';
import { buildGroundingCorpus } from '../../../../src/pipeline/analysis/grounding/groundingCorpus.js';
import { zoneOffsetMinutes } from '../../../../src/pipeline/analysis/text/timeZones.js';
import { createTestStageContext } from '../../testStageContext.js';
import { emptyAnalysis } from '../analysisFixtures.js';
import { callOf, itemTitled, type Turn } from './facts/factTestCalls.js';

/** Tuesday 24 November 2026, 10:15 in London (GMT): "Tuesday the first" is 1 December. */
const RECORDED_AT = Date.parse('2026-11-24T10:15:00Z');
const TIME_ZONE = 'Europe/London';
const clock = { recordedAt: RECORDED_AT, timeZone: TIME_ZONE, offsetMinutes: zoneOffsetMinutes(TIME_ZONE, RECORDED_AT) };
const { lexicon } = lexiconFor('en');

/** Diane (D, the user) rings Sheila (S) at the surgery; Diane greets Sheila by name first (see `callOf`). */
const surgery: CallMetadata = { contactName: 'Sheila', organization: 'Parkside Surgery', direction: 'OUTGOING' };

/** A call of `turns` recorded on {@link RECORDED_AT}. */
function callOn(turns: Turn[], options: { metadata?: CallMetadata; greeting?: boolean } = {}): AnalysisInput {
  return { ...callOf(turns, { metadata: options.metadata ?? surgery, ...(options.greeting === false ? { greeting: false } : {}) }), recordedAt: RECORDED_AT };
}
const factsOf = (turns: Turn[], options: { greeting?: boolean } = {}) => extractFacts(callOn(turns, options));
const titles = (facts: ExtractedFacts) => facts.actionItems.map((item) => item.title);
const describedWithFacts = (input: AnalysisInput) => describeConversation(input, extractFacts(input));

/** Diane moves her mum's appointment: Sheila offers a slot, Diane takes it, Sheila books it. */
const rebooking: Turn[] = [
  ['D', "I'm calling about my mum's appointment with Dr. Patel. She can't make this Thursday any more."],
  ['S', "That's no problem at all. Her hip has been giving her trouble, hasn't it?"],
  ['D', "Yes, it's been bad this week, and she can't manage the bus on her own."],
  ['S', "I'm sorry to hear that. Dr. Patel is fully booked on Thursday and Friday."],
  ['S', 'I could do Tuesday the first at two thirty.'],
  ['D', 'That works.'],
  ['S', "Lovely, I'll move her to Tuesday the first of December at two thirty with Dr. Patel."],
  ['D', "Thank you so much. I'll bring her in myself."],
  ['S', "You're welcome. Take care, bye."],
];

describe('the headline and first bullet say what the call came to', () => {
  const input = callOn(rebooking);
  const description = describedWithFacts(input);

  test('a moved appointment titles the call with its day, date and time as said', () => {
    // The subject before the outcome: an appointment says there is one, not what it is for.
    expect(description.suggestedTitle).toBe('Patel and mum: appointment moved to Tuesday 1 December at 2:30 pm');
  });

  test('the one-line summary says who called whom at which organisation, then the outcome', () => {
    expect(description.oneLineSummary).toMatch(/^Diane called Sheila at Parkside Surgery/);
    expect(description.oneLineSummary).toContain('appointment moved to Tuesday 1 December at 2:30 pm');
  });

  test('the first summary bullet is the outcome, of high importance', () => {
    const [first] = description.executiveSummaryBullets!;
    expect(first).toMatchObject({ category: 'outcome', importance: 'high' });
    expect(first!.text).toMatch(/^Outcome: Appointment moved to/);
  });

  test('a date is written only as far as the call said it: no month when none was said', () => {
    const title = describedWithFacts(callOn([
      ['D', "I'm calling about my dog Biscuit's appointment. He can't make Monday after all."],
      ['S', 'Let me just check the evening slots. Thursday at five thirty?'],
      ['D', 'That works.'],
      ['S', "Great, I'll move him to Thursday at five thirty with Dr. Patel."],
      ['D', 'Thank you so much.'],
    ])).suggestedTitle;
    expect(title).toMatch(/: appointment moved to Thursday/);
    expect(title).not.toMatch(/November|December/);
  });

  test('a call with no action items keeps the template title "<Type> with <contact>: topics"', () => {
    const input = callOn([
      ['D', 'What time does the pharmacy close on Saturdays?'],
      ['S', 'The pharmacy closes at one on Saturdays.'],
      ['D', 'And is the flu clinic still running on Wednesdays?'],
      ['S', 'The flu clinic runs every Wednesday morning until the end of the winter.'],
      ['D', 'That is good to know, thank you.'],
    ]);
    const facts = extractFacts(input);
    expect(facts.actionItems).toEqual([]);
    expect(describeConversation(input, facts).suggestedTitle).toMatch(/^[A-Z][a-z-]*(?: call)? with Sheila: \S/);
  });
});

describe('the summary has no bullets or three to seven, never one or two', () => {
  test('a very short call gets none, with a warning saying why', () => {
    const description = describedWithFacts(callOn([['S', "Hi Diane, it's Sheila. Call me back about the invoice, thanks."]], { greeting: false }));
    expect(description.executiveSummaryBullets).toEqual([]);
    expect(description.qualityWarnings.some((warning) => warning === fewBulletsWarning || warning === tooShortWarning)).toBe(true);
    expect(fewBulletsWarning).toBe('Too few usable sentences for three summary bullets');
  });

  test('no call, however many turns it has so far, gets one or two', () => {
    for (let turns = 1; turns <= rebooking.length; turns++) {
      const count = describedWithFacts(callOn(rebooking.slice(0, turns))).executiveSummaryBullets!.length;
      expect([1, 2], `${turns} turns gave ${count} bullets`).not.toContain(count);
    }
  });

  test('a normal call gets three to seven', () => {
    const bullets = describedWithFacts(callOn(rebooking)).executiveSummaryBullets!;
    expect(bullets.length).toBeGreaterThanOrEqual(3);
    expect(bullets.length).toBeLessThanOrEqual(7);
  });
});

describe('a spelled address is never a topic', () => {
  test('withoutAddresses blanks spelled, dotted and written addresses and keeps the rest', () => {
    const left = withoutAddresses("It's maria dot lopez at gmail dot com, or see shieldhome dot com, or write to info@shieldhome.co.uk today.");
    expect(left).not.toMatch(/maria|lopez|gmail|dot|com\b|shieldhome|info/i);
    expect(left).toMatch(/^It's\b/);
    expect(left).toContain('or see');
    expect(left).toContain('today.');
    expect(withoutAddresses('I will look at the invoice.')).toBe('I will look at the invoice.');
  });

  test('tags, title and one-line summary of a call with a spelled email say no "dot", "gmail" or "com"', async () => {
    const { analysis } = await createBuiltinAnalyser().analyse(callOn([
      ['S', 'What email address should the receipt for the prescription go to?'],
      ['D', "It's maria dot lopez at gmail dot com."],
      ['S', 'Maria dot lopez at gmail dot com, got it. The receipt for the prescription will go there.'],
      ['D', 'Great. Is the prescription ready to collect?'],
      ['S', 'The prescription is ready at the front desk.'],
      ['D', 'Thanks, bye.'],
    ]), createTestStageContext());
    const addressWords = /\b(?:dot|gmail|com)\b/i;
    expect(analysis.tags.filter((tag) => addressWords.test(tag))).toEqual([]);
    expect(analysis.suggestedTitle).not.toMatch(addressWords);
    expect(analysis.oneLineSummary).not.toMatch(addressWords);
  });
});

describe('a word said only of a subject pronoun is no topic', () => {
  const wordsOf = (sentence: string) => sentence.toLowerCase().split(' ');
  test.each([
    ["i'm not interested", 2, true],
    ['we could also save you money', 3, true],
    ["sorry i'm ringing from the garage", 2, true],
    ["that's really annoying", 2, true],
    ['your tariff is going up', 1, false],
    ["i'm calling about the renewal", 4, false],
    ['interested buyers only', 0, false],
  ] as const)('"%s": word %i said of a subject: %s', (sentence, index, expected) => {
    expect(saidOfASubject(wordsOf(sentence), index)).toBe(expected);
  });

  test('a word the call also says as a subject stays a topic ("I\'ll quote you" and "the quote")', async () => {
    const { analysis } = await createBuiltinAnalyser().analyse(callOn([
      ['S', "I'm calling because we insulate most of the houses on your road. I'll quote you for the loft insulation if you like."],
      ['D', 'Would the quote include the grant for the insulation?'],
      ['S', "Yes, the grant covers half. I'm pleased to say the insulation can go in next month."],
      ['D', "I'm pleased too. Send the quote and I'll read it tonight."],
    ]), createTestStageContext());
    expect(analysis.tags.some((tag) => /\bquote\b/.test(tag))).toBe(true);
    expect(analysis.tags.filter((tag) => /\b(?:pleased|insulate)\b/.test(tag))).toEqual([]);
  });
});

describe('a request or proposal is read with the reply it gets', () => {
  test('"Can we move it to next week?" answered "Let me have a look at next week." is no action', () => {
    const facts = factsOf([['D', 'Can we move it to next week?'], ['S', 'Let me have a look at next week.']]);
    expect(titles(facts).filter((title) => /move/i.test(title))).toEqual([]);
    // Accepted, the same proposal is an action (one that names what it moves: "next week" names no day to make "move it" concrete).
    expect(titles(factsOf([['D', 'Can we move the appointment to next week?'], ['S', 'Yes, of course.']]))).toEqual(['Move the appointment to next week']);
  });

  test('"Could you check the boiler pressure?" answered "Leave it with me, I\'ll sort it today." is one action of the one who took it on', () => {
    const facts = factsOf([['D', 'Could you check the boiler pressure at number 12?'], ['S', "Leave it with me, I'll sort it today."]]);
    expect(facts.actionItems).toHaveLength(1);
    expect(facts.actionItems[0]).toMatchObject({ title: expect.stringMatching(/boiler pressure/i), ownerDisplayName: 'Sheila', dueDate: '2026-11-24' });
  });

  test('an email request turned down for a letter by post leaves the post as a task, no email', () => {
    const facts = factsOf([
      ['D', 'Could you email me a confirmation?'],
      ['S', "The confirmation has to go to the patient, though, so I'll post the letter to your mum today."],
    ]);
    expect(facts.actionItems.filter((item) => item.intent === 'email')).toEqual([]);
    expect(itemTitled(facts, /post the letter/i).intent).toBe('task');
  });

  test('an email request accepted ("Sure, I\'ll email it today.") stays an email item', () => {
    const facts = factsOf([['D', 'Could you email me the form?'], ['S', "Sure, I'll email it today."]]);
    expect(facts.actionItems.filter((item) => item.intent === 'email')).toHaveLength(1);
  });

  test('"Let me just check the evening slots." followed in the same turn by the result is no action', () => {
    const facts = factsOf([['S', 'Let me just check the evening slots. Thursday at five thirty?'], ['D', 'Yes, that works for me.']]);
    expect(titles(facts).filter((title) => /check/i.test(title))).toEqual([]);
    // With nothing after it in the turn, the check is still to do.
    expect(titles(factsOf([['S', 'Let me just check the evening slots.'], ['D', 'Okay.']]))).toEqual(['Check the evening slots']);
  });

  test('"I need to make a claim" as the reason for the call is no action; said later, it is one', () => {
    const opening = factsOf([
      ['S', 'Good morning, Hartwell Insurance, Sheila speaking.'],
      ['D', "Hi, it's Laura. I need to make a claim."],
      ['S', 'Of course. What happened?'],
      ['D', 'A pipe burst in the kitchen on Sunday night.'],
    ], { greeting: false });
    expect(titles(opening).filter((title) => /claim/i.test(title))).toEqual([]);
    const later = factsOf([
      ['S', 'Good morning, Hartwell Insurance, Sheila speaking.'],
      ['D', "Hi, it's Laura. A pipe burst in the kitchen on Sunday night."],
      ['S', 'Oh no. How bad is it?'],
      ['D', 'The whole floor is soaked.'],
      ['S', 'I see.'],
      ['D', 'I need to make a claim.'],
    ], { greeting: false });
    expect(titles(later)).toEqual(['Make a claim']);
  });

  test('"Can you confirm the last four digits of the card for me?" is a question on the line, no action', () => {
    const facts = factsOf([['S', 'Can you confirm the last four digits of the card for me?'], ['D', 'Yes, it ends in four four one two.']]);
    expect(facts.actionItems).toEqual([]);
  });
});

describe('"it" in an action is the thing the call keeps talking about', () => {
  test('"I\'ll pay it by the fifteenth" after the bill was discussed is "Pay the bill"', () => {
    const facts = factsOf([
      ['S', 'The bill was based on an estimated reading.'],
      ['S', 'With the actual reading the bill comes down to eighty-four euro twenty.'],
      ['D', "Grand, I'll pay it by the fifteenth, then."],
    ]);
    expect(itemTitled(facts, /^Pay the bill\b/).dueDate).toBe('2026-12-15');
  });

  test('a date or a person is no antecedent; a noun said once is one only in the answer to its turn', () => {
    const facts = factsOf([['S', "So that's the fifteenth with the nurse."], ['D', "I'll write it down."]]);
    expect(titles(facts)).toEqual(['Write it down']);
    const answered = factsOf([['S', 'Your next visit is on the fifteenth with the nurse.'], ['D', "I'll write it down."]]);
    expect(titles(answered)).toEqual(['Write the next visit down']);
    // Sentences of the answer before it that name no thing leave the answered turn's thing standing.
    const later = factsOf([['S', 'Your next visit is on the fifteenth with the nurse.'], ['D', 'Thanks for calling about that, that is really helpful of you.'], ['D', "I'll write it down."]]);
    expect(titles(later)).toEqual(['Write the next visit down']);
    // A turn in between is what the answer answers.
    const afterAnotherTurn = factsOf([['S', 'Your next visit is on the fifteenth with the nurse.'], ['D', 'Thanks.'], ['S', 'Anything else I can help with?'], ['D', "No. I'll write it down."]]);
    expect(titles(afterAnotherTurn)).toEqual(['Write it down']);
  });
});

describe('a day and time put in a diary is an appointment', () => {
  test('"I\'ll move her to Tuesday the first of December at two thirty with Dr. Patel" after "my mum\'s appointment"', () => {
    const item = itemTitled(extractFacts(callOn(rebooking)), /^Appointment/);
    expect(item).toMatchObject({ intent: 'meeting', title: 'Appointment with Dr. Patel', dueDate: '2026-12-01' });
    expect(item.intentMetadata.proposedAt).toMatch(/^2026-12-01T14:30/);
  });
});

describe('when something arrives is not when it is done', () => {
  test('"I\'ll post you a claim form, it should be with you early next week" has no due date', () => {
    const facts = factsOf([['S', "I'll post you a claim form to fill in, it should be with you early next week."]]);
    expect(itemTitled(facts, /claim form/i).dueDate).toBeNull();
  });
});

describe('what the other party will receive is no request of them', () => {
  test('"I\'ll pop the letter in the post tonight, you should have it by Saturday" is one task: posting it, tonight', () => {
    const facts = factsOf([['S', "I'll pop the letter in the post tonight, you should have it by Saturday."]]);
    expect(facts.actionItems.map((item) => [item.title, item.ownerRole, item.dueDate])).toEqual([['Post the letter', 'CONTACT', '2026-11-24']]);
  });

  test('"on the tenth" is a day of the month even with nothing after it that names one', () => {
    const facts = factsOf([['S', "Your payment is due on the fifteenth, but I'll take it on the tenth if that suits."]]);
    expect(facts.actionItems[0]?.dueDate).toBe('2026-12-10');
  });
});

describe('a time window stays in the title', () => {
  test('"I\'ll book the redelivery for Friday between eight and noon" keeps "between eight and noon"', () => {
    const facts = factsOf([
      ['D', 'The parcel came back to your depot yesterday.'],
      ['S', "Right, I'll book the redelivery for Friday between eight and noon."],
    ]);
    expect(itemTitled(facts, /redelivery/).title).toContain('between eight and noon');
  });
});

describe('dates and amounts as said', () => {
  test('a weekday before a full date and a time is one mention', () => {
    const mentions = findDateMentions("I'll move her to Tuesday the first of December at two thirty.", clock, lexicon.dates);
    expect(mentions.map(({ text, date, time }) => ({ text, date, time }))).toEqual([
      { text: 'Tuesday the first of December at two thirty', date: '2026-12-01', time: '14:30' },
    ]);
  });

  const money = (sentence: string) => findAmounts(sentence, lexicon.amounts, lexicon.numbers)
    .filter((amount) => amount.kind === 'money').map(({ value, currency }) => ({ value, currency }));

  test('cents said after the currency word belong to the amount', () => {
    expect(money('So the bill comes down to eighty-four euro twenty.')).toEqual([{ value: 84.2, currency: 'EUR' }]);
    expect(money('It was twenty-three dollars fifty, all in.')).toEqual([{ value: 23.5, currency: 'USD' }]);
  });

  test('a word after the currency that is no number, or a number that is a percentage, is no cents', () => {
    expect(money("It's sixty euro for the visit.")).toEqual([{ value: 60, currency: 'EUR' }]);
    expect(money('That was fifty dollars twenty percent off.')).toEqual([{ value: 50, currency: 'USD' }]);
  });

  test('an amount with cents said in words is grounded in the transcript', async () => {
    const input = callOn([
      ['D', "I'm calling about the bill for my mum's visit last week."],
      ['S', 'After the insurance, the bill comes down to eighty-four euro twenty.'],
      ['D', "Okay, I'll pay it online this evening."],
    ]);
    const analysed = await analyseCall(input, createBuiltinAnalyser(), createTestStageContext());
    expect(analysed.analysis.numbersAndAmounts!.map(({ value, currency }) => ({ value, currency }))).toContainEqual({ value: 84.2, currency: 'EUR' });
    expect(analysed.grounding.violationsBefore.filter((violation) => violation.kind === 'amount')).toEqual([]);

    const corpus = buildGroundingCorpus(input.transcript, input.metadata, input.recordedAt, input.timeZone);
    const amount = (value: number) => emptyAnalysis({
      numbersAndAmounts: [{ text: 'eighty-four euro twenty', kind: 'money', value, unit: null, currency: 'EUR', context: 'the bill', sourceSegmentIds: [input.transcript.segments[3]!.id] }],
    });
    expect(groundAnalysis(amount(84.2), corpus).violationsBefore).toEqual([]);
    expect(groundAnalysis(amount(84.3), corpus).violationsBefore.map((violation) => violation.kind)).toEqual(['amount']);
  });
});

describe('"ring" reads "call"', () => {
  test('"I\'ll ring you back tomorrow" is titled "Call …"', () => {
    const facts = factsOf([['D', 'Is the repair done yet?'], ['S', "Not yet, but I'll ring you back tomorrow."]]);
    expect(itemTitled(facts, /back/).title).toMatch(/^Call\b/);
  });
});

describe('round 4: what an action is about and when it is due', () => {
  const item = (turns: Turn[]) => factsOf(turns).actionItems.map((found) => ({ title: found.title, intent: found.intent, owner: found.ownerRole, due: found.dueDate }));

  test('"sign it" and "pay it" take the thing those verbs are done to, even said once', () => {
    expect(item([
      ['S', "We don't have Jayden's permission slip back yet."],
      ['D', "I think it's still in his backpack."],
      ['S', 'It needs to be back by Friday.'],
      ['D', "Okay. I'll sign it tonight and send it in with him tomorrow."],
    // "him" is the child named before (round 5).
    ])).toEqual([{ title: 'Sign the permission slip and send it in with Jayden', intent: 'task', owner: 'USER', due: '2026-11-25' }]);
    const paid = factsOf([['S', "There's a fifteen pound fee for the trip, also due Friday."], ['D', "Fifteen pounds, got it. I'll pay it on the portal by Friday."]]);
    // Round 5: what the fee is for comes with it.
    expect(itemTitled(paid, /^Pay the fee for the trip on the portal$/)).toMatchObject({ dueDate: '2026-11-27', description: expect.stringMatching(/\(Fifteen pounds\)$/) });
  });

  test('a visit booked in a window is a task to plan around; an appointment named with its time is a meeting', () => {
    expect(item([['S', "I'll book Gary in for Friday between eight and twelve."], ['D', 'Great.']]))
      .toEqual([{ title: 'Book Gary in between eight and twelve', intent: 'task', owner: 'CONTACT', due: '2026-11-27' }]);
    expect(item([['S', "I'll reserve the family room for the birthday visit on Sunday at eleven."], ['D', 'Lovely.']])[0]).toMatchObject({ intent: 'meeting', due: '2026-11-29' });
  });

  test('"if I have to pop out, I\'ll leave the key …": the condition is no promise, what follows it is', () => {
    expect(item([['D', "If I have to pop out, I'll leave the key with Mrs Daly."], ['S', 'Fine.']]).map((found) => found.title)).toEqual(['Leave the key with Mrs Daly']);
  });

  test('"I\'ll send that right after we hang up" answers the request, due today', () => {
    expect(item([
      ['D', 'Could you email me the claim details?'],
      ['S', "Sure. What's the best email?"],
      ['D', 'diane at example dot com.'],
      ['S', "I'll send that right after we hang up."],
    ])).toEqual([{ title: 'Email the claim details to Diane', intent: 'email', owner: 'CONTACT', due: '2026-11-24' }]);
  });

  test('"our loss adjuster, Mark Fenwick, will ring you" is a third party\'s call', () => {
    expect(item([['S', 'Our loss adjuster, Mark Fenwick, will ring you by Friday to arrange a visit.'], ['D', 'Okay.']]))
      .toEqual([{ title: 'Call Diane to arrange a visit', intent: 'call', owner: null, due: '2026-11-27' }]);
  });

  test('"I need to get Colm in" … "I\'ll book Colm in for Friday": one action, the booking, titled by the job it is for', () => {
    expect(item([
      ['S', 'The gas safety check is due, so I need to get Colm, our gas engineer, in.'],
      ['D', 'Right.'],
      ['S', 'He could do Friday between ten and two.'],
      ['D', "Friday's fine."],
      ['S', "I'll book Colm in for Friday between ten and two, then."],
    ])).toEqual([{ title: 'Book gas engineer Colm in between ten and two for the safety check', intent: 'task', owner: 'CONTACT', due: '2026-11-27' }]);
  });

  test('"Let me check... no, …" is a check done on the line', () => {
    expect(factsOf([['D', 'Do I need to pay anything?'], ['S', "Let me check... no, you've got nothing to pay."]]).actionItems).toEqual([]);
  });

  test('a day talked about is no due date, nor one said in the condition before a promise', () => {
    expect(item([['D', "I'll ring you tomorrow afternoon and let you know about Thursday."], ['S', 'Perfect.']]))
      .toEqual([{ title: 'Call Sheila and let Sheila know about Thursday', intent: 'call', owner: 'USER', due: '2026-11-25' }]);
    expect(item([['S', 'Shall we say Thursday the third?'], ['D', "Yes. And if he ends up in hospital that day, I'll call you to move it."]]))
      .toEqual([{ title: 'Call Sheila to move it', intent: 'call', owner: 'USER', due: null }]);
  });

  test('requests and promises said less directly: "would you mind sending", "I\'ll be calling", "shoot you an email"', () => {
    expect(item([['S', 'Would you mind sending me the form by Friday?'], ['D', 'Sure.']])).toEqual([{ title: 'Send the form to Sheila', intent: 'task', owner: 'USER', due: '2026-11-27' }]);
    expect(item([['S', "I'll be calling you on Friday."], ['D', 'Okay.']])).toEqual([{ title: 'Call Diane', intent: 'call', owner: 'CONTACT', due: '2026-11-27' }]);
    expect(item([['S', "I'll shoot you an email by end of day."], ['D', 'Okay.']])).toEqual([{ title: 'Email Diane', intent: 'email', owner: 'CONTACT', due: '2026-11-24' }]);
    expect(item([['S', "We'll need you to sign the form by Friday."], ['D', 'Okay.']])).toEqual([{ title: 'Sign the form', intent: 'task', owner: 'USER', due: '2026-11-27' }]);
    expect(item([['S', 'All you need to do is send us a photo by Friday.'], ['D', 'Okay.']])).toEqual([{ title: 'Send a photo to Sheila', intent: 'task', owner: 'USER', due: '2026-11-27' }]);
  });
});

describe('round 4: offers, things named elsewhere, people not on the call', () => {
  const item = (turns: Turn[]) => factsOf(turns).actionItems.map((found) => ({ title: found.title, intent: found.intent, owner: found.ownerRole, due: found.dueDate }));

  test('an offer accepted is the offerer\'s promise; turned down, or only asking, it is none', () => {
    expect(item([['S', 'Shall I send you the form by email?'], ['D', 'Yes please.']])).toEqual([{ title: 'Send the form by email to Diane', intent: 'email', owner: 'CONTACT', due: null }]);
    expect(item([['S', 'Can I call you back tomorrow?'], ['D', 'Sure.']])).toEqual([{ title: 'Call Diane back', intent: 'call', owner: 'CONTACT', due: '2026-11-25' }]);
    expect(item([['S', 'I can text you a link if you like.'], ['D', 'Yes please.']]).map((found) => found.owner)).toEqual(['CONTACT']);
    expect(factsOf([['S', 'Shall I send you the form by email?'], ['D', "No, it's fine, I have it."]]).actionItems).toEqual([]);
    expect(factsOf([['D', 'Can I still print things there?'], ['S', 'Yes, the printers are upstairs.']]).actionItems).toEqual([]);
    expect(factsOf([['S', 'Can I take your date of birth?'], ['D', "Sure, it's the third of May."]]).actionItems).toEqual([]);
  });

  test('"What I\'ll do is send you a link" promises what follows "is"', () => {
    expect(item([['S', "What I'll do is send you a link by text."], ['D', 'Great.']])).toEqual([{ title: 'Send a link by text to Diane', intent: 'message', owner: 'CONTACT', due: null }]);
  });

  test('"the replacement" takes the thing the call is about: "Order the replacement card"', () => {
    const facts = factsOf([
      ['D', 'My debit card has snapped in half.'],
      ['S', "I've cancelled the old card now, so nobody can use it."],
      ['D', 'How long will the new one take?'],
      ['S', "I'll order the replacement today."],
    ]);
    expect(itemTitled(facts, /^Order the replacement card$/).dueDate).toBe('2026-11-24');
  });

  test('"… and pick it all up together": a later step done to "it" takes the thing its verb is done to', () => {
    const facts = factsOf([
      ['S', 'Just to let you know, your prescription is ready to collect.'],
      ['D', "Lovely. I'll pop in on Thursday and pick it all up together."],
    ]);
    expect(itemTitled(facts, /^Pop in and pick up the prescription together$/).dueDate).toBe('2026-11-26');
    // When the title already names the thing, "it" is that thing: the title stays as said.
    expect(item([['S', "If you could just sign the form and send it back by Friday, that'd be great."], ['D', 'Sure.']]).map((found) => found.title))
      .toEqual(['Sign the form and send it back']);
  });

  test('"Just post it through the door" answered by "I\'ll post the spare key through your door" is titled by the answer, due today', () => {
    expect(item([
      ['D', "What's the best way to get you the spare key?"],
      ['S', 'Just post it through the door.'],
      ['D', "Okay, I'll post the spare key through your door straight after this."],
    ])).toEqual([{ title: "Post the spare key through Sheila's door", intent: 'task', owner: 'USER', due: '2026-11-24' }]);
  });

  test('"Could you send me the photos?" – "I\'ll do that tonight": the answer dates the request; a day said otherwise does not', () => {
    expect(item([['S', 'Could you send me the photos?'], ['D', "Sure, I'll do that tonight."]])).toEqual([{ title: 'Send the photos to Sheila', intent: 'task', owner: 'USER', due: '2026-11-24' }]);
    expect(item([['S', 'Could you send me the photos?'], ['D', "Sure, I'm off on Friday though."]]).map((found) => found.due)).toEqual([null]);
  });

  test('"someone will call you", "one of our engineers will ring you": a third party\'s action, no owner', () => {
    expect(item([['S', 'Someone will call you tomorrow to book it in.'], ['D', 'Okay.']])).toEqual([{ title: 'Call Diane to book it in', intent: 'call', owner: null, due: '2026-11-25' }]);
    expect(item([['S', 'One of our engineers will ring you tomorrow.'], ['D', 'Okay.']]).map((found) => found.owner)).toEqual([null]);
  });
});

describe('round 5: bookings made on the line, people and things pointed back to, days and times', () => {
  const item = (turns: Turn[]) => factsOf(turns).actionItems.map((found) => ({ title: found.title, intent: found.intent, owner: found.ownerRole, due: found.dueDate }));
  const proposedAt = (turns: Turn[]) => factsOf(turns).actionItems.map((found) => (found.intentMetadata as { proposedAt?: string } | null)?.proposedAt ?? null);

  test('a booking made during the call ("I\'ve booked you in", "you\'re booked in", "that\'s a table for …") is an appointment', () => {
    expect(item([['S', "I've booked you in for Friday at ten with Dr Shah."], ['D', 'Thank you.']]))
      .toEqual([{ title: 'Book Diane in with Dr Shah', intent: 'meeting', owner: 'CONTACT', due: '2026-11-27' }]);
    expect(item([['S', "Right, I've put you down for Monday at nine."]])).toEqual([{ title: 'Put Diane down', intent: 'meeting', owner: 'CONTACT', due: '2026-11-30' }]);
    expect(item([['S', "You're all booked in for Thursday at half two."]]).map((found) => [found.intent, found.due])).toEqual([['meeting', '2026-11-26']]);
    expect(item([['S', "I've got you down for Thursday at three."]]).map((found) => [found.intent, found.due])).toEqual([['meeting', '2026-11-26']]);
    expect(item([['S', "Perfect. So that's a table for eight next Friday at seven thirty, under Diane."]]))
      .toEqual([{ title: 'Book a table for eight', intent: 'meeting', owner: 'CONTACT', due: '2026-12-04' }]);
    // Something done to a thing, or a move of one's own, is no booking.
    expect(factsOf([['S', "I've put the disputed part on hold."], ['D', "I've just moved into a house in Lane Cove."]]).actionItems).toEqual([]);
  });

  test('a thing put in somewhere is no slot in a diary: "put it in her book bag" stays a task', () => {
    expect(item([['D', "Yes, I'll put the form in her book bag for Thursday."]])).toEqual([{ title: 'Put the form in her book bag', intent: 'task', owner: 'USER', due: '2026-11-26' }]);
    expect(item([['S', "I'll pop you in the afternoon list on Thursday at two."]]).map((found) => found.intent)).toEqual(['meeting']);
  });

  test('"her" or "him" done to is the person named last before ("Ellie\'s mum", "but Ruby\'s not well"); a titled professional is not', () => {
    expect(item([
      ['S', "Hello, is that Ellie's mum? Ellie's been sick in class, so she'll need to go home."],
      ['D', "Oh, poor thing. I'll come and get her now."],
    ])).toEqual([{ title: 'Come and get Ellie', intent: 'task', owner: 'USER', due: '2026-11-24' }]);
    expect(item([
      ['S', "Nothing to panic about, but Ruby's not feeling well this morning."],
      ['D', "Um, my partner's got the car today, so I'll come and get her by half eleven."],
    ])).toEqual([{ title: 'Come and get Ruby', intent: 'task', owner: 'USER', due: '2026-11-24' }]);
    // "Um, my partner" names no partner called Um; "Dr. Patel" is not whom "her" stands for.
    expect(titles(factsOf([['S', 'Dr. Patel can see your mum on Tuesday.'], ['S', "I'll move her to Tuesday at two thirty with Dr. Patel, then."]])))
      .toEqual(['Move her with Dr. Patel']);
  });

  test('"we have to move your filling" is the speaker\'s side; the booking that follows is that move', () => {
    expect(item([
      ['S', 'Dr Kearney is off sick, so we have to move your filling tomorrow.'],
      ['D', 'Could you do a week on Monday, in the afternoon?'],
      ['S', 'A week on Monday, I have quarter past three.'],
      ['D', 'Quarter past three, yes, that works.'],
      ['S', "Grand, I'll move you to a week on Monday at quarter past three with Dr Kearney, then."],
    ])).toEqual([{ title: "Move Diane's filling", intent: 'meeting', owner: 'CONTACT', due: '2026-12-07' }]);
  });

  test('office work promised ("I\'ll fax a refill request over") is an action; "pay it" after "a payment link" is not the link', () => {
    expect(item([['S', "Okay. I'll fax a refill request over to Dr. Patel's office tonight."]])).toEqual([{ title: "Fax a refill request over to Dr. Patel's office", intent: 'task', owner: 'CONTACT', due: '2026-11-24' }]);
    expect(titles(factsOf([
      ['S', 'For groups of eight we do take a deposit of twenty pounds a head.'],
      ['S', "I'll text you a payment link right after we hang up. Could you pay it by Wednesday?"],
    ]))).toContain('Pay the deposit');
  });

  test('"in the morning" with no day is tomorrow; a time after its day needs no "at"; a time before "Thursday week" stays', () => {
    expect(item([['S', "I'll ring you back in the morning."]])).toEqual([{ title: 'Call Diane back', intent: 'call', owner: 'CONTACT', due: '2026-11-25' }]);
    expect(proposedAt([['S', "I've booked you in for Thursday, half eight."]])).toEqual(['2026-11-26T08:30:00+00:00']);
    expect(proposedAt([['S', "I'll book you in for tomorrow, ten thirty."]])).toEqual(['2026-11-25T10:30:00+00:00']);
    expect(proposedAt([['S', "Lovely, I'll book you in with Dr Bhatt for half two on Thursday week, then."]])).toEqual(['2026-12-03T14:30:00+00:00']);
    expect(proposedAt([['S', "I'll put Pepper down for a dental on Thursday, drop-off at eight thirty."]])).toEqual(['2026-11-26T08:30:00+00:00']);
    // "at seven thirty in the morning" only says which seven thirty: no day.
    expect(findDateMentions('Drop-off would be at seven thirty in the morning.', clock, lexicon.dates).map((mention) => mention.date)).toEqual([null]);
  });

  test('a time said alone, with no other day just before, is on the call\'s day; "I\'ll go to the branch" is an errand', () => {
    expect(item([['D', "Okay, I'll go to the branch tomorrow morning."]])).toEqual([{ title: 'Go to the branch', intent: 'task', owner: 'USER', due: '2026-11-25' }]);
    // Another day said just before is the one the time is on ("Your pickup is Friday." … "at four").
    expect(item([['S', 'Your pickup is Friday.'], ['D', "Great, I'll collect the parcel at four."]]).map((found) => found.due)).toEqual(['2026-11-27']);
    expect(item([['D', 'My partner has the car today.'], ['D', "I'll collect the parcel at four."]]).map((found) => found.due)).toEqual(['2026-11-24']);
  });

  test('"pay it" after "the money for the Science Museum trip" says which money', () => {
    expect(titles(factsOf([
      ['S', "While I've got you, we haven't had the money for the Science Museum trip yet. It's fourteen pounds."],
      ['D', "Oh, I completely forgot about that. I'll pay it on the app tonight."],
    ]))).toEqual(['Pay the money for the Science Museum trip on the app']);
  });

  test('"I\'ll have a look" says nothing to act on; "I\'ll have a look at the brakes" does', () => {
    expect(factsOf([['S', "Bring it in and I'll have a look."], ['D', 'Great.']]).actionItems).toEqual([]);
    expect(titles(factsOf([['S', "I'll have a look at the brakes."]]))).toEqual(['Have a look at the brakes']);
  });

  test('a request answered by a reply that opens by accepting it is one action, titled by the promise', () => {
    expect(item([
      ['S', 'Could you pop in and see the nurse for a peak flow reading before then?'],
      ['D', "Yes, I can do that. I'll come in for the peak flow on Monday morning, before work."],
    ])).toEqual([{ title: 'Come in for the peak flow', intent: 'task', owner: 'USER', due: '2026-11-30' }]);
    // A promise pointing back ("that text") keeps the request's words.
    expect(titles(factsOf([['D', "Could you text me something to confirm the card's cancelled?"], ['S', "Of course, I'll send you that text in the next few minutes."]])))
      .toEqual(["Text Diane something to confirm the card's cancelled"]);
  });

  test('"that afternoon" counts from the day talked about, not from "this morning" nor from "the night before"', () => {
    const facts = factsOf([
      ['S', "I'll put Pepper down for a dental the day after tomorrow, drop-off at eight thirty."],
      ['S', "She'll need to fast the night before. I'll email you the instructions this morning."],
      ['S', 'Dr. Ramirez will give you a call that afternoon, once Pepper is awake.'],
    ]);
    expect(itemTitled(facts, /^Call Diane/).dueDate).toBe('2026-11-26');
  });
});
