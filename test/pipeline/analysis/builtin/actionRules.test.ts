import { describe, expect, test } from 'vitest';
import { describeConversation } from '../../../../src/pipeline/analysis/builtin/describeConversation.js';
import { extractFacts, type ExtractedFacts } from '../../../../src/pipeline/analysis/builtin/extractFacts.js';
import { callOf, itemTitled, type Turn } from './facts/factTestCalls.js';

describe('round 11: things said before, days agreed without a time, and contingencies', () => {
  test('"it" after sentences of its own turn that name no thing of its number is what the turn answered named', () => {
    const deed = factsOf([['D', 'Can you email me the signed deed?'], ['S', "I'm afraid not, originals have to go by post. I'll post it to you tomorrow."]]);
    expect(itemTitled(deed, /deed/)).toMatchObject({ intent: 'task', dueDate: '2026-03-05' });
    // A noun ending in "ed" is no participle: the phrase runs on to it.
    expect(titles(deed)).toEqual(['Post the signed deed to Diane']);
    // "a bit short notice" is a quantity, not a thing "it" stands for.
    const notice = factsOf([['D', "Tomorrow's a bit short notice, I'm away all day. What about Monday?"], ['S', 'Monday is fine. Can you drop it off at half eight?']]);
    expect(titles(notice).some((title) => /notice/.test(title))).toBe(false);
  });

  test('a day offered without a time and taken is an appointment where the call names one, with the time the reply adds', () => {
    const visit = factsOf([['S', 'Would Thursday morning work for the site visit?'], ['D', "I can't do Thursday. How about Friday?"], ['S', "Friday's fine. Let's say Friday at ten."]]);
    expect(itemTitled(visit, /visit/i)).toMatchObject({ intent: 'meeting', dueDate: '2026-03-06', ownerDisplayName: 'Sheila' });
    expect(itemTitled(visit, /visit/i).intentMetadata).toMatchObject({ proposedAt: '2026-03-06T10:00:00+00:00' });
    const moved = factsOf([['D', 'I need to move our Friday meeting, something has come up.'], ['S', 'How about Monday at the same time?'], ['D', "Monday's perfect."]]);
    expect(itemTitled(moved, /meeting/i)).toMatchObject({ intent: 'meeting', dueDate: '2026-03-09' });
    // No appointment named: a day taken is no meeting of its own.
    expect(factsOf([['D', 'How about Friday?'], ['S', 'Friday is fine.']]).actionItems).toEqual([]);
    // A promise under a condition is not dated by the day agreed.
    const conditional = factsOf([['S', 'Shall we say Thursday the third?'], ['D', "Yes. And if he ends up in hospital that day, I'll call you to move it."]]);
    expect(itemTitled(conditional, /^Call/).dueDate).toBeNull();
  });

  test('a promise or request on something going wrong or changing is a contingency, no action', () => {
    expect(factsOf([['D', 'So we should be all set for next week?'], ['S', "Yes. If there's any problem, I'll let you know."]]).actionItems).toEqual([]);
    expect(factsOf([['D', "The portal's still not letting me log in."], ['S', "IT are looking at it. If it's not fixed by Thursday, I'll escalate it."]]).actionItems).toEqual([]);
    expect(factsOf([['S', "I'll call you back if anything changes."]]).actionItems).toEqual([]);
    expect(factsOf([['S', 'Give us a ring if you have any questions.']]).actionItems).toEqual([]);
    // Only the part under the condition: the promise before it stands.
    expect(titles(factsOf([['S', "I'll send the form today, and if there are any problems, give me a ring."]]))).toEqual(['Send the form']);
  });

  test('"If it comes in, I\'ll ring you straight away": the title names what is waited for, and "straight away" is no due date', () => {
    const facts = factsOf([['D', 'Any news on the part?'], ['S', "Not yet. If it comes in, I'll ring you straight away."]]);
    expect(facts.actionItems.map((item) => [item.title, item.intent, item.dueDate])).toEqual([['Call Diane if the part comes in', 'call', null]]);
  });
});

