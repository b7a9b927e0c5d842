import { Value } from 'typebox/value';
import { describe, expect, test } from 'vitest';
import { AnalysisSchema, type AnalysisActionItem } from '../../../../src/domain/analysis/analysisSchema.js';
import { extractFacts, type ExtractedFacts, type FactListKey } from '../../../../src/pipeline/analysis/builtin/extractFacts.js';
import { callOf, defaultMetadata, itemTitled, type Turn } from './facts/factTestCalls.js';

const factsOf = (turns: Turn[], options?: Parameters<typeof callOf>[1]) => extractFacts(callOf(turns, options));


const factListKeys: FactListKey[] = [
  'actionItems', 'followUps', 'importantDates', 'decisions', 'commitments', 'openQuestions', 'risks', 'opportunities', 'peopleMentioned', 'numbersAndAmounts',
];

/** Every list validates against its Analysis v2 schema (the element shapes and the list limits). */
function expectValidLists(facts: ExtractedFacts): void {
  for (const key of factListKeys) {
    expect(Value.Check(AnalysisSchema.properties[key], facts[key]), `${key}: ${JSON.stringify(Value.Errors(AnalysisSchema.properties[key], facts[key]).slice(0, 3))}`).toBe(true);
  }
  expect(Value.Check(AnalysisSchema.properties.qualityWarnings, facts.qualityWarnings)).toBe(true);
}

/** The sales call most tests read: Diane (the user) and Sheila (the contact, of Acme Supplies). */
const salesCall: Turn[] = [
  ['S', "I'm calling about the order. We need 500 units by the end of the month, and the price was $1,200 per pallet with a 15% discount."],
  ['D', "Great. I'll send you the revised contract by Friday. Let's set up a Zoom call next Tuesday at 3 for half an hour to go through it."],
  ['S', 'Perfect. Could you call me back on 555 0142 tomorrow? My colleague Mark Stevens will join too, and you should ask Priya from Acme about the clause.'],
  ['D', "Sure. What's your email, by the way?"],
  ['S', "It's sheila dot brown at acme dot co dot uk."],
  ['D', "Thanks. I'll email you the invoice today. Remind me to renew the insurance on Monday at 9."],
  ['S', "Will do. I'll WhatsApp you the photos tonight. I'm really worried the delivery will be delayed. We'd love to place another order in April."],
  ['D', 'Who signs off on the budget?'],
  ['S', "I don't know, I'll have to check with Dr. Patel."],
  ['D', "OK, we decided to go with the premium plan. I'll check with my manager about the discount. Mark's team can help."],
];

