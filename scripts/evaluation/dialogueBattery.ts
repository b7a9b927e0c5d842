/**
 * A battery of short phone dialogues, each probing one way an action is (or is not) said on the
 * phone: a promise, a request that is accepted or refused, an offer taken up or turned down, an
 * appointment agreed across turns, a third party's commitment, a condition, something done while
 * the call is still going, a date said earlier and referred back to, and so on. The dialogues are
 * written from how English is spoken on the phone (British, with some American, Australian, Irish
 * and Indian English), not from the evaluation calls or from the analyser, and each one carries the
 * action items a careful human annotator would write for it.
 *
 * Conventions:
 * - Every dialogue is a call on Wednesday 4 March 2026, 10:00 in London. The harness prepends two
 *   opening turns, S: "Hello, Sheila speaking." and D: "Hi Sheila, this is Diane.", so `D` is Diane
 *   (the user) and `S` is Sheila (the contact, at Acme Supplies); the turns here hold no greeting.
 * - Dates: today 2026-03-04; tomorrow / Thursday 03-05; Friday 03-06; Saturday 03-07; Monday 03-09;
 *   Tuesday ("next Tuesday") 03-10; next Wednesday 03-11; "the 12th" 03-12; "a week on Friday"
 *   03-13; "a week on Monday" 03-16; "in a fortnight" 03-18; "the end of the month" 03-31.
 *   "Tonight", "this afternoon", "later", "by end of day", "now" are today. A meeting is due on the
 *   day it takes place. `due` is null when no day is said and left out when the day is uncertain.
 * - An action item is a commitment made in the call, or a request the other party accepted (or did
 *   not refuse). Things already done or done during the call, past events, questions that only ask
 *   for information, declined offers, advice, conditional threats, what the other party will merely
 *   receive, schedules stated as facts and courtesy are not action items; `items: []` means the
 *   dialogue holds none, and in every dialogue nothing beyond the listed items may be extracted.
 * - The owner is the one who takes the action on: the one asked, for an accepted request; null for
 *   a third party, or for a joint "let's both". `intent`, `owner` and `due` are given only when an
 *   annotator could not reasonably differ on them; `mentions` is a word any sensible title or
 *   description of the item would contain.
 *
 * Tuned on since round 10: every dialogue not fully right is printed in full and read while
 * changing the analyser. Its held-out twin, ./dialogueBatteryHeldOut.ts, is a judge.
 */
import type { Turn } from './dialogueCalls.js';

/** An action item a careful annotator would write for a dialogue. */
export interface BatteryItem {
  /** Matched case-insensitively against the item's title and description together. */
  mentions: RegExp;
  intent?: 'task' | 'email' | 'call' | 'meeting' | 'reminder' | 'message';
  /** 'Diane' (speaker D, the user), 'Sheila' (speaker S, the contact), or null (a third party or nobody in particular). */
  owner?: 'Diane' | 'Sheila' | null;
  /** YYYY-MM-DD, or null when no day is said. */
  due?: string | null;
}

export interface BatteryDialogue {
  /** What the dialogue probes, e.g. 'request accepted with "will do"'. */
  probe: string;
  /** A group name: one of the categories below. */
  category: string;
  turns: Turn[];
  /** The items expected; [] when the dialogue holds no action. Nothing else may be extracted. */
  items: BatteryItem[];
}