describe('round 11: steps, refusals and deeds said again', () => {
  test('"I\'ll have to ask my manager. I\'ll let you know by Friday" is one action, due Friday', () => {
    const facts = factsOf([['D', 'Could you extend the deadline to the end of the month?'], ['S', "I'll have to ask my manager. I'll let you know by Friday."]]);
    expect(facts.actionItems.map((item) => [item.title, item.ownerDisplayName, item.dueDate])).toEqual([['Ask my manager and let Diane know', 'Sheila', '2026-03-06']]);
  });

  test('"I\'m not able to do that" turns a request down; the asker\'s "I\'ll do that tonight" is then their own deed', () => {
    const facts = factsOf([
      ['D', 'Can you update my direct debit details?'],
      ['S', "I'm not able to do that from here, you'll have to do it through the online portal."],
      ['D', "Right, I'll do that tonight then."],
    ]);
    expect(facts.actionItems.map((item) => [item.title, item.ownerDisplayName, item.dueDate])).toEqual([['Update my direct debit details', 'Diane', '2026-03-04']]);
    // "I'll do that" answering the other party's request is that request, taken on.
    const answered = factsOf([['D', 'Could you clear out the cabinet under the sink before he comes?'], ['S', "Yep, I'll do that tonight."]]);
    expect(answered.actionItems.map((item) => [item.title, item.ownerDisplayName])).toEqual([['Clear out the cabinet under the sink before he comes', 'Sheila']]);
    // With no deed said before, it is none.
    expect(factsOf([['S', 'Thanks for ringing.'], ['D', "I'll do that tonight."]]).actionItems).toEqual([]);
  });

  test('"expect a call from the surveyor on Monday" is the surveyor\'s call; "after three" is a time today that makes no appointment', () => {
    const surveyor = factsOf([['S', 'You should expect a call from the surveyor on Monday to arrange access.'], ['D', 'Okay.']]);
    expect(surveyor.actionItems.map((item) => [item.title, item.intent, item.ownerSpeakerId, item.dueDate])).toEqual([['Call from the surveyor to arrange access', 'call', null, '2026-03-09']]);
    const after = factsOf([['D', "I'm in meetings all morning. Could you call me back on my mobile after three?"], ['S', "Yes, I'll call you back after three."]]);
    expect(itemTitled(after, /^Call Diane back/)).toMatchObject({ intent: 'call', dueDate: '2026-03-04' });
    const popIn = factsOf([['S', 'Your prescription is ready.'], ['D', "Lovely, I'll pop in after three on Thursday and pick it up."]]);
    expect(itemTitled(popIn, /^Pop in/)).toMatchObject({ intent: 'task', dueDate: '2026-03-05' });
  });

  test('"Shall I hold the sofa for you until Saturday?" taken up is a promise; a title never ends on "till"', () => {
    const sofa = factsOf([['S', 'Shall I hold the sofa for you until Saturday?'], ['D', "Yes please, and I'll come in and pay for it then."]]);
    expect(sofa.actionItems.map((item) => [item.title, item.ownerDisplayName, item.dueDate])).toEqual([
      ['Hold the sofa for Diane', 'Sheila', '2026-03-07'],
      ['Come in and pay for it', 'Diane', '2026-03-07'],
    ]);
    expect(titles(factsOf([['S', "Monday's perfect, we'll hold the table till then."]]))).toEqual(['Hold the table']);
  });

  test('"Let\'s pick this up again tomorrow" – "Same time?" – "Same time. I\'ll ring you" is the call, tomorrow', () => {
    const facts = factsOf([['S', "I'm being called into a meeting. Let's pick this up again tomorrow."], ['D', 'Same time?'], ['S', "Same time. I'll ring you."]]);
    expect(facts.actionItems.map((item) => [item.title, item.intent, item.ownerDisplayName, item.dueDate])).toEqual([['Call Diane', 'call', 'Sheila', '2026-03-05']]);
  });

  test('"I\'ll assume it\'s fine and place the order" is the order; "my GP, Dr Patel, is going to write" is Dr Patel\'s', () => {
    const order = factsOf([['S', "If I don't hear from you by Friday, I'll assume it's fine and place the order."], ['D', 'Okay, fair enough.']]);
    expect(order.actionItems.map((item) => [item.title, item.dueDate])).toEqual([['Place the order', '2026-03-06']]);
    const gp = factsOf([['S', "We'll need something from your doctor before we can fit the stairlift."], ['D', 'My GP, Dr Patel, is going to write to you with the details.']]);
    expect(gp.actionItems).toHaveLength(1);
    expect(gp.actionItems[0]).toMatchObject({ ownerSpeakerId: null });
    expect(gp.actionItems[0]!.description).toContain('Dr Patel');
  });

  test('an action tied to the visit ("before they come", "before we touch it", "on the day") is due on the day said for it', () => {
    const hallway = factsOf([['S', "We'll deliver on Monday the ninth, between noon and four."], ['D', "Great. I'll make sure the hallway's cleared before they come."]]);
    expect(itemTitled(hallway, /hallway/).dueDate).toBe('2026-03-09');
    // No day said before: none.
    expect(itemTitled(factsOf([['D', "I'll make sure the hallway's cleared before they come."]]), /hallway/).dueDate).toBeNull();
  });

  test('"I\'ll send the draft on Friday and the final version on the 12th": two things on two days, one verb, are two actions', () => {
    const facts = factsOf([['D', 'When will I see the report?'], ['S', "I'll send the draft on Friday and the final version on the 12th."]]);
    expect(facts.actionItems.map((item) => [item.title, item.dueDate])).toEqual([['Send the draft', '2026-03-06'], ['Send the final version', '2026-03-12']]);
    // On one day, one action.
    expect(titles(factsOf([['S', "I'll send the draft and the final version on Friday."]]))).toEqual(['Send the draft and the final version']);
  });

  test('"Give it three to five working days" is waiting, no task', () => {
    expect(factsOf([['D', 'So do I need to do anything for the refund?'], ['S', "No, it goes back to the card automatically. Give it three to five working days."], ['D', 'Lovely.']]).actionItems).toEqual([]);
  });

  test('from the calls without actions: "I\'ll probably leave them till the spring", "Give him a big hug from me", a request the asker takes as a no', () => {
    expect(factsOf([['S', "The front two are at about three mil, it's just an advisory."], ['D', "Right. I'll probably leave them till the spring, then. We'll see."]]).actionItems).toEqual([]);
    expect(factsOf([['S', 'He had his results back and it is all clear.'], ['D', "Oh, that's such a relief. Give him a big hug from me."]]).actionItems).toEqual([]);
    const noted = factsOf([
      ['D', 'Could you order one in from another branch, maybe?'],
      ['S', "We've only the one shop, and I had a look at the brand's own website and it's gone from theirs too."],
      ['D', 'Fair enough.'],
    ]);
    expect(noted.actionItems).toEqual([]);
    // A reply that promises is no no, whatever follows.
    const promised = factsOf([['D', 'Could you order one in from another branch?'], ['S', "I'll order one in from Galway for you."], ['D', 'Fair enough, thanks.']]);
    expect(promised.actionItems).toHaveLength(1);
  });

  test('an action waiting for a thing is due the day the call says the thing comes, and the thing ends before its verb', () => {
    const facts = factsOf([['S', 'The new stock arrives on the 12th.'], ['D', "Could you email me as soon as it's in?"], ['S', 'Will do.']]);
    expect(facts.actionItems.map((item) => [item.title, item.intent, item.dueDate])).toEqual([["Email Diane as soon as the new stock's in", 'email', '2026-03-12']]);
  });
});

/** The call is on Wednesday 4 March 2026 in London; Diane (D) is the user, Sheila (S) the contact. */
const factsOf = (turns: Turn[]) => extractFacts(callOf(turns));
const titles = (facts: ExtractedFacts) => facts.actionItems.map((item) => item.title);

describe('what is no action', () => {
  test('a request after a condition is advice, and so is "you could try"', () => {
    const facts = factsOf([
      ['D', 'In the meantime, if you feel dizzy or unwell, please call 111 straight away.'],
      ['D', "If you ever need to cancel, just give us twenty-four hours' notice."],
      ['D', 'You could try working offline for now.'],
    ]);
    expect(facts.actionItems).toEqual([]);
    // An "if" inside an earlier clause governs nothing after it.
    const request = factsOf([['D', 'Let me know if that works, and could you send me the signed form?']]);
    expect(titles(request)).toContain('Send the signed form to Diane');
  });

  test('"let me look / find / have a look" happens during the call; "let me check with …" does not', () => {
    const facts = factsOf([['D', 'Let me look. Let me find it. Let me have a look at your record.'], ['D', 'Let me check with the warehouse and get back to you.']]);
    expect(titles(facts)).toEqual(['Check with the warehouse and get back to Sheila']);
  });

  test('a title saying nothing after its verb is dropped unless a due date makes it concrete', () => {
    const facts = factsOf([['D', "Keep the bucket there, and we'll get it sorted."], ['D', 'I need to move it.'], ['S', "I'll sign it by Friday."]]);
    expect(titles(facts)).toEqual(['Sign it']);
  });

  test('a promise cut off after its determiner (a segment ending mid-sentence) gets no title like "Send the to Sheila"', () => {
    const cut = factsOf([['D', 'I will send you the'], ['S', 'signed referral letter by Friday.']]);
    expect(titles(cut).filter((title) => /\b(the|a|an)\b( to|$)/i.test(title))).toEqual([]);
    const cutWithDate = factsOf([['D', "I'll send you the"], ['D', 'Thanks. I will email you a by Friday.']]);
    expect(titles(cutWithDate).filter((title) => /\b(the|a|an)\b( to|$)/i.test(title))).toEqual([]);
  });
});