describe('extractFacts on a sales call', () => {
  const facts = factsOf(salesCall);

  test('every list is an array that validates against the Analysis v2 schema, with no warnings', () => {
    expectValidLists(facts);
    expect(facts.qualityWarnings).toEqual([]);
  });

  test('"next Tuesday at 3" is a joint Zoom meeting on Tuesday 10 March at 15:00 with both parties and no owner', () => {
    expect(facts.importantDates).toContainEqual(expect.objectContaining({ text: 'next Tuesday at 3', date: '2026-03-10', time: '15:00' }));
    const meeting = itemTitled(facts, /zoom call/i);
    expect(meeting).toMatchObject({
      title: 'Set up a Zoom call to go through it',
      intent: 'meeting',
      dueDate: '2026-03-10',
      ownerSpeakerId: null, ownerSpeakerLabel: null, ownerDisplayName: null, ownerRole: null,
      intentMetadata: { providerHint: 'zoom', proposedAt: '2026-03-10T15:00:00+00:00', durationMinutes: 30 },
    });
    expect(meeting.intentMetadata.attendees?.map((attendee) => attendee.name).sort()).toEqual(['Diane', 'Sheila']);
  });

  test('a promise is the speaker\'s: "I\'ll send you the revised contract by Friday" is Diane\'s, due Friday 6 March', () => {
    const send = itemTitled(facts, /revised contract/);
    expect(send).toMatchObject({
      title: 'Send the revised contract to Sheila', description: "I'll send you the revised contract by Friday.", dueDate: '2026-03-06',
      ownerSpeakerLabel: 'Diane', ownerDisplayName: 'Diane', ownerRole: 'USER', intent: 'task', priority: 'medium',
    });
    expect(facts.commitments).toContainEqual({ text: "I'll send you the revised contract by Friday.", speakerId: send.ownerSpeakerId, dueDate: '2026-03-06', sourceSegmentIds: send.sourceSegmentIds });
    expect(facts.followUps).toContainEqual({ text: send.title, ownerSpeakerId: send.ownerSpeakerId, dueDate: '2026-03-06', sourceSegmentIds: send.sourceSegmentIds });
  });

  test('a request is the other party\'s: Sheila\'s "could you call me back on 555 0142" is Diane\'s call to Sheila', () => {
    expect(itemTitled(facts, /^Call Sheila back/)).toMatchObject({
      title: 'Call Sheila back on 555 0142', ownerDisplayName: 'Diane', ownerRole: 'USER', dueDate: '2026-03-05',
      intent: 'call', intentMetadata: { phoneNumber: '555 0142', contactName: 'Sheila' },
    });
    expect(itemTitled(facts, /Priya/)).toMatchObject({ title: 'Ask Priya from Acme about the clause', ownerDisplayName: 'Diane' });
  });

  test('a spelled address is written out for the email Diane promised, and "today" makes it urgent', () => {
    expect(itemTitled(facts, /invoice/)).toMatchObject({
      title: 'Email the invoice to Sheila', intent: 'email', priority: 'high', dueDate: '2026-03-04', ownerDisplayName: 'Diane',
      intentMetadata: { toEmail: 'sheila.brown@acme.co.uk', toName: 'Sheila', subject: 'Invoice', bodyPreview: "I'll email you the invoice today." },
    });
  });

  test('"remind me to …" is a reminder for the speaker, at the day and time said', () => {
    expect(itemTitled(facts, /insurance/)).toMatchObject({
      title: 'Renew the insurance', intent: 'reminder', ownerDisplayName: 'Diane', dueDate: '2026-03-09',
      intentMetadata: { remindAt: '2026-03-09T09:00:00+00:00', title: 'Renew the insurance' },
    });
  });

  test('a WhatsApp message goes to the user, so the metadata\'s number (the contact\'s) is not put on it', () => {
    const message = itemTitled(facts, /photos/);
    expect(message).toMatchObject({
      title: 'WhatsApp the photos to Diane', intent: 'message', ownerDisplayName: 'Sheila', ownerRole: 'CONTACT', priority: 'high',
      intentMetadata: { channel: 'whatsapp', providerHint: 'whatsapp' },
    });
    expect(message.intentMetadata.phoneNumber).toBeUndefined();
  });

  test('a task keeps the owner\'s own words ("my manager")', () => {
    expect(itemTitled(facts, /manager/)).toMatchObject({
      title: 'Check with my manager about the discount', intent: 'task', ownerDisplayName: 'Diane',
      intentMetadata: { title: 'Check with my manager about the discount', notes: "I'll check with my manager about the discount." },
    });
  });

  test('money, percentages, quantities, durations and phone numbers are listed as said, with values and currencies', () => {
    const amounts = facts.numbersAndAmounts.map(({ text, kind, value, unit, currency }) => ({ text, kind, value, unit, currency }));
    expect(amounts).toEqual(expect.arrayContaining([
      { text: '500 units', kind: 'quantity', value: 500, unit: 'units', currency: null },
      { text: '$1,200', kind: 'money', value: 1200, unit: null, currency: 'USD' },
      { text: '15%', kind: 'percentage', value: 15, unit: '%', currency: null },
      { text: 'half an hour', kind: 'duration', value: 30, unit: 'minutes', currency: null },
      { text: '555 0142', kind: 'phone_number', value: null, unit: null, currency: null },
    ]));
    expect(facts.numbersAndAmounts.find((amount) => amount.text === '$1,200')?.context).toMatch(/^We need 500 units/);
  });

  test('participants and third parties are named with the roles said; days, brands and the organisation are no people', () => {
    const people = facts.peopleMentioned.map(({ name, relation, role, speakerId }) => ({ name, relation, role, speakerId }));
    expect(people).toEqual([
      { name: 'Sheila', relation: 'participant', role: null, speakerId: 'spk_0' },
      { name: 'Diane', relation: 'participant', role: null, speakerId: 'spk_1' },
      { name: 'Mark Stevens', relation: 'third_party', role: 'colleague', speakerId: null },
      { name: 'Priya', relation: 'third_party', role: null, speakerId: null },
      { name: 'Dr. Patel', relation: 'third_party', role: null, speakerId: null },
    ]);
    // "Mark's team" is the same Mark: his mentions are cited together.
    expect(facts.peopleMentioned[2]?.sourceSegmentIds).toEqual(['seg_0005', 'seg_0012']);
  });

  test('decisions, risks, opportunities and open questions are the sentences that state them', () => {
    expect(facts.decisions).toEqual([{ text: 'OK, we decided to go with the premium plan.', madeBySpeakerId: 'spk_1', sourceSegmentIds: ['seg_0012'] }]);
    expect(facts.risks).toEqual([{ text: "I'm really worried the delivery will be delayed.", severity: 'high', sourceSegmentIds: ['seg_0009'] }]);
    expect(facts.opportunities.map((opportunity) => opportunity.text)).toEqual(["We'd love to place another order in April."]);
    // Answered only with "I don't know": open, the reply cited too.
    expect(facts.openQuestions).toEqual([{ text: 'Who signs off on the budget?', askedBySpeakerId: 'spk_1', sourceSegmentIds: ['seg_0010', 'seg_0011'] }]);
  });
});