export const dialogueBattery: BatteryDialogue[] = [
  // ───────────────────────────── promise ─────────────────────────────
  {
    probe: '"I\'ll email … this afternoon" after an information question',
    category: 'promise',
    turns: [
      ['D', 'Have you managed to price up the shelving yet?'],
      ['S', "Nearly there. I'll email the quote over to you this afternoon."],
      ['D', 'Lovely, thanks.'],
    ],
    items: [{ mentions: /quote/i, intent: 'email', owner: 'Sheila', due: '2026-03-04' }],
  },
  {
    probe: '"I\'m going to post … tomorrow"',
    category: 'promise',
    turns: [
      ['D', "The chair arrived with a cracked leg, so I'd like to send it back."],
      ['S', "I'm sorry about that. I'm going to post the returns form out to you tomorrow."],
      ['D', 'Great.'],
    ],
    items: [{ mentions: /(return|form)/i, intent: 'task', owner: 'Sheila', due: '2026-03-05' }],
  },
  {
    probe: 'user\'s own "gonna ring … after lunch"',
    category: 'promise',
    turns: [
      ['S', "The system says it left our depot on Monday, but I can't see where it is now."],
      ['D', "Okay, I'm gonna ring the warehouse after lunch and find out where it's got to."],
      ['S', 'Okay, thanks Diane.'],
    ],
    items: [{ mentions: /warehouse/i, intent: 'call', owner: 'Diane', due: '2026-03-04' }],
  },
  {
    probe: '"leave it with me, I\'ll get that sorted" with no day',
    category: 'promise',
    turns: [
      ['D', "The invoice you sent still has our old address on it."],
      ['S', "Ah, sorry. Leave it with me, I'll get that sorted."],
    ],
    items: [{ mentions: /(address|invoice)/i, owner: 'Sheila', due: null }],
  },
  {
    probe: '"consider it done" followed by the concrete promise',
    category: 'promise',
    turns: [
      ['D', 'We really need those empty pallets taken away before the weekend.'],
      ['S', "Consider it done. I'll have them collected on Friday."],
    ],
    items: [{ mentions: /pallet/i, owner: 'Sheila', due: '2026-03-06' }],
  },
  {
    probe: '"I can have them with you by Monday" answering "when"',
    category: 'promise',
    turns: [
      ['D', 'When can I expect the revised drawings?'],
      ['S', 'I can have them with you by Monday.'],
      ['D', 'Perfect.'],
    ],
    items: [{ mentions: /drawing/i, owner: 'Sheila', due: '2026-03-09' }],
  },
  {
    probe: 'formal "I shall write to … today"',
    category: 'promise',
    turns: [
      ['D', "The landlord still hasn't given permission for the sign."],
      ['S', 'I shall write to the landlord today and copy you in.'],
    ],
    items: [{ mentions: /landlord/i, owner: 'Sheila', due: '2026-03-04' }],
  },
  {
    probe: '"let me check … and get back to you tomorrow"',
    category: 'promise',
    turns: [
      ['D', 'Is the blue one still in stock?'],
      ['S', "I'm not sure, to be honest. Let me check with the warehouse and get back to you tomorrow."],
      ['D', 'Thanks.'],
    ],
    items: [{ mentions: /(stock|blue|check)/i, owner: 'Sheila', due: '2026-03-05' }],
  },
  {
    probe: 'user\'s "I\'ll pop in on Saturday and pick up …"',
    category: 'promise',
    turns: [
      ['S', 'The fabric samples came in this morning.'],
      ['D', "Oh good. I'll pop in on Saturday morning and pick them up."],
      ['S', 'Great, see you then.'],
    ],
    items: [{ mentions: /sample/i, owner: 'Diane', due: '2026-03-07' }],
  },
  {
    probe: '"I\'ll text you … once I\'m back at my desk"',
    category: 'promise',
    turns: [
      ['D', 'Do you have a tracking number for the parcel?'],
      ['S', "Not on me, I'm out on site. I'll text you the tracking number once I'm back at my desk."],
    ],
    items: [{ mentions: /tracking/i, intent: 'message', owner: 'Sheila' }],
  },

  // ───────────────────────────── request accepted ─────────────────────────────
  {
    probe: '"could you send me …?" answered "sure"',
    category: 'request accepted',
    turns: [
      ['D', 'Could you send me a copy of the contract?'],
      ['S', 'Sure.'],
    ],
    items: [{ mentions: /contract/i, owner: 'Sheila', due: null }],
  },
  {
    probe: '"would you mind emailing …?" answered "not at all, I\'ll do it now"',
    category: 'request accepted',
    turns: [
      ['D', 'Would you mind emailing me the delivery schedule?'],
      ['S', "Not at all, I'll do it now."],
    ],
    items: [{ mentions: /schedule/i, intent: 'email', owner: 'Sheila', due: '2026-03-04' }],
  },
  {
    probe: '"any chance you could ring …?" answered "yep, leave that with me"',
    category: 'request accepted',
    turns: [
      ['D', 'Any chance you could ring the courier and find out where the parcel is?'],
      ['S', 'Yep, leave that with me.'],
    ],
    items: [{ mentions: /courier/i, intent: 'call', owner: 'Sheila', due: null }],
  },
  {
    probe: 'contact\'s "I need you to … by Friday" answered "no problem"',
    category: 'request accepted',
    turns: [
      ['S', 'I need you to sign the variation form and send it back to me by Friday.'],
      ['D', 'No problem.'],
    ],
    items: [{ mentions: /form/i, owner: 'Diane', due: '2026-03-06' }],
  },
  {
    probe: '"I\'d like you to …" answered "of course, I\'ll do it tonight"',
    category: 'request accepted',
    turns: [
      ['S', "Before we order the units, I'd like you to measure the alcove."],
      ['D', "Of course, I'll do it tonight."],
    ],
    items: [{ mentions: /(measur|alcove)/i, intent: 'task', owner: 'Diane', due: '2026-03-04' }],
  },
  {
    probe: '"can I get you to text me …?" answered "I can do that"',
    category: 'request accepted',
    turns: [
      ['S', 'Can I get you to text me a photo of the serial number on the back?'],
      ['D', 'Yeah, I can do that.'],
    ],
    items: [{ mentions: /(photo|serial)/i, intent: 'message', owner: 'Diane', due: null }],
  },
  {
    probe: '"make sure you bring …" answered "will do"',
    category: 'request accepted',
    turns: [
      ['S', 'Make sure you bring the original receipt when you come in on Monday.'],
      ['D', 'Will do.'],
    ],
    items: [{ mentions: /receipt/i, owner: 'Diane', due: '2026-03-09' }],
  },
  {
    probe: '"don\'t forget to …" answered "I won\'t, I\'ll do it this afternoon"',
    category: 'request accepted',
    turns: [
      ['D', "Don't forget to cancel Thursday's delivery."],
      ['S', "I won't, I'll do it this afternoon."],
    ],
    items: [{ mentions: /cancel/i, owner: 'Sheila', due: '2026-03-04' }],
  },
  {
    probe: '"remember to email … by the end of the month" answered "yes, I will"',
    category: 'request accepted',
    turns: [
      ['S', 'Remember to email us the meter readings by the end of the month.'],
      ['D', 'Yes, I will.'],
    ],
    items: [{ mentions: /meter/i, intent: 'email', owner: 'Diane', due: '2026-03-31' }],
  },
  {
    probe: '"please send …" answered "of course, I can do that"',
    category: 'request accepted',
    turns: [
      ['D', 'Please send the corrected invoice to our accounts team rather than to me.'],
      ['S', 'Of course, I can do that.'],
    ],
    items: [{ mentions: /invoice/i, owner: 'Sheila', due: null }],
  },

  // ───────────────────────────── request refused or deferred ─────────────────────────────
  {
    probe: 'flat "no, I can\'t do that"',
    category: 'request refused or deferred',
    turns: [
      ['D', 'Could you waive the late fee this time?'],
      ['S', "No, I'm sorry, I can't do that."],
    ],
    items: [],
  },
  {
    probe: 'email refused, "has to go by post", post promised instead',
    category: 'request refused or deferred',
    turns: [
      ['D', 'Can you email me the signed deed?'],
      ['S', "I'm afraid not, originals have to go by post. I'll post it to you tomorrow."],
    ],
    items: [{ mentions: /deed/i, intent: 'task', owner: 'Sheila', due: '2026-03-05' }],
  },
  {
    probe: '"I can\'t, but my colleague can — he\'ll ring you"',
    category: 'request refused or deferred',
    turns: [
      ['D', 'Can you book the engineer for me?'],
      ['S', "I can't, but my colleague Raj in scheduling can. He'll ring you this afternoon."],
      ['D', 'Okay, thanks.'],
    ],
    items: [{ mentions: /(engineer|raj|book)/i, intent: 'call', owner: null, due: '2026-03-04' }],
  },
  {
    probe: '"not this week" deferred to a later day and accepted',
    category: 'request refused or deferred',
    turns: [
      ['D', 'Could you send the samples this week?'],
      ['S', "Not this week, I'm afraid, we're out of stock. I can send them next Tuesday."],
      ['D', "That's fine."],
    ],
    items: [{ mentions: /sample/i, owner: 'Sheila', due: '2026-03-10' }],
  },
  {
    probe: 'refused as policy: "we don\'t do site visits any more"',
    category: 'request refused or deferred',
    turns: [
      ['D', 'Would you be able to come out and look at it today?'],
      ['S', "I'm afraid we don't do site visits any more."],
    ],
    items: [],
  },
  {
    probe: 'refused and redirected with advice, not taken up',
    category: 'request refused or deferred',
    turns: [
      ['D', 'Can you give me a discount on the bulk order?'],
      ['S', "That's not my decision, I'm afraid. You'd need to speak to sales."],
      ['D', 'Okay.'],
    ],
    items: [],
  },
  {
    probe: 'user refuses the contact\'s request',
    category: 'request refused or deferred',
    turns: [
      ['S', 'Could you send us your bank statements for the last six months?'],
      ['D', "No, I'm not comfortable doing that over email."],
    ],
    items: [],
  },
  {
    probe: 'refused by the contact, user takes it on herself',
    category: 'request refused or deferred',
    turns: [
      ['D', 'Can you update my direct debit details?'],
      ['S', "I'm not able to do that from here, you'll have to do it through the online portal."],
      ['D', "Right, I'll do that tonight then."],
    ],
    items: [{ mentions: /direct debit/i, owner: 'Diane', due: '2026-03-04' }],
  },
  {
    probe: 'deferred: "I\'ll have to ask my manager, I\'ll let you know by Friday"',
    category: 'request refused or deferred',
    turns: [
      ['D', 'Could you extend the deadline to the end of the month?'],
      ['S', "I'll have to ask my manager. I'll let you know by Friday."],
    ],
    items: [{ mentions: /(deadline|extension|extend)/i, owner: 'Sheila', due: '2026-03-06' }],
  },
  {
    probe: 'user declines "not today", no new commitment',
    category: 'request refused or deferred',
    turns: [
      ['S', 'Would you be able to pay the deposit today?'],
      ['D', "Not today, I'm afraid. I don't get paid until the end of the month."],
      ['S', "Okay, we'll leave it for now then."],
    ],
    items: [],
  },

  // ───────────────────────────── offer ─────────────────────────────
  {
    probe: '"shall I email you …?" accepted with "yes please"',
    category: 'offer',
    turns: [
      ['S', 'Shall I email you the brochure?'],
      ['D', 'Yes please.'],
    ],
    items: [{ mentions: /brochure/i, intent: 'email', owner: 'Sheila', due: null }],
  },
  {
    probe: '"shall I put a copy in the post?" declined',
    category: 'offer',
    turns: [
      ['S', "I've emailed the certificate. Shall I put a copy in the post as well?"],
      ['D', "No, that's fine, email's enough."],
    ],
    items: [],
  },
  {
    probe: '"do you want me to book …?" accepted with "please do"',
    category: 'offer',
    turns: [
      ['S', 'Do you want me to book the van for Thursday?'],
      ['D', 'Yes, please do.'],
    ],
    items: [{ mentions: /van/i, owner: 'Sheila' }],
  },
  {
    probe: 'user\'s "do you want me to …?" declined',
    category: 'offer',
    turns: [
      ['D', 'Do you want me to send the photos again?'],
      ['S', "No, don't worry, I've found them."],
    ],
    items: [],
  },
  {
    probe: '"would you like me to ring you when …?" accepted',
    category: 'offer',
    turns: [
      ['S', "Would you like me to ring you when it's ready for collection?"],
      ['D', 'That would be great.'],
    ],
    items: [{ mentions: /(ring|call|collect)/i, intent: 'call', owner: 'Sheila', due: null }],
  },
  {
    probe: 'user\'s "I can … if you like" accepted',
    category: 'offer',
    turns: [
      ['D', 'I can drop the spare keys round tomorrow if you like.'],
      ['S', 'Oh, that would really help, thanks.'],
    ],
    items: [{ mentions: /key/i, owner: 'Diane', due: '2026-03-05' }],
  },
  {
    probe: '"I can send an engineer out if you like" declined',
    category: 'offer',
    turns: [
      ['S', 'I can send an engineer out if you like.'],
      ['D', "No thanks, I think we'll manage."],
    ],
    items: [],
  },
  {
    probe: 'casual "want me to text you …?" accepted with "go on then"',
    category: 'offer',
    turns: [
      ['S', 'Want me to text you the address?'],
      ['D', 'Go on then.'],
    ],
    items: [{ mentions: /address/i, intent: 'message', owner: 'Sheila', due: null }],
  },
  {
    probe: 'offer neither taken nor declined; user promises an answer tomorrow',
    category: 'offer',
    turns: [
      ['S', 'Would you like me to hold the room for you until Friday?'],
      ['D', "Let me think about it and I'll let you know tomorrow."],
    ],
    items: [{ mentions: /room/i, owner: 'Diane', due: '2026-03-05' }],
  },
  {
    probe: 'user\'s "shall I send over …?" accepted with "yes, if it\'s no trouble"',
    category: 'offer',
    turns: [
      ['D', 'Shall I send over the floor plan?'],
      ['S', "Yes, if it's no trouble."],
    ],
    items: [{ mentions: /floor ?plan/i, owner: 'Diane', due: null }],
  },

  // ───────────────────────────── appointment agreed ─────────────────────────────
  {
    probe: 'slot proposed and accepted as stated',
    category: 'appointment agreed',
    turns: [
      ['S', 'Could you come in on Monday at two to go through the contract?'],
      ['D', 'Monday at two works for me.'],
    ],
    items: [{ mentions: /contract/i, intent: 'meeting', due: '2026-03-09' }],
  },
  {
    probe: 'slot refused, counter-proposed, accepted with a time',
    category: 'appointment agreed',
    turns: [
      ['S', 'Would Thursday morning work for the site visit?'],
      ['D', "I can't do Thursday. How about Friday?"],
      ['S', "Friday's fine. Let's say ten o'clock."],
    ],
    items: [{ mentions: /visit/i, intent: 'meeting', due: '2026-03-06' }],
  },
  {
    probe: 'choice of two days, one picked, confirmed "it is"',
    category: 'appointment agreed',
    turns: [
      ['D', 'When can your fitter come out?'],
      ['S', 'Either Tuesday or Wednesday next week.'],
      ['D', 'Wednesday, please.'],
      ['S', 'Okay, next Wednesday it is.'],
    ],
    items: [{ mentions: /fit/i, intent: 'meeting', owner: null, due: '2026-03-11' }],
  },
  {
    probe: '"I\'ve booked you in for …": the booking is done, the appointment is ahead',
    category: 'appointment agreed',
    turns: [
      ['D', 'The boiler needs its annual service.'],
      ['S', "Right, I've booked you in for Thursday at half nine."],
      ['D', 'Great.'],
    ],
    items: [{ mentions: /service/i, intent: 'meeting', due: '2026-03-05' }],
  },
  {
    probe: 'visit in a window "between eight and twelve"',
    category: 'appointment agreed',
    turns: [
      ['S', 'The engineer will be with you on Friday between eight and twelve.'],
      ['D', "Okay, that's fine."],
    ],
    items: [{ mentions: /engineer/i, intent: 'meeting', owner: null, due: '2026-03-06' }],
  },
  {
    probe: 'day refused, no appointment made; user will get back',
    category: 'appointment agreed',
    turns: [
      ['S', 'Could we meet on Tuesday to go over the plans?'],
      ['D', "Tuesday's no good. I'll have to check my diary and get back to you."],
    ],
    items: [{ mentions: /(diary|meet|plan)/i, owner: 'Diane', due: null }],
  },
  {
    probe: 'phone call fixed at a day and time',
    category: 'appointment agreed',
    turns: [
      ['S', "I'll give you a ring on Monday at eleven to go through the figures."],
      ['D', 'Great, speak then.'],
    ],
    items: [{ mentions: /figure/i, intent: 'call', owner: 'Sheila', due: '2026-03-09' }],
  },
  {
    probe: 'online meeting on "Thursday the 12th" proposed by the user and accepted',
    category: 'appointment agreed',
    turns: [
      ['D', 'Shall we meet on Teams on Thursday the 12th at three?'],
      ['S', 'Yes, that works for me.'],
    ],
    items: [{ mentions: /(meet|teams)/i, intent: 'meeting', due: '2026-03-12' }],
  },
  {
    probe: 'meeting moved: "Monday at the same time?"',
    category: 'appointment agreed',
    turns: [
      ['D', 'I need to move our Friday meeting, something has come up.'],
      ['S', 'How about Monday at the same time?'],
      ['D', "Monday's perfect."],
    ],
    items: [{ mentions: /meet/i, intent: 'meeting', due: '2026-03-09' }],
  },
  {
    probe: 'vague "we could maybe meet sometime" left open',
    category: 'appointment agreed',
    turns: [
      ['S', 'We could maybe meet up sometime next week?'],
      ['D', "Maybe, let's see how things go."],
    ],
    items: [],
  },

  // ───────────────────────────── third party ─────────────────────────────
  {
    probe: '"my colleague Priya will ring you tomorrow"',
    category: 'third party',
    turns: [
      ['S', 'My colleague Priya will ring you tomorrow about the warranty.'],
      ['D', 'Thanks.'],
    ],
    items: [{ mentions: /warranty/i, intent: 'call', owner: null, due: '2026-03-05' }],
  },
  {
    probe: '"our engineer Tom will come and replace …"',
    category: 'third party',
    turns: [
      ['D', "The valve's still dripping."],
      ['S', 'Our engineer Tom will come and replace the valve on Friday.'],
    ],
    items: [{ mentions: /valve/i, owner: null, due: '2026-03-06' }],
  },
  {
    probe: '"someone from our billing team will call you back by Friday"',
    category: 'third party',
    turns: [
      ['D', "I've been charged for two licences but we only have one."],
      ['S', 'Someone from our billing team will call you back about that by Friday.'],
    ],
    items: [{ mentions: /(billing|licen[cs]e|charge)/i, intent: 'call', owner: null, due: '2026-03-06' }],
  },
  {
    probe: '"expect a call from the surveyor on Monday"',
    category: 'third party',
    turns: [
      ['S', 'You should expect a call from the surveyor on Monday to arrange access.'],
      ['D', 'Okay.'],
    ],
    items: [{ mentions: /surveyor/i, intent: 'call', owner: null, due: '2026-03-09' }],
  },
  {
    probe: 'the user\'s doctor will write: "Dr Patel is going to write to you"',
    category: 'third party',
    turns: [
      ['S', "We'll need something from your doctor before we can fit the stairlift."],
      ['D', 'My GP, Dr Patel, is going to write to you with the details.'],
    ],
    items: [{ mentions: /(patel|doctor|gp)/i, owner: null, due: null }],
  },
  {
    probe: 'user\'s husband will drop a cheque round',
    category: 'third party',
    turns: [
      ['D', 'My husband will drop the cheque round on Thursday.'],
      ['S', 'Lovely.'],
    ],
    items: [{ mentions: /cheque/i, owner: null, due: '2026-03-05' }],
  },
  {
    probe: '"our returns team will email you a label today"',
    category: 'third party',
    turns: [
      ['D', 'So how do I get it back to you?'],
      ['S', 'Our returns team will email you a prepaid label today.'],
    ],
    items: [{ mentions: /label/i, intent: 'email', owner: null, due: '2026-03-04' }],
  },
  {
    probe: 'carrier\'s automatic text is not an action',
    category: 'third party',
    turns: [
      ['D', 'Will I know when it is coming?'],
      ['S', 'Yes, DPD will text you a one-hour window on the day.'],
    ],
    items: [],
  },
  {
    probe: '"I\'ll get someone from the warehouse to call you this afternoon"',
    category: 'third party',
    turns: [
      ['D', 'Half of the order is missing.'],
      ['S', "I'll get someone from the warehouse to call you this afternoon."],
    ],
    items: [{ mentions: /(warehouse|missing|order)/i, intent: 'call', due: '2026-03-04' }],
  },
  {
    probe: '"the surveyor will send his report by the end of next week"',
    category: 'third party',
    turns: [
      ['S', 'The surveyor will send his report to you directly by the end of next week.'],
      ['D', 'Thank you.'],
    ],
    items: [{ mentions: /report/i, owner: null, due: '2026-03-13' }],
  },

  // ───────────────────────────── conditional ─────────────────────────────
  {
    probe: '"if the part comes in, I\'ll ring you straight away" (an expected event)',
    category: 'conditional',
    turns: [
      ['D', "Any news on the part?"],
      ['S', "Not yet. If it comes in, I'll ring you straight away."],
    ],
    items: [{ mentions: /part/i, intent: 'call', owner: 'Sheila', due: null }],
  },
  {
    probe: '"unless I hear otherwise, I\'ll deliver on Friday"',
    category: 'conditional',
    turns: [
      ['S', "Unless I hear otherwise, I'll deliver on Friday."],
      ['D', 'Sounds good.'],
    ],
    items: [{ mentions: /deliver/i, owner: 'Sheila', due: '2026-03-06' }],
  },
  {
    probe: '"in case it doesn\'t arrive, give us a call" is a contingency, not an action',
    category: 'conditional',
    turns: [
      ['S', "It should be with you by Monday. In case it doesn't arrive, give us a call."],
      ['D', 'Okay.'],
    ],
    items: [],
  },
  {
    probe: '"if you decide to go ahead, I\'ll send the contract" with no decision',
    category: 'conditional',
    turns: [
      ['S', "If you decide to go ahead, I'll send the contract over."],
      ['D', "I'll think about it."],
    ],
    items: [],
  },
  {
    probe: 'condition met in the call: "if you send me the photos, I\'ll process the claim" — "I\'ll send them tonight"',
    category: 'conditional',
    turns: [
      ['S', "If you send me the photos of the damage, I'll process the claim."],
      ['D', "I'll send them tonight."],
    ],
    items: [
      { mentions: /photo/i, owner: 'Diane', due: '2026-03-04' },
      { mentions: /claim/i, owner: 'Sheila', due: null },
    ],
  },
  {
    probe: 'default action: "if I don\'t hear from you by Friday, I\'ll place the order"',
    category: 'conditional',
    turns: [
      ['S', "If I don't hear from you by Friday, I'll assume it's fine and place the order."],
      ['D', 'Okay, fair enough.'],
    ],
    items: [{ mentions: /order/i, owner: 'Sheila' }],
  },
  {
    probe: 'vague "if there\'s any problem, I\'ll let you know"',
    category: 'conditional',
    turns: [
      ['D', 'So we should be all set for next week?'],
      ['S', "Yes. If there's any problem, I'll let you know."],
    ],
    items: [],
  },
  {
    probe: 'contingency on failure: "if it\'s not fixed by Thursday, I\'ll escalate it"',
    category: 'conditional',
    turns: [
      ['D', "The portal's still not letting me log in."],
      ['S', "IT are looking at it. If it's not fixed by Thursday, I'll escalate it."],
    ],
    items: [],
  },
  {
    probe: '"once the payment clears, I\'ll release the goods"',
    category: 'conditional',
    turns: [
      ['D', "I paid this morning, so it's on its way."],
      ['S', "Thanks. Once the payment clears, I'll release the goods."],
    ],
    items: [{ mentions: /(release|goods)/i, owner: 'Sheila', due: null }],
  },
  {
    probe: '"if you can get it to me by Friday, I can have the proofs back Monday" — "I\'ll send it Thursday"',
    category: 'conditional',
    turns: [
      ['S', 'If you can get the artwork to me by Friday, I can have the proofs back to you on Monday.'],
      ['D', "Great, I'll send it over on Thursday."],
    ],
    items: [
      { mentions: /artwork/i, owner: 'Diane', due: '2026-03-05' },
      { mentions: /proof/i, owner: 'Sheila', due: '2026-03-09' },
    ],
  },

  // ───────────────────────────── done on the call ─────────────────────────────
  {
    probe: '"I\'ve updated your address now"',
    category: 'done on the call',
    turns: [
      ['D', "We've moved, so the address on the account is wrong."],
      ['S', "No problem. I've updated your address now."],
    ],
    items: [],
  },
  {
    probe: '"that\'s cancelled for you"',
    category: 'done on the call',
    turns: [
      ['D', "I'd like to cancel the standing order for paper."],
      ['S', "Right, that's cancelled for you."],
      ['D', 'Thanks.'],
    ],
    items: [],
  },
  {
    probe: '"let me just check — yes, it\'s there"',
    category: 'done on the call',
    turns: [
      ['D', 'Can you check whether our payment has arrived?'],
      ['S', "Let me just check. Yes, it's there, it came through on Monday."],
    ],
    items: [],
  },
  {
    probe: '"I\'ll note that on your file now"',
    category: 'done on the call',
    turns: [
      ['D', 'Please only deliver in the mornings, the afternoons are impossible for us.'],
      ['S', "Of course, I'll note that on your file now."],
    ],
    items: [],
  },
  {
    probe: 'request done during the call: "there, I\'ve just sent it"',
    category: 'done on the call',
    turns: [
      ['D', 'Can you resend the invoice?'],
      ['S', "Yes. There, I've just sent it. Can you see it?"],
      ['D', 'Yes, got it.'],
    ],
    items: [],
  },
  {
    probe: 'date changed during the call while the user waits',
    category: 'done on the call',
    turns: [
      ['D', "Can we push the delivery back? We won't be in on Thursday."],
      ['S', "Bear with me while I change it. Okay, that's now moved to Friday."],
    ],
    items: [],
  },
  {
    probe: 'user pays during the call: "I\'m just transferring it now … done"',
    category: 'done on the call',
    turns: [
      ['D', "I'm just transferring the money now. Done, it should show in a minute."],
      ['S', 'Yes, I can see it.'],
    ],
    items: [],
  },
  {
    probe: 'refund issued during the call, with how long it takes to show',
    category: 'done on the call',
    turns: [
      ['S', "I've refunded the forty pounds back to your card. It'll take three to five working days to show."],
      ['D', 'Thank you.'],
    ],
    items: [],
  },
  {
    probe: 'one thing done, one still promised',
    category: 'done on the call',
    turns: [
      ['D', 'So can we replace the old order with the new one?'],
      ['S', "Yes. I've cancelled the old order, and I'll send you a new confirmation this afternoon."],
    ],
    items: [{ mentions: /confirm/i, owner: 'Sheila', due: '2026-03-04' }],
  },
  {
    probe: 'request granted on the spot: "Done. She\'s on there now."',
    category: 'done on the call',
    turns: [
      ['D', 'Could you add my colleague Jane to the account?'],
      ['S', "Done. She's on there now."],
    ],
    items: [],
  },

  // ───────────────────────────── not an action ─────────────────────────────
  {
    probe: 'question that only asks for information',
    category: 'not an action',
    turns: [
      ['D', 'What time do you close on Saturdays?'],
      ['S', 'We close at four.'],
    ],
    items: [],
  },
  {
    probe: 'past event: "we sent the parcel out last Thursday"',
    category: 'not an action',
    turns: [
      ['D', "Has the parcel gone out?"],
      ['S', 'Yes, we sent it out last Thursday.'],
    ],
    items: [],
  },
  {
    probe: 'general fact: "the price goes up in April"',
    category: 'not an action',
    turns: [
      ['S', 'Just so you know, the price goes up in April.'],
      ['D', 'Okay, good to know.'],
    ],
    items: [],
  },
  {
    probe: 'what the user will merely receive: "you\'ll get a text"',
    category: 'not an action',
    turns: [
      ['S', "You'll get a text when the driver's on the way."],
      ['D', 'Great.'],
    ],
    items: [],
  },
  {
    probe: 'courtesy: "speak soon", "take care"',
    category: 'not an action',
    turns: [
      ['D', 'Thanks for all your help. Speak soon.'],
      ['S', 'Take care, bye.'],
    ],
    items: [],
  },
  {
    probe: 'advice: "if it gets worse, you should call 111"',
    category: 'not an action',
    turns: [
      ['D', 'I actually cut my hand on the packaging.'],
      ['S', "Oh no. If it gets worse, you should really call 111."],
      ['D', 'Okay, thanks.'],
    ],
    items: [],
  },
  {
    probe: 'declined offer',
    category: 'not an action',
    turns: [
      ['S', 'Would you like to sign up for our newsletter?'],
      ['D', 'No thank you.'],
    ],
    items: [],
  },
  {
    probe: 'small talk about the weekend',
    category: 'not an action',
    turns: [
      ['S', 'Did you have a nice weekend?'],
      ['D', 'Lovely, thanks. We went down to the coast.'],
    ],
    items: [],
  },
  {
    probe: 'schedule stated as a fact: "our office is closed on Friday"',
    category: 'not an action',
    turns: [
      ['S', 'Our office is closed on Friday for staff training.'],
      ['D', 'Okay, thanks for letting me know.'],
    ],
    items: [],
  },
  {
    probe: 'wishful "we should get together for a coffee sometime"',
    category: 'not an action',
    turns: [
      ['D', 'We should get together for a coffee sometime.'],
      ['S', 'Yes, we really should.'],
    ],
    items: [],
  },

  // ───────────────────────────── dates in context ─────────────────────────────
  {
    probe: '"that morning" referring back to Tuesday',
    category: 'dates in context',
    turns: [
      ['S', 'The delivery is booked for Tuesday.'],
      ['D', 'Great. Could you ring me that morning before the driver sets off?'],
      ['S', "Yes, I'll do that."],
    ],
    items: [{ mentions: /(ring|call|driver)/i, intent: 'call', owner: 'Sheila', due: '2026-03-10' }],
  },
  {
    probe: '"the day before" a day said earlier',
    category: 'dates in context',
    turns: [
      ['D', 'The auditors are in on Friday.'],
      ['S', "Then I'll get the stock figures to you the day before."],
      ['D', 'Perfect.'],
    ],
    items: [{ mentions: /stock/i, owner: 'Sheila', due: '2026-03-05' }],
  },
  {
    probe: '"I\'ll call you then" referring back to Monday',
    category: 'dates in context',
    turns: [
      ['D', "I'm away until the weekend. I'm back in the office on Monday."],
      ['S', "Okay, I'll call you then."],
    ],
    items: [{ mentions: /(call|ring)/i, intent: 'call', owner: 'Sheila', due: '2026-03-09' }],
  },
  {
    probe: '"same time?" "same time" tomorrow',
    category: 'dates in context',
    turns: [
      ['S', "I'm being called into a meeting. Let's pick this up again tomorrow."],
      ['D', 'Same time?'],
      ['S', "Same time. I'll ring you."],
    ],
    items: [{ mentions: /(call|ring|pick)/i, intent: 'call', owner: 'Sheila', due: '2026-03-05' }],
  },
  {
    probe: '"by Friday" answered "you\'ll have them by then"',
    category: 'dates in context',
    turns: [
      ['S', "I'll need your measurements by Friday."],
      ['D', "You'll have them by then."],
    ],
    items: [{ mentions: /measur/i, owner: 'Diane', due: '2026-03-06' }],
  },
  {
    probe: '"first thing tomorrow"',
    category: 'dates in context',
    turns: [
      ['D', 'Can I have the revised quote?'],
      ['S', "I'll get the revised quote to you first thing tomorrow."],
    ],
    items: [{ mentions: /quote/i, owner: 'Sheila', due: '2026-03-05' }],
  },
  {
    probe: '"a week on Monday"',
    category: 'dates in context',
    turns: [
      ['S', 'When will we get the keys back from you?'],
      ['D', "I'll have the keys back to you a week on Monday."],
    ],
    items: [{ mentions: /key/i, owner: 'Diane', due: '2026-03-16' }],
  },
  {
    probe: '"in a fortnight" review, the user puts it in the diary',
    category: 'dates in context',
    turns: [
      ['S', "Let's review how the new system is going in a fortnight."],
      ['D', "Sounds good. I'll put something in the diary."],
    ],
    items: [{ mentions: /review/i, intent: 'meeting', due: '2026-03-18' }],
  },
  {
    probe: '"as soon as it\'s in" referring back to "the 12th"',
    category: 'dates in context',
    turns: [
      ['S', 'The new stock arrives on the 12th.'],
      ['D', "Could you email me as soon as it's in?"],
      ['S', 'Will do.'],
    ],
    items: [{ mentions: /stock/i, intent: 'email', owner: 'Sheila', due: '2026-03-12' }],
  },
  {
    probe: '"a week on Friday at the latest"',
    category: 'dates in context',
    turns: [
      ['S', 'Can you get the signed lease back to us a week on Friday at the latest?'],
      ['D', "Yes, that's fine."],
    ],
    items: [{ mentions: /lease/i, owner: 'Diane', due: '2026-03-13' }],
  },

  // ───────────────────────────── money ─────────────────────────────
  {
    probe: 'user will transfer a deposit tomorrow',
    category: 'money',
    turns: [
      ['D', "I'll transfer the two hundred and fifty pound deposit tomorrow."],
      ['S', 'Lovely, thank you.'],
    ],
    items: [{ mentions: /deposit/i, owner: 'Diane', due: '2026-03-05' }],
  },
  {
    probe: 'contact will refund an amount by Friday',
    category: 'money',
    turns: [
      ['D', 'I was charged for the delivery even though I collected it.'],
      ['S', "You're right. I'll refund the £40 to your card by Friday."],
    ],
    items: [{ mentions: /refund/i, owner: 'Sheila', due: '2026-03-06' }],
  },
  {
    probe: 'asked to pay by the end of the month, user names an earlier day',
    category: 'money',
    turns: [
      ['S', 'Could you pay the outstanding £1,200 by the end of the month?'],
      ['D', "Yes, I'll pay it on the 27th when I get paid."],
    ],
    items: [{ mentions: /(pay|1,?200|outstanding)/i, owner: 'Diane', due: '2026-03-27' }],
  },
  {
    probe: 'invoice requested and promised today',
    category: 'money',
    turns: [
      ['D', 'Can you send me an invoice for the March work?'],
      ['S', "Of course, I'll get it to you today."],
    ],
    items: [{ mentions: /invoice/i, owner: 'Sheila', due: '2026-03-04' }],
  },
  {
    probe: 'double charge: contact will raise a refund request with finance',
    category: 'money',
    turns: [
      ['D', "I've been charged twice for the same order."],
      ['S', "I can see that. I'll raise a refund request with our finance team today."],
    ],
    items: [{ mentions: /refund/i, owner: 'Sheila', due: '2026-03-04' }],
  },
  {
    probe: 'payment already made, confirmed received',
    category: 'money',
    turns: [
      ['D', "I've just paid the invoice online."],
      ['S', "Yes, I can see it's come through. Thanks."],
    ],
    items: [],
  },
  {
    probe: 'cheque by post tonight',
    category: 'money',
    turns: [
      ['D', "I'll put a cheque in the post for the £85 tonight."],
      ['S', 'Thanks, Diane.'],
    ],
    items: [{ mentions: /cheque/i, intent: 'task', owner: 'Diane', due: '2026-03-04' }],
  },
  {
    probe: 'direct debit date stated as information',
    category: 'money',
    turns: [
      ['D', 'When does the payment come out?'],
      ['S', 'The direct debit comes out on the first of each month.'],
    ],
    items: [],
  },
  {
    probe: 'asked to pay before Monday, user will transfer on Friday',
    category: 'money',
    turns: [
      ['S', 'Can you pay the £500 balance before we dispatch on Monday?'],
      ['D', "Yes, I'll transfer it on Friday."],
    ],
    items: [{ mentions: /(balance|transfer|pay)/i, owner: 'Diane', due: '2026-03-06' }],
  },
  {
    probe: 'goodwill credit promised with no day',
    category: 'money',
    turns: [
      ['D', 'This is the third late delivery this month.'],
      ['S', "I'm really sorry. I'll credit your account with £30 as a goodwill gesture."],
    ],
    items: [{ mentions: /credit/i, owner: 'Sheila', due: null }],
  },

  // ───────────────────────────── channels ─────────────────────────────
  {
    probe: '"drop you a line next week" (channel unsaid, day unsaid)',
    category: 'channels',
    turns: [
      ['D', 'Do you know the training dates yet?'],
      ['S', "Not yet. I'll drop you a line next week with the dates."],
    ],
    items: [{ mentions: /(date|training)/i, owner: 'Sheila', due: null }],
  },
  {
    probe: '"give you a bell tomorrow"',
    category: 'channels',
    turns: [
      ['S', "I'll give you a bell tomorrow when I've spoken to the supplier."],
      ['D', 'Cheers.'],
    ],
    items: [{ mentions: /(supplier|call|ring|bell)/i, intent: 'call', owner: 'Sheila', due: '2026-03-05' }],
  },
  {
    probe: '"shoot you an email … later"',
    category: 'channels',
    turns: [
      ['S', 'What size do you need the brackets to be?'],
      ['D', "I'll shoot you an email with the spec later."],
    ],
    items: [{ mentions: /spec/i, intent: 'email', owner: 'Diane', due: '2026-03-04' }],
  },
  {
    probe: '"ping you a WhatsApp when the van leaves"',
    category: 'channels',
    turns: [
      ['D', 'Roughly when will you get here?'],
      ['S', "Hard to say. I'll ping you a WhatsApp when the van leaves."],
    ],
    items: [{ mentions: /van/i, intent: 'message', owner: 'Sheila', due: null }],
  },
  {
    probe: 'email instead of post',
    category: 'channels',
    turns: [
      ['D', 'Can you email the certificate rather than posting it?'],
      ['S', "Yes, I'll email it today."],
    ],
    items: [{ mentions: /certificate/i, intent: 'email', owner: 'Sheila', due: '2026-03-04' }],
  },
  {
    probe: '"by post" is a task',
    category: 'channels',
    turns: [
      ['D', 'My card has stopped working.'],
      ['S', "I'll send you a replacement card by post."],
    ],
    items: [{ mentions: /card/i, intent: 'task', owner: 'Sheila', due: null }],
  },
  {
    probe: '"text me the code" answered "will do"',
    category: 'channels',
    turns: [
      ['D', "Text me the access code when you've got it."],
      ['S', 'Will do.'],
    ],
    items: [{ mentions: /code/i, intent: 'message', owner: 'Sheila', due: null }],
  },
  {
    probe: '"call me back on my mobile after three"',
    category: 'channels',
    turns: [
      ['D', "I'm in meetings all morning. Could you call me back on my mobile after three?"],
      ['S', "Yes, I'll call you back after three."],
    ],
    items: [{ mentions: /(call|ring)/i, intent: 'call', owner: 'Sheila', due: '2026-03-04' }],
  },
  {
    probe: '"send you an SMS with the booking reference"',
    category: 'channels',
    turns: [
      ['S', "I'll send you an SMS with the booking reference."],
      ['D', 'Thanks.'],
    ],
    items: [{ mentions: /reference/i, intent: 'message', owner: 'Sheila', due: null }],
  },
  {
    probe: 'letter by recorded delivery is a task',
    category: 'channels',
    turns: [
      ['D', "I want to make a formal complaint about the damage. I'll put it in writing and send it recorded delivery."],
      ['S', 'I understand.'],
    ],
    items: [{ mentions: /(complain|writing|letter)/i, intent: 'task', owner: 'Diane', due: null }],
  },

  // ───────────────────────────── two actions ─────────────────────────────
  {
    probe: 'both parties commit in turn',
    category: 'two actions',
    turns: [
      ['S', "I'll send you the quote today."],
      ['D', "And I'll get the purchase order raised tomorrow."],
    ],
    items: [
      { mentions: /quote/i, owner: 'Sheila', due: '2026-03-04' },
      { mentions: /purchase order/i, owner: 'Diane', due: '2026-03-05' },
    ],
  },
  {
    probe: 'one sentence, two actions joined by "and"',
    category: 'two actions',
    turns: [
      ['D', 'We need the order changed to the larger size.'],
      ['S', "Okay. I'll cancel the old order and email you a new invoice."],
    ],
    items: [
      { mentions: /cancel/i, owner: 'Sheila', due: null },
      { mentions: /invoice/i, intent: 'email', owner: 'Sheila', due: null },
    ],
  },
  {
    probe: 'user: "I\'ll email … tonight and ring … tomorrow"',
    category: 'two actions',
    turns: [
      ['D', "I'll email the floor plan tonight and ring the builder tomorrow."],
      ['S', 'Great, thanks.'],
    ],
    items: [
      { mentions: /floor ?plan/i, intent: 'email', owner: 'Diane', due: '2026-03-04' },
      { mentions: /builder/i, intent: 'call', owner: 'Diane', due: '2026-03-05' },
    ],
  },
  {
    probe: 'request accepted with a return request accepted in turn',
    category: 'two actions',
    turns: [
      ['D', 'Could you send me a new card reader? This one keeps dropping out.'],
      ['S', "Sure, I'll post one today. Could you send the old one back in the envelope?"],
      ['D', 'Yes, will do.'],
    ],
    items: [
      { mentions: /(reader|post)/i, owner: 'Sheila', due: '2026-03-04' },
      { mentions: /(old|return|back)/i, owner: 'Diane', due: null },
    ],
  },
  {
    probe: '"I\'ll book the engineer, and you let the tenants know"',
    category: 'two actions',
    turns: [
      ['S', "I'll book the engineer, and you let the tenants know."],
      ['D', "Okay, I'll tell them tonight."],
    ],
    items: [
      { mentions: /engineer/i, owner: 'Sheila', due: null },
      { mentions: /tenant/i, owner: 'Diane', due: '2026-03-04' },
    ],
  },
  {
    probe: 'offer accepted and user adds her own commitment',
    category: 'two actions',
    turns: [
      ['S', 'Shall I hold the sofa for you until Saturday?'],
      ['D', "Yes please, and I'll come in and pay for it then."],
    ],
    items: [
      { mentions: /hold/i, owner: 'Sheila' },
      { mentions: /pay/i, owner: 'Diane', due: '2026-03-07' },
    ],
  },
  {
    probe: 'one person, two deliverables on two days',
    category: 'two actions',
    turns: [
      ['D', 'When will I see the report?'],
      ['S', "I'll send the draft on Friday and the final version on the 12th."],
    ],
    items: [
      { mentions: /draft/i, owner: 'Sheila', due: '2026-03-06' },
      { mentions: /final/i, owner: 'Sheila', due: '2026-03-12' },
    ],
  },
  {
    probe: 'joint "let\'s both … and speak again on Monday"',
    category: 'two actions',
    turns: [
      ['D', "Let's both have a look at the proposal and speak again on Monday."],
      ['S', 'Good idea.'],
    ],
    items: [
      { mentions: /proposal/i, owner: null },
      { mentions: /(speak|call|catch|follow)/i, owner: null, due: '2026-03-09' },
    ],
  },
  {
    probe: 'user commits and asks; contact accepts',
    category: 'two actions',
    turns: [
      ['D', "I'll ring the bank. Can you check whether the payment's been received?"],
      ['S', "Yes, I'll check and let you know."],
    ],
    items: [
      { mentions: /bank/i, intent: 'call', owner: 'Diane', due: null },
      { mentions: /payment/i, owner: 'Sheila', due: null },
    ],
  },
  {
    probe: 'contact\'s own action and a colleague\'s in one sentence',
    category: 'two actions',
    turns: [
      ['S', "I'll pop the samples in the post today, and my colleague Ben will call you on Friday to see what you think."],
      ['D', 'Lovely.'],
    ],
    items: [
      { mentions: /sample/i, owner: 'Sheila', due: '2026-03-04' },
      { mentions: /(ben|call|ring)/i, intent: 'call', owner: null, due: '2026-03-06' },
    ],
  },

  // ───────────────────────────── english varieties ─────────────────────────────
  {
    probe: 'American "by end of business Thursday"',
    category: 'english varieties',
    turns: [
      ['D', 'When can I get the revised contract?'],
      ['S', "I'll have it to you by end of business Thursday."],
    ],
    items: [{ mentions: /contract/i, owner: 'Sheila', due: '2026-03-05' }],
  },
  {
    probe: 'American "let me circle back with … on that"',
    category: 'english varieties',
    turns: [
      ['D', 'Does the price include shipping?'],
      ['S', 'Good question. Let me circle back with our logistics team on that.'],
      ['D', 'Sounds good.'],
    ],
    items: [{ mentions: /shipping/i, owner: 'Sheila', due: null }],
  },
  {
    probe: 'Australian "this arvo" answered "no worries, I\'ll sort it"',
    category: 'english varieties',
    turns: [
      ['D', 'Can you send through the invoice this arvo?'],
      ['S', "No worries, I'll sort it."],
    ],
    items: [{ mentions: /invoice/i, owner: 'Sheila', due: '2026-03-04' }],
  },
  {
    probe: 'Australian "swing by Thursday arvo"',
    category: 'english varieties',
    turns: [
      ['S', "I'll swing by Thursday arvo and drop off the paperwork."],
      ['D', 'Too easy, see you then.'],
    ],
    items: [{ mentions: /paperwork/i, owner: 'Sheila', due: '2026-03-05' }],
  },
  {
    probe: 'Irish "I\'ll give you a shout when they come in"',
    category: 'english varieties',
    turns: [
      ['D', 'Any sign of the tiles?'],
      ['S', "Not yet, but I'll give you a shout when they come in."],
    ],
    items: [{ mentions: /tile/i, owner: 'Sheila', due: null }],
  },
  {
    probe: 'Irish "grand so, I\'ll ring you back in a while"',
    category: 'english varieties',
    turns: [
      ['S', 'Have you a minute to go through the order?'],
      ['D', "Grand so, but I'm only after getting in the door. I'll ring you back in a while."],
    ],
    items: [{ mentions: /(ring|call|order)/i, intent: 'call', owner: 'Diane', due: '2026-03-04' }],
  },
  {
    probe: 'Indian "I will revert by EOD"',
    category: 'english varieties',
    turns: [
      ['D', 'Have the new rates been approved?'],
      ['S', 'I will revert by EOD with the updated rates.'],
    ],
    items: [{ mentions: /rate/i, owner: 'Sheila', due: '2026-03-04' }],
  },
  {
    probe: 'Indian "kindly do the needful" answered "I will share it by tomorrow"',
    category: 'english varieties',
    turns: [
      ['D', 'Kindly do the needful and send the corrected invoice.'],
      ['S', 'Sure, I will share it by tomorrow.'],
    ],
    items: [{ mentions: /invoice/i, owner: 'Sheila', due: '2026-03-05' }],
  },
  {
    probe: 'Indian "share … at your earliest" answered "today itself"',
    category: 'english varieties',
    turns: [
      ['S', 'Kindly share the PO copy at your earliest.'],
      ['D', 'Sure, I will share it today itself.'],
    ],
    items: [{ mentions: /(\bPO\b|purchase order)/i, owner: 'Diane', due: '2026-03-04' }],
  },
  {
    probe: 'American "I\'ll shoot you a calendar invite for Tuesday at 2 p.m."',
    category: 'english varieties',
    turns: [
      ['D', "Let's get together and walk through the rollout."],
      ['S', "Sure thing. I'll shoot you a calendar invite for Tuesday at 2 p.m."],
      ['D', 'Awesome.'],
    ],
    items: [{ mentions: /(rollout|invite|meet)/i, intent: 'meeting', due: '2026-03-10' }],
  },

  // ───────────────────────────── hedged ─────────────────────────────
  {
    probe: '"I\'ll try to get it dispatched today" (firm enough)',
    category: 'hedged',
    turns: [
      ['D', 'Is there any way it can go out today?'],
      ['S', "I'll try to get it dispatched today."],
    ],
    items: [{ mentions: /dispatch/i, owner: 'Sheila', due: '2026-03-04' }],
  },
  {
    probe: '"I should be able to … by Friday" (firm enough)',
    category: 'hedged',
    turns: [
      ['S', 'I should be able to get the quote to you by Friday.'],
      ['D', 'Brilliant.'],
    ],
    items: [{ mentions: /quote/i, owner: 'Sheila', due: '2026-03-06' }],
  },
  {
    probe: '"hopefully I\'ll be able to ring you tomorrow" (firm enough)',
    category: 'hedged',
    turns: [
      ['D', 'Do you know yet whether they will accept the return?'],
      ['S', "Not yet. Hopefully I'll be able to ring you tomorrow with an answer."],
    ],
    items: [{ mentions: /(return|ring|call|answer)/i, intent: 'call', owner: 'Sheila', due: '2026-03-05' }],
  },
  {
    probe: '"I might pop round … if I\'m in the area" (not an action)',
    category: 'hedged',
    turns: [
      ['S', "I might pop round next week if I'm in the area."],
      ['D', 'Okay, no problem.'],
    ],
    items: [],
  },
  {
    probe: 'user\'s "I might order a few more next month" (not an action)',
    category: 'hedged',
    turns: [
      ['D', 'I might order a few more next month.'],
      ['S', 'Okay, just let us know.'],
    ],
    items: [],
  },
  {
    probe: '"I\'ll see if I can get you a discount" (commitment to try)',
    category: 'hedged',
    turns: [
      ['D', "That's a bit more than we budgeted for."],
      ['S', "I'll see if I can get you a discount."],
    ],
    items: [{ mentions: /discount/i, owner: 'Sheila', due: null }],
  },
  {
    probe: '"maybe I\'ll give them a ring at some point" (not an action)',
    category: 'hedged',
    turns: [
      ['S', 'The manufacturer might know more about it.'],
      ['D', "Maybe I'll give them a ring at some point."],
    ],
    items: [],
  },
  {
    probe: 'request answered "I\'ll do my best" (accepted)',
    category: 'hedged',
    turns: [
      ['D', 'Can you get the replacement part here before Saturday?'],
      ['S', "I'll do my best."],
    ],
    items: [{ mentions: /part/i, owner: 'Sheila' }],
  },
  {
    probe: '"I was thinking of popping in at some point" (not an action)',
    category: 'hedged',
    turns: [
      ['D', 'I was thinking of popping in at some point next week to see the new range.'],
      ['S', 'Sure, whenever suits.'],
    ],
    items: [],
  },
  {
    probe: '"I\'ll aim to call you on Friday" (firm enough)',
    category: 'hedged',
    turns: [
      ['D', 'When will you know about the delay?'],
      ['S', "I'll aim to call you on Friday with an update."],
    ],
    items: [{ mentions: /(update|delay|call)/i, intent: 'call', owner: 'Sheila', due: '2026-03-06' }],
  },
];