describe('who owns an action', () => {
  test('a third party promising is an action with no owner among the speakers', () => {
    const facts = factsOf([['D', 'My colleague Priya Shah from our pharmacy team will ring you tomorrow to confirm the dose.'], ['D', 'An engineer will call you back this morning.']]);
    expect(itemTitled(facts, /dose/)).toMatchObject({ ownerSpeakerId: null, intent: 'call', dueDate: '2026-03-05' });
    expect(itemTitled(facts, /back/)).toMatchObject({ ownerSpeakerId: null, dueDate: '2026-03-04' });
  });

  test('"someone should" has no owner; "remind me to" after a colon is the speaker\'s reminder; "take it to" is an action', () => {
    const facts = factsOf([
      ['D', 'Honestly, someone should look into the booking page.'],
      ['D', 'A note for myself: remind me to chase the search on Monday morning.'],
      ['S', "I'll take it to our CFO on Monday."],
    ]);
    expect(itemTitled(facts, /booking page/).ownerSpeakerId).toBeNull();
    expect(itemTitled(facts, /chase/i)).toMatchObject({ intent: 'reminder', ownerDisplayName: 'Diane', dueDate: '2026-03-09' });
    expect(itemTitled(facts, /CFO/)).toMatchObject({ ownerDisplayName: 'Sheila', dueDate: '2026-03-09' });
  });
});

describe('intents and due dates', () => {
  test('the channel verb decides: a text is a message even when it is a reminder', () => {
    const facts = factsOf([['D', "I'll text you a reminder the day before. We have your mobile as 07700 900654."]]);
    expect(itemTitled(facts, /reminder/)).toMatchObject({ intent: 'message', dueDate: null, intentMetadata: { providerHint: 'sms', phoneNumber: '07700 900654' } });
  });

  test('"book you in" is a meeting, with its place, time and the length said in the next sentence', () => {
    const facts = factsOf([['D', "I'll book you in with Dr. Lim for Wednesday the eleventh at ten fifteen, at our Parkside Road surgery. It's a thirty minute appointment."]]);
    expect(itemTitled(facts, /Lim/)).toMatchObject({
      intent: 'meeting', dueDate: '2026-03-11',
      intentMetadata: { proposedAt: '2026-03-11T10:15:00+00:00', durationMinutes: 30, location: 'our Parkside Road surgery' },
    });
  });

  test('"now" and "straight after this call" are due on the call\'s date', () => {
    const facts = factsOf([['D', "I'll email you the download link now."], ['D', "I'll WhatsApp you the address straight after this call."]]);
    expect(itemTitled(facts, /link/).dueDate).toBe('2026-03-04');
    expect(itemTitled(facts, /address/).dueDate).toBe('2026-03-04');
  });

  test('a meeting proposed without a time takes the one agreed in the next turns', () => {
    const facts = factsOf([
      ['S', 'We should meet up first and sort out the details.'],
      ['D', 'Are you free on the 15th?'],
      ['S', 'How about noon at the Corner Café?'],
      ['D', 'Perfect, the 15th at noon at the Corner Café.'],
    ]);
    expect(itemTitled(facts, /meet up/i)).toMatchObject({
      intent: 'meeting', ownerSpeakerId: null, dueDate: '2026-03-15', intentMetadata: { proposedAt: '2026-03-15T12:00:00+00:00', location: 'the Corner Café' },
    });
  });
});

describe('one action said several ways', () => {
  test('a request answered by its owner\'s promise is one action, the promise\'s channel kept', () => {
    const facts = factsOf([['D', 'Could you send me a confirmation?'], ['S', "Of course. I'll email the confirmation this afternoon."]]);
    expect(itemTitled(facts, /confirmation/)).toMatchObject({ intent: 'email', ownerDisplayName: 'Sheila', dueDate: '2026-03-04' });
    expect(facts.commitments).toHaveLength(1);
  });

  test('a request in another channel stays apart: "ask Nationwide … email me" is not "ring Nationwide"', () => {
    const facts = factsOf([['D', 'Could you ask Nationwide for a statement and email me a scan of it?'], ['S', "I'll ring Nationwide on Monday."]]);
    expect(facts.actionItems.map((item) => item.intent)).toEqual(['email', 'call']);
  });

  test('a generic verb pointing back joins its owner\'s action; a specific one does not', () => {
    const joined = factsOf([['S', "I'll email you the photos tonight."], ['D', 'Great. Send them to the repairs address, so they get logged.']]);
    expect(titles(joined)).toEqual(['Email the photos to Diane']);
    const apart = factsOf([['D', "I'm going to escalate it to the health team today."], ['D', "I'll also log a formal complaint."]]);
    expect(titles(apart)).toHaveLength(2);
  });
});

describe('details from the neighbourhood', () => {
  test('a number said in the same turn, in words by the recipient, or pointed back to', () => {
    const sameTurn = factsOf([['S', "Could you call me back on my direct line? It's 0161 496 0732."]]);
    expect(itemTitled(sameTurn, /back/).intentMetadata.phoneNumber).toBe('0161 496 0732');
    const inWords = factsOf([['D', 'An engineer will ring you back. What number?'], ['S', 'My mobile is oh seven seven hundred, nine hundred, three one five.']]);
    expect(itemTitled(inWords, /back/).intentMetadata.phoneNumber).toBe('07700900315');
    const pointedBack = factsOf([
      ['S', 'My number is 0161 496 0732.'], ['D', 'Let me read that back: 0161 496 0732.'], ['S', 'Right.'], ['D', "I'll call you back on that number before five today."],
    ]);
    expect(itemTitled(pointedBack, /that number/).intentMetadata.phoneNumber).toBe('0161 496 0732');
  });

  test('"you and Tom" names an attendee; a length with a meeting word counts further off', () => {
    const facts = factsOf([
      ['D', "It's a forty-five minute conversation with the team."],
      ['S', 'When would that be?'],
      ['D', 'Monday at 2, if that works.'],
      ['S', 'Monday works.'],
      ['D', "I'll send a Zoom invite for Monday at 2 to you and Tom."],
    ]);
    expect(itemTitled(facts, /Zoom/).intentMetadata).toMatchObject({ durationMinutes: 45, attendees: expect.arrayContaining([{ name: 'Tom' }]) });
  });
});

describe('call types', () => {
  test('a one-speaker message asking to be called back is a voicemail; offering a slot is scheduling; asking after a status an inquiry', () => {
    const voicemail = callOf([['D', "Hello, I'm calling about your referral."], ['D', 'Could you please call us back by Friday?'], ['D', 'Thank you, bye.']], { greeting: false });
    expect(describeConversation(voicemail).callType).toBe('voicemail');
    const booking = callOf([
      ['S', 'I need to move my check-up.'], ['D', 'Is there anything next week?'], ['S', 'Tuesday works for me.'],
      ['D', "I'll book you in for Tuesday at nine, then."], ['S', 'Great, thanks.'],
    ]);
    expect(describeConversation(booking).callType).toBe('scheduling');
    const statusCheck = callOf([['D', "I'm checking on a delivery for our office."], ['S', 'Which order is it?'], ['D', 'Order 7731. Where is it now?'], ['S', 'On the van.']]);
    expect(describeConversation(statusCheck).callType).toBe('inquiry');
  });

  test('a lost card reported is support; a slot found and taken ("the first appointment I have", "could you do …") is scheduling', () => {
    const lostCard = callOf([
      ['D', 'I think I lost my wallet on the bus, and my debit card was in it.'], ['S', "Okay, I've cancelled the card, so nobody can use it."],
      ['D', 'Thank you.'], ['S', "I've also ordered a replacement card."],
    ]);
    expect(describeConversation(lostCard).callType).toBe('support');
    const slot = callOf([
      ['S', 'The first appointment I have is tomorrow at ten to nine.'], ['D', 'Could you do Thursday week, in the afternoon?'],
      ['S', 'Thursday week at half two, yes.'], ['D', 'Great, thank you.'],
    ]);
    expect(describeConversation(slot).callType).toBe('scheduling');
  });
});