describe('extractFacts ownership', () => {
  test('with three speakers, "you" is unclear: a request gets null owner fields, a promise stays the speaker\'s', () => {
    const facts = factsOf([
      ['D', 'Hi all.'],
      ['S', 'Could you send me the updated price list?'],
      ['X', "I'll prepare the slides for the board."],
    ], { greeting: false });
    expect(itemTitled(facts, /price list/)).toMatchObject({ ownerSpeakerId: null, ownerSpeakerLabel: null, ownerDisplayName: null, ownerRole: null });
    expect(itemTitled(facts, /slides/)).toMatchObject({ ownerSpeakerId: 'spk_2', ownerSpeakerLabel: 'Speaker 3', ownerRole: 'UNKNOWN' });
  });

  test('"let\'s" and "we need to" have no owner; "could you" is the addressee\'s, also when Diane asks', () => {
    const facts = factsOf([
      ['D', 'We need to finalise the budget. Could you send me the signed form by Friday?'],
      ['S', "Sure, and let's review the numbers next week."],
    ]);
    expect(itemTitled(facts, /budget/).ownerSpeakerId).toBeNull();
    expect(itemTitled(facts, /review the numbers/i).ownerSpeakerId).toBeNull();
    expect(itemTitled(facts, /signed form/)).toMatchObject({ title: 'Send the signed form to Diane', ownerDisplayName: 'Sheila', ownerRole: 'CONTACT', dueDate: '2026-03-06' });
  });

  test('"if you could …" and "don\'t forget to …" are requests; "you\'re" keeps its pronoun in the title', () => {
    const facts = factsOf([['S', "If you could sign it by Monday that would be great. Don't forget to bring the keys."], ['D', "Let me know by Friday whether you're in."]]);
    expect(itemTitled(facts, /^Sign/)).toMatchObject({ title: 'Sign it', ownerDisplayName: 'Diane', dueDate: '2026-03-09' });
    expect(itemTitled(facts, /keys/)).toMatchObject({ title: 'Bring the keys', ownerDisplayName: 'Diane' });
    expect(itemTitled(facts, /^Let/)).toMatchObject({ title: "Let Diane know whether you're in", ownerDisplayName: 'Sheila', dueDate: '2026-03-06' });
  });

  test('the same promise said twice is one item citing both segments, with the due date said the second time', () => {
    const facts = factsOf([
      ['D', "I'll send you the contract."],
      ['S', 'Great, thanks.'],
      ['D', "I'll send the contract over by Friday then."],
    ]);
    expect(facts.actionItems).toHaveLength(1);
    expect(facts.actionItems[0]).toMatchObject({ title: 'Send the contract to Sheila', dueDate: '2026-03-06', sourceSegmentIds: ['seg_0003', 'seg_0005'] });
  });
});