describe('round 6: what the call settles, what a pronoun stands for, which channel', () => {
  test('a closing ("I\'ll let you get back to …"), weighing an offer up and a record kept on the line are no actions', () => {
    const facts = factsOf([
      ['S', "Right, I'll let you get back to the bath-time chaos."],
      ['D', "I'll need to talk it over with my partner. I'll give you a ring on Monday either way."],
      ['S', "Okay, I'll log that for you now. How big would you say it is?"],
    ]);
    expect(titles(facts)).toEqual(['Call Sheila either way']);
  });

  test('a request the answer says is done already leaves no task; one only accepted stands', () => {
    const done = factsOf([['D', 'Could you take me off your call list, please?'], ['S', "Of course. I've taken your number off our list just now."]]);
    expect(done.actionItems).toEqual([]);
    const accepted = factsOf([['D', 'Could you send me the invoice?'], ['S', "Of course, I'll send it today."]]);
    expect(accepted.actionItems).toHaveLength(1);
  });

  test('the thing an action waits for, said as a pronoun, is the thing named just before', () => {
    const facts = factsOf([['S', 'Your prescription sunglasses are still on back order.'], ['S', "But I'll give you a call as soon as they arrive."]]);
    expect(titles(facts)).toEqual(['Call Diane as soon as the prescription sunglasses arrive']);
  });

  test('"call them" after an organisation was named is calling it', () => {
    const facts = factsOf([['D', 'Is it covered by my insurance, do you know?'], ['S', "It usually is, but it's worth checking with them."], ['D', "Okay, I'll call them tomorrow to check."]]);
    expect(itemTitled(facts, /insurance/)).toMatchObject({ intent: 'call', dueDate: '2026-03-05' });
  });

  test('a plural named at the start of the sentence before is what "those" stands for', () => {
    const facts = factsOf([['S', 'Photos of the damage and the police report number. Can you email those to claims at acme dot com?']]);
    expect(itemTitled(facts, /photos/i)).toMatchObject({ intent: 'email' });
  });

  test('the channel said first decides: a reminder sent as a text is a message, a call to remind someone a call', () => {
    const facts = factsOf([['S', "I'll send a reminder text the day before."], ['D', "I'll call her on Sunday to remind her."]]);
    expect(itemTitled(facts, /reminder text/)).toMatchObject({ intent: 'message' });
    expect(itemTitled(facts, /remind her/)).toMatchObject({ intent: 'call', dueDate: '2026-03-08' });
  });

  test('a booking put in the diary is not merged into a later call to the same person', () => {
    const facts = factsOf([
      ['S', "Great, I'll put you down for Friday at 4:30 with Dr. Patel."],
      ['D', 'Thanks.'],
      ['S', "And if anything opens up earlier in the week, I'll give you a call."],
    ]);
    expect(itemTitled(facts, /^Call/)).toMatchObject({ intent: 'call', dueDate: null });
    expect(itemTitled(facts, /Put|Appointment/)).toMatchObject({ intent: 'meeting', dueDate: '2026-03-06' });
  });
});

describe('reading an action with the turns around it', () => {
  test('an answer to a question quotes the question in its description; a promise later in the turn does not', () => {
    const facts = factsOf([
      ['S', 'When would you like to make the first payment?'],
      ['D', "I get paid on Friday, so I'll pay the first seventy-one ten online then."],
      ['S', 'Do you do a courtesy car?'],
      ['D', "Not at the minute, sorry. I'll give you a ring on Tuesday afternoon when it's ready."],
    ]);
    expect(itemTitled(facts, /^Pay/).description).toContain('(Context: "When would you like to make the first payment?")');
    expect(itemTitled(facts, /^Call/).description).not.toContain('courtesy');
    // The commitment keeps the sentence as said, without its context.
    expect(facts.commitments?.map((commitment) => commitment.text)).toContain("I get paid on Friday, so I'll pay the first seventy-one ten online then.");
  });

  test('an appointment that says only whom it books is named by the need said before it, and its description quotes the need', () => {
    const facts = factsOf([
      ['S', "Hi, it's Sheila. Um, I lost a filling last night, bottom left, and it's kind of sensitive."],
      ['D', 'The first opening I have is Friday at 4:30.'],
      ['S', "Yeah, that works, I'll take it."],
      ['D', "Great, I'll put you down for Friday at 4:30."],
    ]);
    const booking = itemTitled(facts, /^Put Sheila down/);
    expect(booking).toMatchObject({ title: 'Put Sheila down for the filling', intent: 'meeting', dueDate: '2026-03-06' });
    expect(booking.description).toContain('(Context: "Um, I lost a filling last night, bottom left, and it\'s kind of sensitive.")');
  });

  test('"put me down for that" takes the slot offered just before, as an appointment the other side books', () => {
    const facts = factsOf([
      ['S', "Morning, it's Sheila. I need to get the car in for its MOT, it runs out on the third."],
      ['D', 'Tuesday at eight, yeah, that works.'],
      ['S', 'Great, put me down for that.'],
    ]);
    expect(itemTitled(facts, /^Put Sheila down/)).toMatchObject({ title: 'Put Sheila down for the MOT', intent: 'meeting', ownerDisplayName: 'Diane', dueDate: '2026-03-10' });
  });

  test('a promise with a verb outside the lexicon is an action when a day is said for it, and none without', () => {
    const facts = factsOf([
      ['S', "Okay, I'll do the dye test tonight on both toilets."],
      ['S', "I'll deal with the DMV on Tuesday."],
      ['S', "Thanks, but I'll stick with what I have."],
      ['S', "I'm going to my bank for a chargeback on Friday."],
    ]);
    expect(titles(facts)).toEqual(['Do the dye test on both toilets', 'Deal with the DMV']);
    expect(itemTitled(facts, /DMV/).dueDate).toBe('2026-03-10');
  });
});