describe('extractFacts intents', () => {
  test('an address spelled a turn later, and a literal one, fill `toEmail`', () => {
    const spelledLater = factsOf([['S', 'Can you email me the quote?'], ['D', 'Of course, what address?'], ['S', 'It is john dot smith at acme dot com.']]);
    expect(itemTitled(spelledLater, /quote/)).toMatchObject({ intent: 'email', ownerDisplayName: 'Diane', intentMetadata: { toEmail: 'john.smith@acme.com', toName: 'Sheila', subject: 'Quote' } });
    const literal = factsOf([['D', 'Please email the brochure to sheila.brown@acme.co.uk today.']]);
    expect(itemTitled(literal, /brochure/)).toMatchObject({ intent: 'email', ownerDisplayName: 'Sheila', intentMetadata: { toEmail: 'sheila.brown@acme.co.uk' } });
  });

  test('a call to the contact takes the metadata\'s number; a call to the user has none', () => {
    const facts = factsOf([['D', "I'll call you tomorrow morning."], ['S', "Good, and I'll ring your colleague too."]]);
    expect(itemTitled(facts, /^Call Sheila/)).toMatchObject({ intent: 'call', dueDate: '2026-03-05', intentMetadata: { phoneNumber: defaultMetadata.phoneNumber, contactName: 'Sheila' } });
    expect(itemTitled(facts, /colleague/).intentMetadata.phoneNumber).toBeUndefined();
  });

  test('a Teams invite for a day and time is a meeting with that time, in the zone\'s offset on that day', () => {
    const berlin = callOf([['S', "I'll send you a Teams invite for April 2nd at 10am."]]);
    const facts = extractFacts({ ...berlin, timeZone: 'Europe/Berlin' });
    // Berlin is on summer time (+02:00) from 29 March, though the call was in winter (+01:00).
    expect(itemTitled(facts, /Teams invite/)).toMatchObject({
      title: 'Send a Teams invite to Diane', intent: 'meeting', ownerDisplayName: 'Sheila',
      intentMetadata: { providerHint: 'teams', proposedAt: '2026-04-02T10:00:00+02:00' },
    });
  });

  test('a text message and a phone meeting have their provider hints', () => {
    const facts = factsOf([['S', 'Could you text me the address?'], ['D', "Sure. Let's schedule a phone call for Thursday at 11am."]]);
    expect(itemTitled(facts, /address/)).toMatchObject({ intent: 'message', intentMetadata: { channel: 'sms', providerHint: 'sms' } });
    expect(itemTitled(facts, /phone call/)).toMatchObject({ intent: 'meeting', intentMetadata: { providerHint: 'phone', proposedAt: '2026-03-05T11:00:00+00:00' } });
  });
});