describe('reading an action with the turns around it, round 7', () => {
  test('a day corrected in the next sentence is the corrected day, at the time first said, and the correction is in the description', () => {
    const facts = factsOf([
      ['D', "Okay, I'll put you in for Thursday the sixth at half four. Sorry, the fifth, Thursday the fifth. With Dr Mensah, and it's a fifteen minute slot."],
    ]);
    const booking = itemTitled(facts, /^Put Sheila in/);
    expect(booking).toMatchObject({ intent: 'meeting', dueDate: '2026-03-05' });
    expect(booking.intentMetadata).toMatchObject({ proposedAt: '2026-03-05T16:30:00+00:00' });
    expect(booking.description).toContain('With Dr Mensah');
  });

  test('"at a quarter to seven" is a time, and the contact\'s organisation is named on a booking the contact holds', () => {
    const facts = factsOf([['S', "Grand. I'll put you down for eight people at a quarter to seven on Saturday the seventh."]]);
    const booking = itemTitled(facts, /^Put Diane down for eight people$/);
    expect(booking.intentMetadata).toMatchObject({ proposedAt: '2026-03-07T18:45:00+00:00' });
    expect(booking.description).toContain('(Booked with: Acme Supplies)');
  });

  test('"pay that" is the thing paid said before; "email that form" keeps its form; a payment says what it pays', () => {
    const facts = factsOf([
      ['D', 'For groups we take a deposit of ten euro a head, so eighty euro. I will text you a payment link now.'],
      ['S', "No bother. I'll pay that by Monday."],
      ['D', "I'll email that form to you today."],
      ['D', "I'd need a deposit of two hundred quid to order the charger."],
      ['S', "That's fine. I'll transfer the two hundred on Friday."],
    ]);
    expect(titles(facts)).toEqual(expect.arrayContaining(['Pay the deposit', 'Email that form to Sheila', 'Transfer the two hundred']));
    expect(itemTitled(facts, /^Transfer/).description).toContain('(Context: "I\'d need a deposit of two hundred quid to order the charger.")');
  });

  test('"will you be bringing a cake?" asks about a plan: no request', () => {
    expect(factsOf([['D', 'Can I ask, will you be bringing a cake?'], ['S', 'I was going to, yeah.']]).actionItems).toEqual([]);
  });

  test('a call back to set up a time is described with the need for it; one third party\'s "it" is not another\'s action', () => {
    const facts = factsOf([
      ['D', 'Dr. Lam would like you to come in for a quick fitting before you take them home.'],
      ['D', 'So could you give us a call back by Saturday to set up a time?'],
      ['S', 'Thanks.'],
      ['D', 'Our team will bring it out on Tuesday between twelve and four.'],
      ['D', 'The driver will give you a call about thirty minutes before he gets there.'],
    ]);
    expect(itemTitled(facts, /set up a time/).description).toContain('fitting');
    expect(titles(facts)).toEqual(expect.arrayContaining(['Bring it out between twelve and four', 'Call Sheila before he gets there']));
  });
});

describe('bookings and their small words, round 7', () => {
  test('"we have to move you" joins the booking made later; "I\'ll take that" takes a slot; an appointment card is posted, no meeting', () => {
    const facts = factsOf([
      ['D', "I'm awful sorry, but Dr Byrne is away on a course that day, so we have to move you."],
      ['D', 'I could do ten past three on Tuesday the tenth.'],
      ['S', "Ten past three on the tenth, that's grand, I'll take that."],
      ['D', "Lovely, I'll book you in for ten past three on Tuesday the tenth with Dr Byrne."],
      ['D', "I'll post you out a new appointment card as well, so you have the right time."],
    ]);
    expect(facts.actionItems.map((item) => [item.title, item.intent])).toEqual([
      ['Book Sheila in with Dr Byrne', 'meeting'],
      ['Post Sheila out a new appointment card as well', 'task'],
    ]);
  });

  test('"We will, of course." accepts a request: one item, the promise\'s', () => {
    const facts = factsOf([['S', 'Would you be able to text me the day before?'], ['D', "We will, of course. I'll send you a text reminder on Monday."]]);
    expect(titles(facts)).toEqual(['Send a text reminder to Sheila']);
  });

  test('"my mam will collect him" is a third party\'s task; "an inspector will be out to assess it" is the inspection', () => {
    const facts = factsOf([
      ['S', 'My mam will collect him tomorrow, because I am stuck in Galway.'],
      ['D', 'I want to report a pothole, a fairly deep one, on Glenview Road.'],
      ['S', 'An inspector from the roads section will be out to assess it by Friday.'],
    ]);
    expect(itemTitled(facts, /^Collect/)).toMatchObject({ ownerSpeakerId: null, dueDate: '2026-03-05' });
    expect(itemTitled(facts, /^Assess/)).toMatchObject({ title: 'Assess the pothole', ownerSpeakerId: null, dueDate: '2026-03-06' });
  });
});

test('"seven in the morning" only says which seven: "that morning" after it is still the day said before', () => {
  const facts = factsOf([
    ['S', "Right, we'll collect them on Wednesday the eleventh. The crew comes any time between seven in the morning and three in the afternoon."],
    ['D', "Okay, I'll have them out the front by seven that morning."],
  ]);
  expect(itemTitled(facts, /out the front/).dueDate).toBe('2026-03-11');
});

test('a proposal answered with another day stands on the day then accepted; "should I prepare anything?" stays a question', () => {
  const facts = factsOf([
    ['D', "I'd need a deposit to order the charger. Then I could get the charger fitted the week after, say Wednesday the eleventh?"],
    ['S', "Wednesday I'm away with work. Could you do the Thursday instead?"],
    ['D', "Thursday the twelfth, yeah, I can do that. I'd be with you about eight."],
    ['S', 'Should I prepare anything?'],
    ['D', 'No, nothing at all. See you on Thursday the twelfth.'],
    ['S', 'Great, thanks.'],
  ]);
  expect(facts.actionItems.map((item) => [item.title, item.ownerDisplayName, item.dueDate])).toEqual([['Get the charger fitted', 'Diane', '2026-03-12']]);
});