describe('extractFacts finds nothing where nothing was said', () => {
  test('small talk has no action items, decisions, commitments, risks, amounts or dates', () => {
    const facts = factsOf([
      ['D', 'How are you?'],
      ['S', 'Fine thanks, and you?'],
      ['D', "Good. Lovely weather today, isn't it?"],
      ['S', 'Yes. Give me a second, sorry. Have a nice weekend. Talk to you soon.'],
      ['D', "Thanks, bye. I'll let you go."],
    ]);
    expectValidLists(facts);
    for (const key of factListKeys.filter((listKey) => listKey !== 'peopleMentioned')) expect(facts[key], key).toEqual([]);
  });

  test('turns of phrase built like promises or requests are no action items', () => {
    const phrases = [
      'I will say, the product is great.', "I'll be honest with you.", 'We will see.', 'Would you like a coffee?', 'Could you repeat that?',
      'I have to go.', 'I need to think about it.', 'Let me put you on hold.', 'Let me ask you something.', 'Could you tell me your order number?',
      'Can you give me your email?', 'Let me know if you have any questions.', "I'll let you go.", "I'll talk to you next week.",
    ];
    for (const phrase of phrases) expect(factsOf([['S', phrase], ['D', 'OK.']]).actionItems, phrase).toEqual([]);
  });

  test('words chrono reads as dates but are none ("sat", "may", "a second", "in 30 minutes") give no dates', () => {
    const facts = factsOf([['D', 'I sat down with the team and we may need more time. One moment, in a sec. In 30 minutes the sun is out.']]);
    expect(facts.importantDates).toEqual([]);
  });

  test('a call under 15 s of speech is read all the same, with a warning', () => {
    const facts = extractFacts({ ...callOf([['D', "I'll send you the contract by Friday."]], { greeting: false }) });
    expect(facts.actionItems).toHaveLength(1);
    expect(facts.qualityWarnings).toEqual([expect.stringMatching(/^facts_short_call: /)]);
  });

  test('a list longer than the schema allows is cut to its maximum, with a warning', () => {
    const prices = Array.from({ length: 35 }, (_, index) => `$${index + 1}`).join(', ');
    const facts = factsOf([['S', `The prices were ${prices}.`]]);
    expect(facts.numbersAndAmounts).toHaveLength(30);
    expect(facts.qualityWarnings).toEqual(['facts_list_truncated: 5 numbersAndAmounts beyond the schema\'s 30 dropped']);
    expectValidLists(facts);
  });

  test('an unknown language or time zone is read with English rules in UTC, and said', () => {
    const input = callOf([['D', "I'll send you the contract by Friday."]], { language: 'xx' });
    const facts = extractFacts({ ...input, timeZone: 'Mars/Olympus' });
    expect(facts.actionItems[0]?.dueDate).toBe('2026-03-06');
    expect(facts.qualityWarnings).toEqual([expect.stringMatching(/^facts_language_unsupported: /), expect.stringMatching(/^facts_time_zone_unknown: /)]);
  });
});

/** Sentences the generated calls are drawn from: names, addresses, numbers and dates, some meant to mislead. */
const sentencePool = [
  ...salesCall.map(([, text]) => text),
  "My email is mark dot stevens at northwind dot com, send it there.",
  'Please cc Laura from Northwind and ask Dr. Okafor to sign.',
  'We shipped 3 pallets, about two hundred and fifty kg, for €50 each and fifty euros delivery.',
  'The budget is 15k and the discount is fifteen percent. Order number 4521 is late.',
  "Could you text me on +44 7700 900123 when it's done?",
  'I sat down on Monday with Zoom support; March was busy and we may need more time.',
  "Let's meet at our office on March 12th at 2pm for 45 minutes.",
  'Can you hear me? Sorry, give me a second.',
  "I'm not sure whether the warehouse has space.",
  "We'll get back to you by the end of next week.",
  'Could you send Mark the figures before Thursday?',
  'Tell Robert I said hello, and talk to Finance about the invoice.',
  'Thanks, that works, let\'s do it. No problem at all.',
  'Is the price per unit 12 dollars or 1200 dollars?',
];

/** A seeded pseudo-random generator (mulberry32): the generated calls are the same on every run. */
function seededRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const GENERATED_CALLS = 60;

function generatedCalls(): { turns: Turn[]; greeting: boolean }[] {
  const random = seededRandom(20260304);
  const pick = <Item>(items: readonly Item[]): Item => items[Math.floor(random() * items.length)] as Item;
  return Array.from({ length: GENERATED_CALLS }, () => {
    const speakers: Turn[0][] = random() < 0.2 ? ['D', 'S', 'X'] : ['D', 'S'];
    const turns = Array.from({ length: 3 + Math.floor(random() * 8) }, (): Turn => [pick(speakers), `${pick(sentencePool)} ${random() < 0.4 ? pick(sentencePool) : ''}`.trim()]);
    return { turns, greeting: random() < 0.7 };
  });
}