test('a slot said again by its time alone is the slot offered before; "move you to twelve thirty" is a time; the one a call is about is named once, at its start', () => {
  const facts = factsOf([
    ['S', "Hi, it's Sheila, I'm Pepper's owner. The little kelpie? She's been scratching her ears."],
    ['D', 'Sounds like she should be seen. I can do five fifteen on Monday with Dr Patel.'],
    ['S', "That's perfect, yep."],
    ['D', "Great, I'll pop her in for five fifteen."],
  ]);
  expect(itemTitled(facts, /^Pop/)).toMatchObject({ title: 'Pop Pepper in', intent: 'meeting', dueDate: '2026-03-09' });
  expect(itemTitled(facts, /^Pop/).intentMetadata).toMatchObject({ proposedAt: '2026-03-09T17:15:00+00:00' });
  const moved = factsOf([
    ['D', "So, I'm calling about your cleaning on the twelfth. Our hygienist is out that week, so we need to move you."],
    ['S', 'Twelve thirty on the sixteenth is great.'],
    ['D', "Perfect, I'll move you to twelve thirty on Monday the sixteenth."],
  ]);
  const booking = itemTitled(moved, /^Move/);
  expect(booking).toMatchObject({ intent: 'meeting', dueDate: '2026-03-16' });
  expect(booking.description).toMatch(/^Perfect, I'll move you to twelve thirty/);
  expect(booking.description).toContain('cleaning');
});

test('"I should be able to have it made up" is a promise of its own; "get it filled in" is done to the form named before; "pop in Friday" keeps its "in"', () => {
  const facts = factsOf([
    ['S', "I'm just checking on my repeat prescription, the blood pressure tablets and the cream."],
    ['D', "I'll ring the surgery first thing tomorrow and chase it up. Once it comes through, I should be able to have it made up for you by Friday."],
    ['S', "Grand. I'll pop in Friday after work to collect it."],
    ['D', "I'll text you a link to our intake form this morning. It's just your history."],
    ['S', "Okay. I'll try to get it filled in by Thursday night."],
  ]);
  expect(facts.actionItems.map((item) => [item.title, item.dueDate])).toEqual([
    ['Call the surgery first thing and chase it up', '2026-03-05'],
    ['Have the repeat prescription made up for Sheila', '2026-03-06'],
    ['Pop in after work to collect the repeat prescription', '2026-03-06'],
    ['Text a link to our intake form to Sheila', '2026-03-04'],
    ['Get the intake form filled in', '2026-03-05'],
  ]);
});

test('"by seven" is a clock time on the day said just before, "up by two percent" is none; "empty it" is the recycling', () => {
  const facts = factsOf([
    ['S', 'Our recycling was not collected yesterday. Prices went up by two percent, too.'],
    ['D', "We'll send the crew back on Thursday to empty it. We'll collect the sofa on Saturday the seventh."],
    ['S', "No problem, I'll have it out by seven."],
  ]);
  expect(itemTitled(facts, /^Send the crew/).title).toBe('Send the crew back to empty the recycling');
  expect(itemTitled(facts, /out$/)).toMatchObject({ title: 'Have the sofa out', dueDate: '2026-03-07' });
  expect(facts.importantDates?.map((date) => date.time)).not.toContain('14:00');
});

describe('round 9: "one" for a thing, third parties by name, being there for a deed', () => {
  test('"the first one" is the thing the call counted; "drop one in" is the thing needed, named in full', () => {
    const facts = factsOf([
      ['S', "What I can do is spread it over three months, so that's three payments of forty pounds."],
      ['D', 'Three payments is fine. When would the first one be? Friday suits me.'],
      ['S', "Friday's grand. I'll pay the first one on Friday."],
      ['D', "We'd need a spare key for our key safe. Could you drop one into our office?"],
    ]);
    expect(itemTitled(facts, /^Pay/)).toMatchObject({ title: 'Pay the first payment', dueDate: '2026-03-06' });
    expect(titles(facts)).toContain('Drop a spare key into our office');
  });

  test('a third party the call named with their role takes an action on by name; the description says who they are', () => {
    const facts = factsOf([
      ['S', 'Our plumber Declan could call out Thursday, between eight and one.'],
      ['D', "Thursday I'm in work. Is there any chance of the weekend?"],
      ['S', 'Grand, so Declan will come out Saturday between nine and twelve to look at the shower.'],
    ]);
    const visit = itemTitled(facts, /^Come out/);
    expect(visit).toMatchObject({ ownerSpeakerId: null, dueDate: '2026-03-07' });
    expect(visit.description).toContain('(Declan: plumber)');
  });

  test('"I\'ll be at Mum\'s to let Grace in" is the deed it is for; regards passed on are none; "give you a shout" is a call', () => {
    const facts = factsOf([
      ['D', "Yeah, I'll be at Mum's on Saturday at eight to let Grace in."],
      ['S', 'No worries. Give my best to your mum.'],
      ['S', "If the price changes before you decide, I'll give you a shout."],
    ]);
    expect(itemTitled(facts, /Grace/)).toMatchObject({ title: 'Let Grace in', dueDate: '2026-03-07' });
    expect(titles(facts).some((title) => /best/i.test(title))).toBe(false);
    expect(itemTitled(facts, /^Call/).intent).toBe('call');
  });
});

describe('round 9: the thing a pronoun stands for, prices named by their head, visits at a time', () => {
  test('"I\'ll bring it" after "Bring the inhaler along" is the inhaler; "fill it in" the form named in four words; a participle after the noun is not part of it', () => {
    const facts = factsOf([
      ['S', "It's a fifteen minute slot. Is it worth me bringing anything?"],
      ['D', 'Bring the inhaler along on Friday, so the doctor can see it.'],
      ['S', "Okay, I'll bring it with me on Friday."],
      ['D', 'We need an updated medical history form. We need the consent form signed first, as well.'],
      ['S', "Grand. I'll fill it in by Friday."],
    ]);
    expect(titles(facts)).toContain('Bring the inhaler along with Sheila');
    expect(itemTitled(facts, /^Fill/).title).toBe('Fill the consent form in');
  });

  test('"a payment link" names no thing paid: the deposit asked about is what "the hundred and sixty" pays', () => {
    const facts = factsOf([
      ['S', 'Is there a deposit for a group that size?'],
      ['D', "Yes, it's twenty dollars a head, so a hundred and sixty all up. I'll text you a payment link this arvo."],
      ['S', "No worries, I'll pay the hundred and sixty by Monday."],
    ]);
    expect(itemTitled(facts, /^Pay/).description).toContain('deposit');
    expect(itemTitled(facts, /^Text/).dueDate).toBe('2026-03-04');
  });

  test('a day and the time one comes in for are one; a visit promised at a day and a time is an appointment', () => {
    const facts = factsOf([
      ['D', "I'll book the Astra in for the MOT, Tuesday the tenth, in for eight o'clock."],
      ['D', "So I'll come out and inspect the kitchen Thursday at ten. I'll come round between eight and twelve on Friday."],
    ]);
    expect(itemTitled(facts, /MOT/)).toMatchObject({ intent: 'meeting', intentMetadata: { proposedAt: expect.stringMatching(/^2026-03-10T08:00/) } });
    expect(itemTitled(facts, /inspect/)).toMatchObject({ intent: 'meeting', dueDate: '2026-03-05' });
    expect(itemTitled(facts, /round/).intent).toBe('task');
  });
});

describe('round 9: done on the line, states, questions about when, rates and visits', () => {
  test('a "let me" the other party is asked to hold for is done on the line; "I\'ll be working from home" is a state; "how soon could you" asks', () => {
    const facts = factsOf([
      ['D', 'Let me ring him quickly. Bear with me a second.'],
      ['D', "Let me run a line test while you're on."],
      ['S', "Monday's fine, I'll be working from home anyway. I'll swing by and pick it up on Wednesday."],
      ['D', 'How soon could you get here?'],
    ]);
    expect(titles(facts)).toEqual(['Swing by and pick it up']);
  });

  test('"twice a day from Saturday" is from Saturday; "I\'ll be out to you for the survey" at a time is a visit booked', () => {
    const facts = factsOf([
      ['S', "That's easy. I'll feed her twice a day from Saturday until you're back."],
      ['D', "Thursday at two, I'll be out to you for the survey."],
    ]);
    expect(itemTitled(facts, /^Feed/).dueDate).toBe('2026-03-07');
    expect(itemTitled(facts, /survey/)).toMatchObject({ title: 'Come out to Sheila for the survey', intent: 'meeting', dueDate: '2026-03-05' });
  });

  test('an offer answered by a request to do the same is that request', () => {
    const facts = factsOf([
      ['S', 'Can I just email the note to you?'],
      ['D', 'Yes, email it to the front desk. If we get it by Thursday, I can put it through.'],
      ['S', "I'll email it over Thursday morning."],
    ]);
    expect(facts.actionItems.filter((item) => item.intent === 'email').map((item) => [item.title, item.dueDate])).toEqual([['Email the note to the front desk', '2026-03-05']]);
  });
});

describe('round 9: what "that" stands for, weighing up before a call, later today', () => {
  test('"that" is the thing named before it in its sentence, or in the sentence before in the same turn (not one only said to be what it is for)', () => {
    expect(titles(factsOf([['D', "Also, you asked about a receipt for your FSA, so I'll mail that out to you today."]]))).toEqual(['Mail the receipt out to Sheila']);
    expect(titles(factsOf([['D', "We haven't had her consent slip back for the museum trip. Could you send that in by Friday?"]]))).toEqual(['Send the consent slip in']);
  });

  test('"I\'ll talk it over with my husband and give you a ring by Monday" is the ring; "in about half an hour" is today', () => {
    const facts = factsOf([
      ['S', "Great. I'll talk it over with my husband and give you a ring by Monday to let you know."],
      ['S', "Okay, I'll come and get her, I'll be there in about half an hour."],
    ]);
    expect(itemTitled(facts, /^Call/)).toMatchObject({ intent: 'call', dueDate: '2026-03-09' });
    expect(itemTitled(facts, /^Come/).dueDate).toBe('2026-03-04');
  });
});

describe('round 9: done in the reply, a detail asked for, nothing named', () => {
  test('a request the reply says is done after an acknowledgement leaves no task; "let\'s get that started" and "a look at that too" name nothing', () => {
    const facts = factsOf([
      ['S', 'Actually, yes, could you take my number off your list?'],
      ['D', "Sure thing. I've removed it just now, you won't get any more calls from us."],
      ['D', "Let's get that started. I'll have a look at that too."],
    ]);
    expect(facts.actionItems).toEqual([]);
  });

  test('"Where should they go?" – "Send them to …": the answer is where the promised email goes, one action', () => {
    const facts = factsOf([
      ['D', 'Do you have photos of the damage?'],
      ['S', "I do, a bunch of them. I'll email them over today. Where should they go?"],
      ['D', 'Send them to claims at pacific shield dot com, and put the claim number in the subject line.'],
    ]);
    expect(facts.actionItems.map((item) => [item.intent, item.dueDate])).toEqual([['email', '2026-03-04']]);
    expect(facts.actionItems[0]!.intentMetadata).toMatchObject({ toEmail: 'claims@pacificshield.com' });
  });
});

describe('round 10: a day and time agreed across turns (Wednesday 4 March 2026)', () => {
  const agreed = (facts: ExtractedFacts) => facts.actionItems.map((item) => [item.intent, item.ownerDisplayName, item.dueDate, item.intentMetadata.proposedAt ?? null]);

  test('a slot offered, turned down and replaced, then accepted by saying it back is an appointment, owned by whoever offered slots first', () => {
    const facts = factsOf([
      ['D', "I'm ringing to book a check-up."],
      ['S', 'Can you do Thursday at three?'],
      ['D', "Thursday's no good. How about Friday at eleven?"],
      ['S', 'Friday at eleven works.'],
    ]);
    expect(agreed(facts)).toEqual([['meeting', 'Sheila', '2026-03-06', '2026-03-06T11:00:00+00:00']]);
    expect(facts.actionItems[0]!.title).toMatch(/^Check-up/);
  });

  test('a time said free and booked in the same turn is agreed; a slot turned down, cancelled or only stated as fact is not', () => {
    expect(agreed(factsOf([['D', 'Could you possibly move my appointment to Friday?'], ['S', "Let me see. Yes, Friday at two is free. I've moved it for you."]])))
      .toEqual([['meeting', 'Sheila', '2026-03-06', '2026-03-06T14:00:00+00:00']]);
    expect(factsOf([['S', 'How about Friday at eleven?'], ['D', "I'm afraid I can't do Friday at all."]]).actionItems).toEqual([]);
    expect(factsOf([['D', 'I have an appointment tomorrow at two and I need to cancel it.'], ['S', "Okay, that's cancelled for you."]]).actionItems).toEqual([]);
    expect(factsOf([['S', 'We open again on Saturday at ten.'], ['D', 'Okay, thanks.']]).actionItems).toEqual([]);
  });

  test('undated actions of the exchange take the agreed time and are one: "go through the draft on the phone?" … "I\'ll ring you then"', () => {
    const facts = factsOf([
      ['D', "Could we go through the draft on the phone once it's done?"],
      ['S', 'Of course. How about Friday the sixth at ten?'],
      ['D', 'Yes, that works for me.'],
      ['S', "Lovely, I'll ring you then."],
    ]);
    expect(facts.actionItems.map((item) => [item.title, item.intent, item.ownerDisplayName, item.dueDate, item.intentMetadata.proposedAt ?? null]))
      .toEqual([['Go through the draft on the phone', 'call', 'Sheila', '2026-03-06', '2026-03-06T10:00:00+00:00']]);
  });

  test('an exchange whose action already has its day adds nothing', () => {
    const facts = factsOf([['S', 'I can do Friday at ten?'], ['D', 'Friday at ten is perfect.'], ['S', "Lovely, I'll book you in for Friday at ten with Dr Shah."]]);
    expect(facts.actionItems).toHaveLength(1);
    expect(facts.actionItems[0]!.dueDate).toBe('2026-03-06');
  });
});

describe('round 10: commitments as everyday English says them (a battery written from the language)', () => {
  test('"Please can you …", "Kindly share …" are requests; the owner\'s own day in the answer is when it is done', () => {
    const please = factsOf([['S', 'Please can you send us a copy of your passport by Friday?'], ['D', 'Yes, I will.']]);
    expect(itemTitled(please, /passport/)).toMatchObject({ ownerDisplayName: 'Diane', dueDate: '2026-03-06' });
    const kindly = factsOf([['S', 'Kindly share the documents by tomorrow.'], ['D', 'Sure, I will share them tonight.']]);
    expect(itemTitled(kindly, /documents/)).toMatchObject({ ownerDisplayName: 'Diane', dueDate: '2026-03-04' });
    const deposit = factsOf([['S', 'You need to pay the deposit of three hundred pounds by the 10th.'], ['D', 'Okay, I will pay it tomorrow.']]);
    expect(itemTitled(deposit, /deposit/)).toMatchObject({ ownerDisplayName: 'Diane', dueDate: '2026-03-05' });
  });

  test('"you should get a letter from us" is no task; "I won\'t be able to send the report until Monday" is the report on Monday', () => {
    expect(factsOf([['S', 'You should get a letter from us in the next few days.'], ['D', 'Okay.']]).actionItems).toEqual([]);
    expect(itemTitled(factsOf([['S', "I won't be able to send the report until Monday."], ['D', 'That is fine.']]), /report/))
      .toMatchObject({ ownerDisplayName: 'Sheila', dueDate: '2026-03-09' });
  });

  test('"… and you can pay …" is a part of its own: the link is not due on the payment\'s day', () => {
    const facts = factsOf([['S', "I'll text you a payment link now and you need to pay the fifty pounds by Monday."], ['D', 'Okay, I will.']]);
    expect(itemTitled(facts, /link/)).toMatchObject({ ownerDisplayName: 'Sheila', dueDate: '2026-03-04' });
    expect(itemTitled(facts, /^Pay/)).toMatchObject({ ownerDisplayName: 'Diane', dueDate: '2026-03-09' });
  });

  test('"on the Monday" is the Monday of the week talked about, not the next one', () => {
    const facts = factsOf([['S', "I'll book you in for ten past three on Tuesday the 17th."], ['D', 'Could you text me the day before?'], ['S', "We will. I'll send you a text reminder on the Monday."]]);
    expect(itemTitled(facts, /reminder/).dueDate).toBe('2026-03-16');
  });
});

describe('round 10: from the dialogue battery (scripts/evaluation/dialogueBattery.ts)', () => {
  test('"after lunch", "later", "in a while" are later today; "next week" names no day', () => {
    expect(itemTitled(factsOf([['D', "Okay, I'm gonna ring the warehouse after lunch."]]), /warehouse/).dueDate).toBe('2026-03-04');
    expect(itemTitled(factsOf([['D', "I'll shoot you an email with the spec later."]]), /spec/).dueDate).toBe('2026-03-04');
    expect(itemTitled(factsOf([['D', "Grand so. I'll ring you back in a while."]]), /^Call/).dueDate).toBe('2026-03-04');
    expect(itemTitled(factsOf([['S', "I'll drop you a line next week with the dates."]]), /dates/).dueDate).toBeNull();
  });

  test('"cancel Thursday\'s delivery": a day of a thing is no due date and stays in the title', () => {
    const facts = factsOf([['D', "Don't forget to cancel Thursday's delivery."], ['S', "I won't, I'll do it this afternoon."]]);
    expect(itemTitled(facts, /delivery/)).toMatchObject({ title: "Cancel Thursday's delivery", dueDate: '2026-03-04' });
  });

  test('"when I get paid" is no past: "the 27th" is ahead', () => {
    const facts = factsOf([['S', 'Could you pay the outstanding £1,200 by the end of the month?'], ['D', "Yes, I'll pay it on the 27th when I get paid."]]);
    expect(itemTitled(facts, /^Pay/).dueDate).toBe('2026-03-27');
  });

  test('a plain "No, …" turns a request down ("no problem" does not); "that would really help" takes an offer up', () => {
    expect(factsOf([['S', 'Could you send us your bank statements?'], ['D', "No, I'm not comfortable doing that over email."]]).actionItems).toEqual([]);
    expect(factsOf([['S', 'Could you send us your bank statements?'], ['D', 'No problem.']]).actionItems).toHaveLength(1);
    expect(itemTitled(factsOf([['D', 'I can drop the spare keys round tomorrow if you like.'], ['S', 'Oh, that would really help, thanks.']]), /keys/))
      .toMatchObject({ ownerDisplayName: 'Diane', dueDate: '2026-03-05' });
  });

  test('done in the reply: "Done. She\'s on there now.", "Let me just check. Yes, it\'s there", a joint "can we …?" answered "I\'ve cancelled …"', () => {
    expect(factsOf([['D', 'Could you add my colleague Jane to the account?'], ['S', "Done. She's on there now."]]).actionItems).toEqual([]);
    expect(factsOf([['D', 'Can you check whether our payment has arrived?'], ['S', "Let me just check. Yes, it's there, it came through on Monday."]]).actionItems).toEqual([]);
    const joint = factsOf([['D', 'So can we replace the old order with the new one?'], ['S', "Yes. I've cancelled the old order, and I'll send you a new confirmation this afternoon."]]);
    expect(joint.actionItems.map((item) => item.title)).toEqual(['Send a new confirmation to Diane']);
  });
});

describe('round 10: two deeds of one promise', () => {
  test('each on its own day they are two actions; with no day, or steps on one thing, one', () => {
    const two = factsOf([['D', "I'll email the floor plan tonight and ring the builder tomorrow."]]);
    expect(two.actionItems.map((item) => [item.title, item.intent, item.dueDate])).toEqual([
      ['Email the floor plan', 'email', '2026-03-04'], ['Call the builder', 'call', '2026-03-05'],
    ]);
    expect(factsOf([['S', "I'll cancel the old order and email you a new invoice."]]).actionItems).toHaveLength(1);
    expect(factsOf([['D', "I'll sign the contract tonight and send it back tomorrow."]]).actionItems).toHaveLength(1);
  });
});

describe('round 10: more from the dialogue battery', () => {
  test('"I\'ll call you then" is the day the other party said in the turn before; "…, then." (in that case) is not', () => {
    const then = factsOf([['D', "I'm away until the weekend. I'm back in the office on Monday."], ['S', "Okay, I'll call you then."]]);
    expect(itemTitled(then, /^Call/).dueDate).toBe('2026-03-09');
    const inThatCase = factsOf([['S', 'Your prescription will be ready on Friday.'], ['D', "I'll come and pick it up once I get the text, then."]]);
    expect(itemTitled(inThatCase, /pick/).dueDate).toBeNull();
  });

  test('a request to come in at a day and time is an appointment', () => {
    const facts = factsOf([['S', 'Could you come in on Monday at two to go through the contract?'], ['D', 'Monday at two works for me.']]);
    expect(itemTitled(facts, /contract/)).toMatchObject({ intent: 'meeting', ownerDisplayName: 'Diane', dueDate: '2026-03-09' });
  });

  test('a joint plan one party then books is that meeting', () => {
    const facts = factsOf([['D', "Let's get together and walk through the rollout."], ['S', "Sure thing. I'll shoot you a calendar invite for Tuesday at 2 p.m."], ['D', 'Awesome.']]);
    expect(facts.actionItems.map((item) => [item.title, item.intent, item.dueDate])).toEqual([['Get together and walk through the rollout', 'meeting', '2026-03-10']]);
  });

  test('a wish for "sometime" and a "maybe I\'ll" are no actions; "I\'ll see if I can get you a discount" is; "release the goods" is a deed', () => {
    expect(factsOf([['D', 'We should get together for a coffee sometime.'], ['S', 'Yes, we really should.']]).actionItems).toEqual([]);
    expect(factsOf([['D', "Maybe I'll give them a ring at some point."]]).actionItems).toEqual([]);
    expect(itemTitled(factsOf([['S', "I'll see if I can get you a discount."]]), /discount/).ownerDisplayName).toBe('Sheila');
    expect(itemTitled(factsOf([['S', "Thanks. Once the payment clears, I'll release the goods on Friday."]]), /goods/).dueDate).toBe('2026-03-06');
  });
});

describe('round 10: third parties said as "he" or "she", and a visit said as being with you', () => {
  test('"my colleague Raj can. He\'ll ring you this afternoon" is Raj\'s call, nobody\'s on the line, described with who he is', () => {
    const facts = factsOf([['D', 'Can you book the engineer for me?'], ['S', "I can't, but my colleague Raj in scheduling can. He'll ring you this afternoon."]]);
    expect(facts.actionItems).toHaveLength(1);
    expect(facts.actionItems[0]).toMatchObject({ intent: 'call', ownerSpeakerId: null, dueDate: '2026-03-04' });
    expect(facts.actionItems[0]!.description).toContain('Raj');
    // Without a third party named just before, "he" is nobody's promise here.
    expect(factsOf([['S', "He'll ring you this afternoon."]]).actionItems).toEqual([]);
  });

  test('"the engineer will be with you on Friday between eight and twelve" is the visit, in its window', () => {
    const facts = factsOf([['S', 'The engineer will be with you on Friday between eight and twelve.'], ['D', "Okay, that's fine."]]);
    expect(facts.actionItems.map((item) => [item.title, item.ownerSpeakerId, item.dueDate])).toEqual([['Come out to Diane between eight and twelve', null, '2026-03-06']]);
  });
});