/**
 * Where the extracted facts say something the call did not: each name, address, phone number,
 * date and amount must be in the transcript text, a speaker's name or the metadata (ignoring
 * case). An address counts as said when spelled: its letters and digits are those of the text
 * with the spoken separators ("dot", "at", …) removed. Amounts and dates must be in the first
 * segment they cite, exactly as written.
 */
function groundingProblems(facts: ExtractedFacts, input: ReturnType<typeof callOf>): string[] {
  const { transcript, metadata } = input;
  const corpus = [...transcript.segments.map((segment) => segment.text), ...transcript.speakers.map((speaker) => speaker.displayName), ...Object.values(metadata).map(String)].join('\n');
  const lower = corpus.toLowerCase();
  const spelled = lower.replace(/\b(?:dot|at|underscore|dash|hyphen)\b/g, '').replace(/[^a-z0-9@]/g, '');
  const segments = new Map(transcript.segments.map((segment) => [segment.id, segment.text]));
  const problems: string[] = [];
  const expectSaid = (what: string, text: string | undefined | null) => {
    if (text && !lower.includes(text.toLowerCase())) problems.push(`${what} "${text}" is not in the call`);
  };
  const expectAddress = (address: string | undefined) => {
    if (address && !lower.includes(address) && !spelled.includes(address.replace(/[^a-z0-9]/g, '').replace(/@/, ''))) problems.push(`address ${address} is not in the call`);
  };
  // The first cited segment is the first saying; later ones may say the same date in other words ("Friday", "by Friday").
  const expectInSegments = (what: string, text: string, segmentIds: string[]) => {
    const first = segmentIds[0];
    if (first === undefined || !segments.get(first)?.includes(text)) problems.push(`${what} "${text}" is not in its first segment ${first}`);
  };
  for (const person of facts.peopleMentioned) expectSaid('person', person.name);
  for (const amount of facts.numbersAndAmounts) expectInSegments('amount', amount.text, amount.sourceSegmentIds);
  for (const date of facts.importantDates) expectInSegments('date', date.text, date.sourceSegmentIds);
  for (const item of facts.actionItems) {
    expectSaid('owner', item.ownerDisplayName);
    const metadataOfItem = item.intentMetadata;
    expectAddress(metadataOfItem.toEmail);
    expectSaid('recipient', metadataOfItem.toName);
    expectSaid('contact', metadataOfItem.contactName);
    expectSaid('phone number', metadataOfItem.phoneNumber);
    expectSaid('handle', metadataOfItem.handle);
    for (const attendee of metadataOfItem.attendees ?? []) {
      expectSaid('attendee', attendee.name);
      expectAddress(attendee.email);
    }
  }
  const lists = [facts.actionItems, facts.followUps, facts.importantDates, facts.decisions, facts.commitments, facts.openQuestions, facts.risks, facts.opportunities, facts.peopleMentioned, facts.numbersAndAmounts];
  for (const id of lists.flat().flatMap((item) => item.sourceSegmentIds)) if (!segments.has(id)) problems.push(`cites unknown segment ${id}`);
  return problems;
}

describe('extractFacts grounding', () => {
  test('the sales call names, addresses, numbers and dates only what was said', () => {
    expect(groundingProblems(factsOf(salesCall), callOf(salesCall))).toEqual([]);
  });

  test(`${GENERATED_CALLS} generated calls: nothing ungrounded, every list valid`, () => {
    let actionItems = 0;
    for (const { turns, greeting } of generatedCalls()) {
      const input = callOf(turns, { greeting });
      const facts = extractFacts(input);
      expectValidLists(facts);
      expect(groundingProblems(facts, input), JSON.stringify(turns)).toEqual([]);
      actionItems += facts.actionItems.length;
    }
    // The corpus does hold actions: the check ran over real output, not empty lists.
    expect(actionItems).toBeGreaterThan(GENERATED_CALLS);
  });
});
