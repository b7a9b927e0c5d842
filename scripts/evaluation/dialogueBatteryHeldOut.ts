/**
 * The held-out dialogue battery: short phone dialogues written by someone who read neither the
 * analyser nor the dialogues of the first battery (./dialogueBattery.ts), each probing one way an
 * action is (or is not) said on the phone, with the action items a careful human annotator would
 * write for it. It follows the same conventions as ./dialogueBattery.ts (a call on Wednesday
 * 4 March 2026, 10:00 in London; the harness prepends S: "Hello, Sheila speaking." and
 * D: "Hi Sheila, this is Diane."; the same date, owner, `due` and `mentions` rules).
 *
 * A judge: never read it while changing the analyser, so that it keeps measuring how the analyser
 * does on phrasings it was not tuned to; reported by its figures only, and run by no test.
 */
import type { BatteryDialogue } from './dialogueBattery.js';

export const dialogueBatteryHeldOut: BatteryDialogue[] = [
  // ───────────────────────────── promise ─────────────────────────────
  {
    probe: 'vet promises to ring with results "probably Friday"',
    category: 'promise',
    turns: [
      ['D', "Has Biscuit's blood test come back yet?"],
      ['S', "Not yet, the lab's running a bit behind. I'll ring you as soon as we've got the results, probably Friday."],
      ['D', 'Okay, thanks.'],
    ],
    items: [{ mentions: /result|blood/i, intent: 'call', owner: 'Sheila' }],
  },
  {
    probe: 'user promises to text a colour code tonight',
    category: 'promise',
    turns: [
      ['S', "I still need the colour for the kitchen tiles before I can order them."],
      ['D', "Right, sorry, I'll text you the colour code tonight."],
    ],
    items: [{ mentions: /colou?r|tile/i, owner: 'Diane', due: '2026-03-04' }],
  },
  {
    probe: 'solicitor: "I\'ll have the draft lease in your inbox by Monday"',
    category: 'promise',
    turns: [
      ['D', 'Any news on the lease?'],
      ['S', "We're nearly there. I'll have the draft lease in your inbox by Monday."],
    ],
    items: [{ mentions: /lease/i, owner: 'Sheila', due: '2026-03-09' }],
  },
  {
    probe: 'friend promises to pick up the cake on Saturday morning',
    category: 'promise',
    turns: [
      ['D', "I'm panicking a bit about the party, there's so much to do."],
      ['S', "Don't worry about the cake, I'll pick it up from the bakery on Saturday morning."],
      ['D', "Oh, you're a star."],
    ],
    items: [{ mentions: /cake/i, owner: 'Sheila', due: '2026-03-07' }],
  },
  {
    probe: 'user promises to post a P60 tomorrow',
    category: 'promise',
    turns: [
      ['S', "I can't finish the return without last year's P60."],
      ['D', "I'll dig it out and pop it in the post to you tomorrow."],
    ],
    items: [{ mentions: /P60/i, owner: 'Diane', due: '2026-03-05' }],
  },
  {
    probe: 'American "gonna go ahead and" put paperwork in the mail first thing Monday',
    category: 'promise',
    turns: [
      ['D', 'So what happens next with the paperwork?'],
      ['S', "I'm gonna go ahead and put it in the mail to you first thing Monday."],
    ],
    items: [{ mentions: /paperwork/i, owner: 'Sheila', due: '2026-03-09' }],
  },
  {
    probe: '"leave it with me" without a day',
    category: 'promise',
    turns: [
      ['D', "The invoices are still going to our old address."],
      ['S', "Oh, sorry about that. Leave it with me, I'll get the address changed."],
    ],
    items: [{ mentions: /address/i, owner: 'Sheila', due: null }],
  },
  {
    probe: 'parent promises the form will come in "the day after tomorrow"',
    category: 'promise',
    turns: [
      ['S', "We're still waiting on Josh's consent form for the trip."],
      ['D', "Sorry, I'll make sure he brings it in the day after tomorrow."],
    ],
    items: [{ mentions: /form|consent/i, owner: 'Diane', due: '2026-03-06' }],
  },
  {
    probe: 'council promises a visit "within the next fortnight" (no firm day)',
    category: 'promise',
    turns: [
      ['D', "The streetlight outside number twelve has been out for weeks."],
      ['S', "I've logged it. I'll get someone out to look at the light within the next fortnight."],
    ],
    items: [{ mentions: /light/i, owner: 'Sheila' }],
  },
  {
    probe: 'landlord promises to text a number "in a minute"',
    category: 'promise',
    turns: [
      ['D', "The kitchen tap's dripping again."],
      ['S', "Ah, I'll text you the plumber's number in a minute and you can ring him direct."],
      ['D', 'Okay, thanks.'],
    ],
    items: [{ mentions: /plumber/i, owner: 'Sheila', intent: 'message', due: '2026-03-04' }],
  },

  // ───────────────────────────── request accepted ─────────────────────────────
  {
    probe: 'request accepted with "will do"',
    category: 'request accepted',
    turns: [
      ['D', 'Could you send me the updated quote by Friday?'],
      ['S', 'Will do.'],
    ],
    items: [{ mentions: /quote/i, owner: 'Sheila', due: '2026-03-06' }],
  },
  {
    probe: 'contact asks the user to email a passport copy before Tuesday',
    category: 'request accepted',
    turns: [
      ['S', 'Can you email me a copy of your passport before Tuesday?'],
      ['D', 'Yes, no problem.'],
    ],
    items: [{ mentions: /passport/i, owner: 'Diane', intent: 'email', due: '2026-03-10' }],
  },
  {
    probe: 'surgery receptionist agrees to pass a message to the doctor',
    category: 'request accepted',
    turns: [
      ['D', "Could you let Dr Patel know I've run out of my inhaler?"],
      ['S', "Of course, I'll pass that on to her."],
    ],
    items: [{ mentions: /inhaler/i, owner: 'Sheila', due: null }],
  },
  {
    probe: 'bank asks the user to come into the branch; user names Saturday',
    category: 'request accepted',
    turns: [
      ['S', "I'm afraid I'll need you to pop into a branch with some photo ID."],
      ['D', 'Okay, I can do that on Saturday.'],
    ],
    items: [{ mentions: /branch|bank|\bID\b/i, owner: 'Diane', due: '2026-03-07' }],
  },
  {
    probe: '"would you mind" accepted with "not at all, leave it with me"',
    category: 'request accepted',
    turns: [
      ['D', "Would you mind chasing the courier for me? The parcel still hasn't turned up."],
      ['S', 'Not at all, leave it with me.'],
    ],
    items: [{ mentions: /courier|parcel/i, owner: 'Sheila' }],
  },
  {
    probe: 'American "shoot me … when you get a sec" accepted with "sure thing"',
    category: 'request accepted',
    turns: [
      ['S', 'Can you shoot me the tracking number when you get a sec?'],
      ['D', 'Sure thing.'],
    ],
    items: [{ mentions: /tracking/i, owner: 'Diane', due: null }],
  },
  {
    probe: '"yeah, go on then" accepting a request for tonight',
    category: 'request accepted',
    turns: [
      ['D', 'Can you bring the spare keys round tonight?'],
      ['S', 'Yeah, go on then. About seven?'],
      ['D', 'Perfect.'],
    ],
    items: [{ mentions: /key/i, owner: 'Sheila', due: '2026-03-04' }],
  },
  {
    probe: 'request phrased "it\'d be really helpful if you could" by the 12th',
    category: 'request accepted',
    turns: [
      ['S', "It'd be really helpful if you could sign the form and send it back by the 12th."],
      ['D', "Yep, I'll do that."],
    ],
    items: [{ mentions: /form/i, owner: 'Diane', due: '2026-03-12' }],
  },
  {
    probe: 'request accepted with a later day than asked',
    category: 'request accepted',
    turns: [
      ['D', 'Can you get the invoice to me today?'],
      ['S', "Today's tricky, but I can do tomorrow morning."],
      ['D', "That's fine."],
    ],
    items: [{ mentions: /invoice/i, owner: 'Sheila', due: '2026-03-05' }],
  },
  {
    probe: 'teacher agrees to send the reading list home on Friday',
    category: 'request accepted',
    turns: [
      ['D', 'Could you send home the reading list for next term?'],
      ['S', "Yes, I'll put it in his book bag on Friday."],
    ],
    items: [{ mentions: /reading/i, owner: 'Sheila', due: '2026-03-06' }],
  },

  // ───────────────────────────── request refused or deferred ─────────────────────────────
  {
    probe: 'discount refused',
    category: 'request refused or deferred',
    turns: [
      ['D', 'Could you knock ten percent off?'],
      ['S', "I'm afraid I can't, that's already our best price."],
    ],
    items: [],
  },
  {
    probe: 'user refuses to come in on Saturday; contact drops it',
    category: 'request refused or deferred',
    turns: [
      ['S', 'Can you come in on Saturday to sign?'],
      ['D', "Sorry, Saturday's no good for me, I'm away."],
      ['S', 'Ah, okay, never mind.'],
    ],
    items: [],
  },
  {
    probe: 'deferred with "let me come back to you on that"',
    category: 'request refused or deferred',
    turns: [
      ['D', 'Can you send the contract over today?'],
      ['S', 'Not today, I need to check with my manager first. Let me come back to you on that.'],
    ],
    items: [{ mentions: /contract/i, owner: 'Sheila' }],
  },
  {
    probe: 'Sunday delivery refused with "I wish I could"',
    category: 'request refused or deferred',
    turns: [
      ['D', 'Any chance you could deliver on Sunday?'],
      ['S', "I wish I could, but the drivers don't work weekends."],
    ],
    items: [],
  },
  {
    probe: 'user declines to write a review',
    category: 'request refused or deferred',
    turns: [
      ['S', 'Could you write us a review on Google?'],
      ['D', "Ooh, I'm not really one for reviews, sorry."],
    ],
    items: [],
  },
  {
    probe: 'deferred with "let me think about it and I\'ll let you know next week"',
    category: 'request refused or deferred',
    turns: [
      ['S', 'Would you be able to take on the Harris account as well?'],
      ['D', "Let me think about it and I'll let you know next week."],
    ],
    items: [{ mentions: /Harris/i, owner: 'Diane' }],
  },
  {
    probe: '"no can do" refusal',
    category: 'request refused or deferred',
    turns: [
      ['D', 'Can you hold the room for me until Friday?'],
      ['S', "No can do, I'm afraid, we've got someone else interested."],
    ],
    items: [],
  },
  {
    probe: 'refund refused and redirected (advice, not an action)',
    category: 'request refused or deferred',
    turns: [
      ['D', 'Could you refund the delivery charge?'],
      ['S', "That's not something I can do, you'd need to speak to accounts."],
      ['D', 'Okay, fair enough.'],
    ],
    items: [],
  },
  {
    probe: 'American refusal for tonight, counter-offer of Monday accepted',
    category: 'request refused or deferred',
    turns: [
      ['S', 'Could you push the payment through by tonight?'],
      ['D', "Honestly, that's not gonna happen tonight. Earliest I can do is Monday."],
      ['S', 'Okay, Monday then.'],
    ],
    items: [{ mentions: /pay/i, owner: 'Diane', due: '2026-03-09' }],
  },
  {
    probe: 'request to have the boss ring refused, user drops it',
    category: 'request refused or deferred',
    turns: [
      ['D', 'Could you ask your boss to give me a ring?'],
      ['S', "He's not taking calls this week, sorry."],
      ['D', 'Oh, never mind then.'],
    ],
    items: [],
  },

  // ───────────────────────────── offer ─────────────────────────────
  {
    probe: '"do you want me to" accepted with "yes please"',
    category: 'offer',
    turns: [
      ['S', 'Do you want me to send you the brochure?'],
      ['D', 'Yes please.'],
    ],
    items: [{ mentions: /brochure/i, owner: 'Sheila' }],
  },
  {
    probe: '"shall I" declined with "you\'re alright"',
    category: 'offer',
    turns: [
      ['S', 'Shall I book you a taxi for afterwards?'],
      ['D', "No, you're alright, my husband's collecting me."],
    ],
    items: [],
  },
  {
    probe: 'user offers to drop samples round; contact welcomes it',
    category: 'offer',
    turns: [
      ['D', 'I can drop the samples round on my way home, if that helps?'],
      ['S', 'Oh, that would be brilliant.'],
    ],
    items: [{ mentions: /sample/i, owner: 'Diane' }],
  },
  {
    probe: 'engineer visit offered for tomorrow, declined',
    category: 'offer',
    turns: [
      ['S', 'I could get the engineer out to you tomorrow if you like?'],
      ['D', "Thanks, but we've found someone locally."],
    ],
    items: [],
  },
  {
    probe: 'American "want me to loop in" accepted',
    category: 'offer',
    turns: [
      ['S', 'Want me to loop in Jake from billing?'],
      ['D', "Yeah, that'd be great."],
    ],
    items: [{ mentions: /Jake/i, owner: 'Sheila' }],
  },
  {
    probe: '"I\'m happy to" accepted with "go on then"',
    category: 'offer',
    turns: [
      ['S', "I'm happy to put together a quick comparison of the two tariffs."],
      ['D', "Go on then, that'd be really useful."],
    ],
    items: [{ mentions: /tariff/i, owner: 'Sheila' }],
  },
  {
    probe: 'offer to ring the supplier accepted with "if you don\'t mind"',
    category: 'offer',
    turns: [
      ['S', "I could ring the supplier directly, if you'd like."],
      ['D', "If you don't mind, that'd save me a job."],
    ],
    items: [{ mentions: /supplier/i, intent: 'call', owner: 'Sheila' }],
  },
  {
    probe: 'user\'s offer of photos declined by contact',
    category: 'offer',
    turns: [
      ['D', 'Shall I send you the photos of the damp?'],
      ['S', "No need, the surveyor's got them already."],
    ],
    items: [],
  },
  {
    probe: 'offer to measure up "Thursday week" accepted',
    category: 'offer',
    turns: [
      ['S', 'I can pop round Thursday week to measure up, does that work?'],
      ['D', "Thursday week's great."],
    ],
    items: [{ mentions: /measur/i, due: '2026-03-12' }],
  },
  {
    probe: 'offer to reserve accepted with an instruction',
    category: 'offer',
    turns: [
      ['S', "We've only got two of those sofas left. Would you like me to reserve one for you?"],
      ['D', 'Go on, yes, put the blue one aside for me.'],
    ],
    items: [{ mentions: /sofa/i, owner: 'Sheila' }],
  },

  // ───────────────────────────── appointment agreed ─────────────────────────────
  {
    probe: 'clinic slot taken with "I\'ll take it"',
    category: 'appointment agreed',
    turns: [
      ['S', "We've got a slot on Tuesday at twenty past nine."],
      ['D', "I'll take it."],
      ['S', "Lovely, that's booked for you."],
    ],
    items: [{ mentions: /appointment/i, due: '2026-03-10' }],
  },
  {
    probe: 'meeting day negotiated across turns',
    category: 'appointment agreed',
    turns: [
      ['D', "Can we meet to go over the plans? Monday's no good for me."],
      ['S', 'How about Tuesday at two, at your office?'],
      ['D', 'Tuesday at two is perfect.'],
    ],
    items: [{ mentions: /plan/i, intent: 'meeting', due: '2026-03-10' }],
  },
  {
    probe: '"half two tomorrow" to sign',
    category: 'appointment agreed',
    turns: [
      ['S', 'Could you come in at half two tomorrow to sign?'],
      ['D', "Half two's fine."],
    ],
    items: [{ mentions: /sign/i, due: '2026-03-05' }],
  },
  {
    probe: 'vet booster "in a fortnight", confirmed as "the 18th"',
    category: 'appointment agreed',
    turns: [
      ['S', "We'd like to see Max again in a fortnight for his booster."],
      ['D', 'Okay, pencil us in for a morning.'],
      ['S', "Done, that's nine fifteen on the 18th."],
    ],
    items: [{ mentions: /Max|booster/i, due: '2026-03-18' }],
  },
  {
    probe: 'phone call fixed for Friday morning, user to ring',
    category: 'appointment agreed',
    turns: [
      ['S', "Let's have a quick call Friday morning to finalise it."],
      ['D', "Friday morning, yes. I'll ring you at ten."],
    ],
    items: [{ mentions: /call|ring|phone/i, intent: 'call', owner: 'Diane', due: '2026-03-06' }],
  },
  {
    probe: 'proposed time not agreed: user to check diary and get back',
    category: 'appointment agreed',
    turns: [
      ['S', 'Could you do Monday at eleven for the valuation?'],
      ['D', "I'll have to check my diary and get back to you."],
    ],
    items: [{ mentions: /valuation/i, owner: 'Diane' }],
  },
  {
    probe: 'inspection window "the day after tomorrow" accepted',
    category: 'appointment agreed',
    turns: [
      ['S', 'The inspector can come out the day after tomorrow, any time between eight and one.'],
      ['D', "That's fine, I'll make sure someone's in."],
    ],
    items: [{ mentions: /inspect/i, due: '2026-03-06' }],
  },
  {
    probe: 'American walkthrough at 3 p.m. on the 20th',
    category: 'appointment agreed',
    turns: [
      ['S', 'Does 3 p.m. on the 20th work for the walkthrough?'],
      ['D', 'The 20th at three works for me.'],
    ],
    items: [{ mentions: /walk.?through/i, due: '2026-03-20' }],
  },
  {
    probe: 'Thursday meeting moved to Monday',
    category: 'appointment agreed',
    turns: [
      ['D', 'I need to move our Thursday meeting, something has come up.'],
      ['S', 'No worries, shall we say Monday at the same time?'],
      ['D', "Monday's great."],
    ],
    items: [{ mentions: /meet/i, intent: 'meeting', due: '2026-03-09' }],
  },
  {
    probe: 'coffee with a friend fixed for Saturday',
    category: 'appointment agreed',
    turns: [
      ['S', 'We must get a coffee soon.'],
      ['D', 'Definitely. How about Saturday?'],
      ['S', "Saturday's perfect. The usual place at eleven?"],
      ['D', 'See you there.'],
    ],
    items: [{ mentions: /coffee/i, due: '2026-03-07' }],
  },

  // ───────────────────────────── third party ─────────────────────────────
  {
    probe: 'colleague will email the spec sheet tomorrow',
    category: 'third party',
    turns: [
      ['D', 'Have you got the spec sheet for the new model?'],
      ['S', 'My colleague Raj has it, he will email it to you tomorrow.'],
    ],
    items: [{ mentions: /spec/i, owner: null, due: '2026-03-05' }],
  },
  {
    probe: 'user\'s husband will drop the keys off on Friday',
    category: 'third party',
    turns: [
      ['S', 'When can we get the keys back?'],
      ['D', 'My husband will drop them off on Friday.'],
    ],
    items: [{ mentions: /key/i, owner: null, due: '2026-03-06' }],
  },
  {
    probe: 'payroll team will send the P45 by the end of the month',
    category: 'third party',
    turns: [
      ['D', "I still haven't had my P45."],
      ['S', 'Our payroll team will send it out by the end of the month.'],
    ],
    items: [{ mentions: /P45/i, owner: null, due: '2026-03-31' }],
  },
  {
    probe: 'user will get her son to fill in the form tonight',
    category: 'third party',
    turns: [
      ['S', 'The application form needs filling in by the student himself.'],
      ['D', "Okay, I'll get my son to fill in the form tonight."],
    ],
    items: [{ mentions: /form/i, due: '2026-03-04' }],
  },
  {
    probe: 'mum will bring the albums over at the weekend',
    category: 'third party',
    turns: [
      ['D', 'Did you ask your mum about the old photos?'],
      ['S', "I did, she said she'll bring the albums over at the weekend."],
    ],
    items: [{ mentions: /album|photo/i, owner: null }],
  },
  {
    probe: 'fraud team will call within 48 hours',
    category: 'third party',
    turns: [
      ['D', "There's a payment on my card I don't recognise."],
      ['S', "I've flagged it. Our fraud team will call you within 48 hours."],
    ],
    items: [{ mentions: /fraud/i, owner: null }],
  },
  {
    probe: 'teacher will send a letter home on Monday',
    category: 'third party',
    turns: [
      ['D', 'Is there any more information about the trip?'],
      ['S', "Mrs Okafor's going to send a letter home about the trip on Monday."],
    ],
    items: [{ mentions: /trip|letter/i, owner: null, due: '2026-03-09' }],
  },
  {
    probe: 'third voice on the line commits to drawings by Friday',
    category: 'third party',
    turns: [
      ['S', "Hang on, I'll put Tom on, he's doing the drawings."],
      ['X', "Hi Diane, Tom here. I'll get the revised drawings to you by Friday."],
      ['D', 'Great, thanks Tom.'],
    ],
    items: [{ mentions: /drawing/i, owner: null, due: '2026-03-06' }],
  },
  {
    probe: 'Indian English: technician will come "Tuesday itself" and "do the needful"',
    category: 'third party',
    turns: [
      ['D', 'The AC is still not cooling.'],
      ['S', 'Sorry for the inconvenience, ma\'am. Our technician will come on Tuesday itself and do the needful.'],
    ],
    items: [{ mentions: /technician|\bAC\b|air.?con/i, owner: null, due: '2026-03-10' }],
  },
  {
    probe: 'user\'s builder is going to send measurements tonight',
    category: 'third party',
    turns: [
      ['S', "I can't cut the worktop until I have the exact measurements."],
      ['D', "My builder's going to send you the measurements tonight."],
    ],
    items: [{ mentions: /measurement/i, owner: null, due: '2026-03-04' }],
  },

  // ───────────────────────────── conditional ─────────────────────────────
  {
    probe: 'conditional threat of a late fee, not accepted',
    category: 'conditional',
    turns: [
      ['S', "If the payment isn't in by Friday, I'm afraid we'll have to add a late fee."],
      ['D', "That's a bit steep, isn't it?"],
    ],
    items: [],
  },
  {
    probe: 'promise conditional on a part arriving',
    category: 'conditional',
    turns: [
      ['D', 'When can you fix the washing machine?'],
      ['S', "If the part arrives tomorrow, I'll fit it on Friday."],
    ],
    items: [{ mentions: /part|washing/i, owner: 'Sheila', due: '2026-03-06' }],
  },
  {
    probe: '"if you send me X, I\'ll do Y" and the user agrees to send X',
    category: 'conditional',
    turns: [
      ['S', "If you send me a meter reading, I'll sort out the bill."],
      ['D', "I'll send it tonight."],
    ],
    items: [
      { mentions: /meter|reading/i, owner: 'Diane', due: '2026-03-04' },
      { mentions: /bill/i, owner: 'Sheila' },
    ],
  },
  {
    probe: '"unless I hear otherwise" meeting tomorrow at nine',
    category: 'conditional',
    turns: [
      ['D', "Unless I hear otherwise, I'll see you at the site at nine tomorrow."],
      ['S', 'See you then.'],
    ],
    items: [{ mentions: /site/i, due: '2026-03-05' }],
  },
  {
    probe: '"if you ever need a hand, give me a shout" (courtesy)',
    category: 'conditional',
    turns: [
      ['D', "The move's on the 20th, it's going to be chaos."],
      ['S', 'If you ever need a hand with it, just give me a shout.'],
      ['D', "Thanks, that's kind."],
    ],
    items: [],
  },
  {
    probe: 'user\'s conditional threat to go to the ombudsman',
    category: 'conditional',
    turns: [
      ['D', "If it's not fixed by the end of the month, I'll be taking it to the ombudsman."],
      ['S', 'I understand.'],
    ],
    items: [],
  },
  {
    probe: 'condition met in the call: "if you\'re happy with the draft"',
    category: 'conditional',
    turns: [
      ['S', "If you're happy with the draft, I'll send it to the printers."],
      ['D', "Yes, I'm happy with it."],
    ],
    items: [{ mentions: /print/i, owner: 'Sheila' }],
  },
  {
    probe: 'conditional offer declined; user will pay the fee herself',
    category: 'conditional',
    turns: [
      ['S', 'If you like, I can ask the manager to waive the fee.'],
      ['D', "No, honestly, it's fine, I'll just pay it."],
    ],
    items: [{ mentions: /fee/i, owner: 'Diane' }],
  },
  {
    probe: '"weather permitting" promise for Saturday',
    category: 'conditional',
    turns: [
      ['S', 'Are you still going to clear the garden before the viewing?'],
      ['D', "Weather permitting, I'll get it done on Saturday."],
      ['S', 'Great.'],
    ],
    items: [{ mentions: /garden/i, owner: 'Diane', due: '2026-03-07' }],
  },
  {
    probe: 'constraint stated ("can\'t release until"); user promises the reading today',
    category: 'conditional',
    turns: [
      ['S', "I can't release the deposit until I've got the final meter reading."],
      ['D', "Oh, I'll send that over today."],
    ],
    items: [{ mentions: /meter|reading/i, owner: 'Diane', due: '2026-03-04' }],
  },

  // ───────────────────────────── done on the call ─────────────────────────────
  {
    probe: 'order status looked up during the call',
    category: 'done on the call',
    turns: [
      ['D', "Can you check if my order's gone out?"],
      ['S', 'Let me just look... yes, it went out this morning.'],
    ],
    items: [],
  },
  {
    probe: 'postcode confirmed during the call',
    category: 'done on the call',
    turns: [
      ['S', 'Could you confirm your postcode for me?'],
      ['D', "It's SW11 4QT."],
      ['S', 'Thank you.'],
    ],
    items: [],
  },
  {
    probe: 'transfer to accounts "now"',
    category: 'done on the call',
    turns: [
      ['D', 'I have a question about my statement.'],
      ['S', "I'll just put you through to accounts now, bear with me."],
    ],
    items: [],
  },
  {
    probe: 'delivery cancelled during the call',
    category: 'done on the call',
    turns: [
      ['D', 'Can you cancel the Friday delivery?'],
      ['S', "Yep, that's cancelled for you now."],
    ],
    items: [],
  },
  {
    probe: 'email sent "as we speak" and received',
    category: 'done on the call',
    turns: [
      ['D', "I never got the booking confirmation."],
      ['S', "I'm emailing it across as we speak... there, it should be in your inbox now."],
      ['D', 'Yep, got it, thanks.'],
    ],
    items: [],
  },
  {
    probe: 'balance paid by card over the phone',
    category: 'done on the call',
    turns: [
      ['D', 'Can I pay the balance over the phone?'],
      ['S', 'Of course, go ahead with the long number when you are ready.'],
      ['D', "It's four nine two nine, one two three four, five six seven eight, nine zero one two."],
      ['S', "That's gone through, thank you."],
    ],
    items: [],
  },
  {
    probe: 'address updated on the system during the call',
    category: 'done on the call',
    turns: [
      ['D', "We've moved, so the address on the account is wrong."],
      ['S', "I'll just update it on the system... okay, that's done."],
    ],
    items: [],
  },
  {
    probe: 'American: link resent "right now" and arrives',
    category: 'done on the call',
    turns: [
      ['D', 'Can you resend the link?'],
      ['S', 'Sure, hitting send right now. You should see it.'],
      ['D', 'Yep, just came through.'],
    ],
    items: [],
  },
  {
    probe: 'dose looked up in the notes (information question)',
    category: 'done on the call',
    turns: [
      ['D', 'Can you tell me what dose she should be on?'],
      ['S', "Let me grab her notes... it's half a tablet twice a day."],
    ],
    items: [],
  },
  {
    probe: 'partner added to the account during the call',
    category: 'done on the call',
    turns: [
      ['D', 'Could you add my partner as a contact on the account?'],
      ['S', "Bear with me... right, he's on there now."],
    ],
    items: [],
  },

  // ───────────────────────────── not an action ─────────────────────────────
  {
    probe: '"give my love to your mum" (courtesy)',
    category: 'not an action',
    turns: [
      ['S', 'Give my love to your mum.'],
      ['D', 'I will, thanks.'],
    ],
    items: [],
  },
  {
    probe: 'past events only',
    category: 'not an action',
    turns: [
      ['D', 'I sent the cheque off last Thursday.'],
      ['S', 'Yes, it arrived yesterday, thanks.'],
    ],
    items: [],
  },
  {
    probe: 'advice ("you might want to")',
    category: 'not an action',
    turns: [
      ['S', 'You might want to get a second quote, to be honest.'],
      ['D', 'Yeah, maybe.'],
    ],
    items: [],
  },
  {
    probe: 'closure stated as a fact',
    category: 'not an action',
    turns: [
      ['S', "Just so you know, we're closed on Monday for staff training."],
      ['D', 'Okay, good to know.'],
    ],
    items: [],
  },
  {
    probe: 'mere receipt of a confirmation text',
    category: 'not an action',
    turns: [
      ['S', "You'll get a confirmation text shortly."],
      ['D', 'Lovely.'],
    ],
    items: [],
  },
  {
    probe: 'opening hours question',
    category: 'not an action',
    turns: [
      ['D', 'What time do you close on Saturdays?'],
      ['S', 'Half five.'],
    ],
    items: [],
  },
  {
    probe: 'vague "we should catch up some time"',
    category: 'not an action',
    turns: [
      ['S', 'We should catch up properly some time.'],
      ['D', 'Yes, we must.'],
    ],
    items: [],
  },
  {
    probe: 'small talk about the weather',
    category: 'not an action',
    turns: [
      ['S', "Awful weather, isn't it? It's supposed to rain all week."],
      ['D', "Don't. I've given up on the washing."],
    ],
    items: [],
  },
  {
    probe: 'refund policy stated',
    category: 'not an action',
    turns: [
      ['D', 'How long do refunds take?'],
      ['S', 'They usually take three to five working days.'],
      ['D', 'Okay.'],
    ],
    items: [],
  },
  {
    probe: 'sign-off "speak soon"',
    category: 'not an action',
    turns: [
      ['D', "Anyway, I'll let you get on."],
      ['S', 'Thanks, speak soon.'],
    ],
    items: [],
  },

  // ───────────────────────────── dates in context ─────────────────────────────
  {
    probe: '"then" refers back to Thursday',
    category: 'dates in context',
    turns: [
      ['D', 'Are you in on Thursday?'],
      ['S', 'I am, yes.'],
      ['D', "Great, I'll drop the invoice off then."],
    ],
    items: [{ mentions: /invoice/i, owner: 'Diane', due: '2026-03-05' }],
  },
  {
    probe: '"that day" refers back to Tuesday',
    category: 'dates in context',
    turns: [
      ['D', "The boiler man's coming Tuesday."],
      ['S', 'Okay.'],
      ['D', 'Could you leave the side gate open for him that day?'],
      ['S', 'Will do.'],
    ],
    items: [{ mentions: /gate/i, owner: 'Sheila', due: '2026-03-10' }],
  },
  {
    probe: '"the day after tomorrow"',
    category: 'dates in context',
    turns: [
      ['D', 'How are you getting on with the survey report?'],
      ['S', "I'll have the report ready the day after tomorrow."],
    ],
    items: [{ mentions: /report/i, owner: 'Sheila', due: '2026-03-06' }],
  },
  {
    probe: '"Thursday week"',
    category: 'dates in context',
    turns: [
      ['S', "There's still the balance to settle."],
      ['D', "I know, I'll pay the balance Thursday week, when I get paid."],
    ],
    items: [{ mentions: /balance|pay/i, owner: 'Diane', due: '2026-03-12' }],
  },
  {
    probe: '"by end of play Friday"',
    category: 'dates in context',
    turns: [
      ['S', 'Can you get the signed copy back to me by end of play Friday?'],
      ['D', 'Yes, should be fine.'],
    ],
    items: [{ mentions: /sign|copy/i, owner: 'Diane', due: '2026-03-06' }],
  },
  {
    probe: '"first thing Monday"',
    category: 'dates in context',
    turns: [
      ['D', "Has anyone spoken to the insurer about the claim?"],
      ['S', "Not yet, I'll call them first thing Monday."],
    ],
    items: [{ mentions: /insur|claim/i, intent: 'call', owner: 'Sheila', due: '2026-03-09' }],
  },
  {
    probe: '"by then" refers back to "the 20th"',
    category: 'dates in context',
    turns: [
      ['D', "When's the deadline for the grant?"],
      ['S', 'The 20th.'],
      ['D', "Okay, I'll get the application in by then."],
    ],
    items: [{ mentions: /application|grant/i, owner: 'Diane', due: '2026-03-20' }],
  },
  {
    probe: '"for that" refers back to "a week on Friday"',
    category: 'dates in context',
    turns: [
      ['S', "The hall's booked for a week on Friday."],
      ['D', "Brilliant, I'll sort the catering for that."],
    ],
    items: [{ mentions: /cater/i, owner: 'Diane', due: '2026-03-13' }],
  },
  {
    probe: '"that afternoon" refers back to tomorrow',
    category: 'dates in context',
    turns: [
      ['S', "I'm in the office tomorrow."],
      ['D', 'Could I pop in that afternoon to collect the keys?'],
      ['S', 'Yes, come any time after two.'],
    ],
    items: [{ mentions: /key/i, owner: 'Diane', due: '2026-03-05' }],
  },
  {
    probe: '"by then" refers back to "next Wednesday"',
    category: 'dates in context',
    turns: [
      ['D', "What's your last day before you go on leave?"],
      ['S', 'Next Wednesday.'],
      ['D', "Right, I'll get the forms to you by then."],
    ],
    items: [{ mentions: /form/i, owner: 'Diane', due: '2026-03-11' }],
  },

  // ───────────────────────────── money ─────────────────────────────
  {
    probe: 'user will transfer a £250 deposit tonight',
    category: 'money',
    turns: [
      ['S', "I can hold the date for you once we've had the deposit."],
      ['D', "I'll transfer the £250 deposit tonight."],
    ],
    items: [{ mentions: /deposit/i, owner: 'Diane', due: '2026-03-04' }],
  },
  {
    probe: 'contact will refund £40 to the card by Friday',
    category: 'money',
    turns: [
      ['D', 'I was charged twice for the same order.'],
      ['S', "So sorry about that. I'll refund the £40 to your card by Friday."],
    ],
    items: [{ mentions: /refund/i, owner: 'Sheila', due: '2026-03-06' }],
  },
  {
    probe: 'request to pay by the end of the month accepted',
    category: 'money',
    turns: [
      ['S', 'Can you pay the invoice by the end of the month?'],
      ['D', "Yes, that's fine."],
    ],
    items: [{ mentions: /invoice|pay/i, owner: 'Diane', due: '2026-03-31' }],
  },
  {
    probe: 'payment received (past, receipt)',
    category: 'money',
    turns: [
      ['S', "Just to let you know, your payment of £120 has been received."],
      ['D', 'Oh good, thanks.'],
    ],
    items: [],
  },
  {
    probe: 'friend reminded of a tenner owed; promises Saturday',
    category: 'money',
    turns: [
      ['S', 'You still owe me a tenner for the tickets, by the way!'],
      ['D', "Oh god, sorry, I'll give it you Saturday."],
    ],
    items: [{ mentions: /ticket|tenner|10/i, owner: 'Diane', due: '2026-03-07' }],
  },
  {
    probe: 'American "I\'ll Venmo you the fifty bucks tonight"',
    category: 'money',
    turns: [
      ['D', 'So you owe me for the concert.'],
      ['S', "Right, I'll Venmo you the fifty bucks tonight."],
    ],
    items: [{ mentions: /50|fifty|venmo/i, owner: 'Sheila', due: '2026-03-04' }],
  },
  {
    probe: 'accountant asks for bank statements; user names Monday',
    category: 'money',
    turns: [
      ['S', 'Could you send me your bank statements so I can file the return?'],
      ['D', "I'll send them over by Monday."],
    ],
    items: [{ mentions: /statement/i, owner: 'Diane', due: '2026-03-09' }],
  },
  {
    probe: 'call-out fee asked (information only)',
    category: 'money',
    turns: [
      ['D', 'How much is the call-out fee?'],
      ['S', "It's eighty-five pounds plus VAT."],
    ],
    items: [],
  },
  {
    probe: 'builder wants half up front; user will transfer tomorrow',
    category: 'money',
    turns: [
      ['S', "I'll need half up front before I order the materials."],
      ['D', "That's fine, I'll transfer it tomorrow."],
    ],
    items: [{ mentions: /pay|transfer|up.?front|half|deposit/i, owner: 'Diane', due: '2026-03-05' }],
  },
  {
    probe: 'bank agrees to request a refund of an overdraft charge',
    category: 'money',
    turns: [
      ['D', 'Can you waive the overdraft charge this once?'],
      ['S', "I'll put a request in to refund it this time. It should be back in your account within three working days."],
    ],
    items: [{ mentions: /overdraft|charge|refund/i, owner: 'Sheila' }],
  },

  // ───────────────────────────── channels ─────────────────────────────
  {
    probe: '"I\'ll WhatsApp you"',
    category: 'channels',
    turns: [
      ['D', "I've lost the address for Saturday."],
      ['S', "No problem, I'll WhatsApp it to you."],
    ],
    items: [{ mentions: /address/i, intent: 'message', owner: 'Sheila' }],
  },
  {
    probe: '"I\'ll drop you an email … later"',
    category: 'channels',
    turns: [
      ['S', "I'll need the final guest list before I can do the seating."],
      ['D', "I'll drop you an email with the guest list later."],
    ],
    items: [{ mentions: /guest/i, intent: 'email', owner: 'Diane', due: '2026-03-04' }],
  },
  {
    probe: '"stick it in the post" today',
    category: 'channels',
    turns: [
      ['D', 'Can I get paper copies of the forms?'],
      ['S', "Course, I'll stick them in the post to you today."],
    ],
    items: [{ mentions: /form/i, owner: 'Sheila', due: '2026-03-04' }],
  },
  {
    probe: '"give me a bell when" accepted',
    category: 'channels',
    turns: [
      ['D', "Can you give me a bell when the car's ready?"],
      ['S', 'Course I will.'],
    ],
    items: [{ mentions: /car/i, intent: 'call', owner: 'Sheila', due: null }],
  },
  {
    probe: 'user will leave a message on the office line tonight',
    category: 'channels',
    turns: [
      ['S', "Gary's not in till tomorrow, I'm afraid."],
      ['D', "Okay, I'll leave a message for him on the office line tonight."],
    ],
    items: [{ mentions: /Gary/i, owner: 'Diane', due: '2026-03-04' }],
  },
  {
    probe: 'Zoom link by email this afternoon',
    category: 'channels',
    turns: [
      ['D', 'Are we doing the catch-up on Zoom or in person?'],
      ['S', "Zoom is easier. I'll send you the Zoom link by email this afternoon."],
    ],
    items: [{ mentions: /zoom|link/i, intent: 'email', owner: 'Sheila', due: '2026-03-04' }],
  },
  {
    probe: 'complaint to be put in writing "this week"',
    category: 'channels',
    turns: [
      ['S', "You'll need to put the complaint in writing, I'm afraid."],
      ['D', "Okay, I'll write to you this week."],
    ],
    items: [{ mentions: /complaint|writ|letter/i, owner: 'Diane' }],
  },
  {
    probe: 'in person: pop in to the surgery on Friday',
    category: 'channels',
    turns: [
      ['S', 'Your prescription will be ready from Friday.'],
      ['D', "Lovely, I'll pop in on Friday to pick it up."],
    ],
    items: [{ mentions: /prescription/i, owner: 'Diane', due: '2026-03-06' }],
  },
  {
    probe: 'upload to the portal tonight',
    category: 'channels',
    turns: [
      ['S', 'Could you upload the photos of the damage to the portal?'],
      ['D', "Yep, I'll do it tonight."],
    ],
    items: [{ mentions: /photo/i, owner: 'Diane', due: '2026-03-04' }],
  },
  {
    probe: '"I\'ll DM you" on social media',
    category: 'channels',
    turns: [
      ['D', 'Your hair looks amazing, where did you get it done?'],
      ['S', "Aw, thanks! I'll DM you the name of the salon."],
    ],
    items: [{ mentions: /salon/i, intent: 'message', owner: 'Sheila' }],
  },

  // ───────────────────────────── two actions ─────────────────────────────
  {
    probe: 'one promise and one accepted request in one turn',
    category: 'two actions',
    turns: [
      ['S', "I'll send the contract over tonight, and can you sign it by Friday?"],
      ['D', 'Yes, will do.'],
    ],
    items: [
      { mentions: /send|email/i, owner: 'Sheila', due: '2026-03-04' },
      { mentions: /sign/i, owner: 'Diane', due: '2026-03-06' },
    ],
  },
  {
    probe: 'user chains "I\'ll ring … and then I\'ll email"',
    category: 'two actions',
    turns: [
      ['S', 'Do you know if the bank has approved the loan?'],
      ['D', "Not yet. I'll ring the bank and then I'll email you what they say."],
    ],
    items: [
      { mentions: /bank/i, intent: 'call', owner: 'Diane' },
      { mentions: /email/i, intent: 'email', owner: 'Diane' },
    ],
  },
  {
    probe: 'landlord: service the boiler next week, then send the certificate',
    category: 'two actions',
    turns: [
      ['D', "The boiler's overdue for its service."],
      ['S', "I'll get the boiler serviced next week, and I'll send you the gas safety certificate after."],
    ],
    items: [
      { mentions: /servic/i, owner: 'Sheila' },
      { mentions: /certificate/i, owner: 'Sheila' },
    ],
  },
  {
    probe: 'each side commits once',
    category: 'two actions',
    turns: [
      ['D', "I'll send you the floor plan tonight."],
      ['S', "Great, and I'll get a quote back to you by Tuesday."],
    ],
    items: [
      { mentions: /floor|plan/i, owner: 'Diane', due: '2026-03-04' },
      { mentions: /quote/i, owner: 'Sheila', due: '2026-03-10' },
    ],
  },
  {
    probe: 'sister splits errands for Dad',
    category: 'two actions',
    turns: [
      ['S', "Can you pick up Dad's prescription on Friday? I'll do his shopping Saturday."],
      ['D', 'Yeah, no problem.'],
    ],
    items: [
      { mentions: /prescription/i, owner: 'Diane', due: '2026-03-06' },
      { mentions: /shopping/i, owner: 'Sheila', due: '2026-03-07' },
    ],
  },
  {
    probe: 'parent: email the head today, bring the inhaler in Thursday',
    category: 'two actions',
    turns: [
      ['S', 'Ollie was a bit wheezy at play time and we had no inhaler for him.'],
      ['D', "Oh no. I'll email the head about it today, and I'll bring his inhaler in on Thursday."],
    ],
    items: [
      { mentions: /head/i, intent: 'email', owner: 'Diane', due: '2026-03-04' },
      { mentions: /inhaler/i, owner: 'Diane', due: '2026-03-05' },
    ],
  },
  {
    probe: 'builder orders a skip; user will move the car Sunday night',
    category: 'two actions',
    turns: [
      ['S', "I'll order the skip for Monday, but you'll need to move the car off the drive before then."],
      ['D', "Fine, I'll move it Sunday night."],
    ],
    items: [
      { mentions: /skip/i, owner: 'Sheila' },
      { mentions: /car/i, owner: 'Diane', due: '2026-03-08' },
    ],
  },
  {
    probe: 'two requests accepted with "both of those"',
    category: 'two actions',
    turns: [
      ['D', 'Can you send me the draft accounts, and book me in with Priya for next week?'],
      ['S', 'Yes, I can do both of those.'],
    ],
    items: [
      { mentions: /draft|accounts/i, owner: 'Sheila' },
      { mentions: /Priya/i, owner: 'Sheila' },
    ],
  },
  {
    probe: 'Irish: the lads out Tuesday, and a ring the night before',
    category: 'two actions',
    turns: [
      ['D', 'When can you do the gutters?'],
      ['S', "I'll have the lads out to you Tuesday, and sure I'll ring you the night before to confirm."],
    ],
    items: [
      { mentions: /gutter/i, due: '2026-03-10' },
      { mentions: /confirm|call|ring/i, intent: 'call', owner: 'Sheila', due: '2026-03-09' },
    ],
  },
  {
    probe: 'vet: user drops a sample Friday; receptionist asks the vet for tablets',
    category: 'two actions',
    turns: [
      ['S', 'Can you drop a stool sample in for us on Friday?'],
      ['D', 'Okay, will do.'],
      ['S', "And I'll ask the vet to get the worming tablets ready for you to collect."],
    ],
    items: [
      { mentions: /sample/i, owner: 'Diane', due: '2026-03-06' },
      { mentions: /tablet|worm/i, owner: 'Sheila' },
    ],
  },

  // ───────────────────────────── english varieties ─────────────────────────────
  {
    probe: 'Irish "I\'ll give you a shout Monday, so I will"',
    category: 'english varieties',
    turns: [
      ['D', 'Any word on the car?'],
      ['S', "Not yet, but I'll give you a shout Monday, so I will."],
    ],
    items: [{ mentions: /car/i, owner: 'Sheila', due: '2026-03-09' }],
  },
  {
    probe: 'Australian "no worries, I\'ll flick \'em through this arvo"',
    category: 'english varieties',
    turns: [
      ['D', 'Can you send through the rego details?'],
      ['S', "No worries, I'll flick 'em through this arvo."],
    ],
    items: [{ mentions: /rego|registration/i, owner: 'Sheila', due: '2026-03-04' }],
  },
  {
    probe: 'Indian "I will check and revert by tomorrow EOD"',
    category: 'english varieties',
    turns: [
      ['D', 'Please could you check the status of my KYC?'],
      ['S', 'Sure ma\'am, I will check and revert by tomorrow EOD.'],
    ],
    items: [{ mentions: /KYC/i, owner: 'Sheila', due: '2026-03-05' }],
  },
  {
    probe: 'American "I\'ll swing by … and drop off the check"',
    category: 'english varieties',
    turns: [
      ['S', "We still haven't gotten the rent for March."],
      ['D', "Sorry about that, I'll swing by the office Monday and drop off the check."],
    ],
    items: [{ mentions: /check|cheque|rent/i, owner: 'Diane', due: '2026-03-09' }],
  },
  {
    probe: 'Scottish "the morn" for tomorrow',
    category: 'english varieties',
    turns: [
      ['D', "There's a wee leak under the sink again."],
      ['S', "Ach, I'll get that sorted the morn."],
    ],
    items: [{ mentions: /leak|sink/i, owner: 'Sheila', due: '2026-03-05' }],
  },
  {
    probe: 'Australian "reckon you could" accepted with "should be right, mate"',
    category: 'english varieties',
    turns: [
      ['D', 'Reckon you could pop the invoice over by Friday?'],
      ['S', 'Yeah, should be right, mate.'],
    ],
    items: [{ mentions: /invoice/i, owner: 'Sheila', due: '2026-03-06' }],
  },
  {
    probe: 'Indian "by day after tomorrow itself"',
    category: 'english varieties',
    turns: [
      ['D', 'When will I get the quotation for the interiors?'],
      ['S', 'Ma\'am, I will send the quotation by day after tomorrow itself.'],
    ],
    items: [{ mentions: /quot/i, owner: 'Sheila', due: '2026-03-06' }],
  },
  {
    probe: 'Irish "grand, I\'ll ring the school after the lunch"',
    category: 'english varieties',
    turns: [
      ['S', 'You should ring the school about the bus, they changed the times.'],
      ['D', "Grand, I'll ring the school after the lunch."],
      ['S', 'Good woman.'],
    ],
    items: [{ mentions: /school/i, intent: 'call', owner: 'Diane', due: '2026-03-04' }],
  },
  {
    probe: 'Northern English "I\'ll nip round after tea"',
    category: 'english varieties',
    turns: [
      ['D', "The telly's gone funny again, it just shows a blue screen."],
      ['S', "I'll nip round to yours after tea and have a look at it, love."],
    ],
    items: [{ mentions: /telly|TV|television/i, owner: 'Sheila', due: '2026-03-04' }],
  },
  {
    probe: 'American "circle back with legal" by end of day Friday',
    category: 'english varieties',
    turns: [
      ['D', 'Are we okay to use the logo on the packaging?'],
      ['S', "Let me circle back with legal and I'll get back to you by end of day Friday."],
    ],
    items: [{ mentions: /legal|logo/i, owner: 'Sheila', due: '2026-03-06' }],
  },

  // ───────────────────────────── hedged ─────────────────────────────
  {
    probe: '"I\'ll try … but no promises"',
    category: 'hedged',
    turns: [
      ['D', 'Any chance of the quote this week?'],
      ['S', "I'll try and get it to you by Friday, but no promises."],
    ],
    items: [{ mentions: /quote/i, owner: 'Sheila', due: '2026-03-06' }],
  },
  {
    probe: '"I might be able to … I\'ll see what I can do"',
    category: 'hedged',
    turns: [
      ['D', 'The roof is leaking into the back bedroom.'],
      ['S', "Oh dear. I might be able to get someone out tomorrow to look at the roof. I'll see what I can do."],
    ],
    items: [{ mentions: /roof/i, owner: 'Sheila' }],
  },
  {
    probe: '"I\'ll probably pop in Saturday"',
    category: 'hedged',
    turns: [
      ['S', 'Your curtains are ready whenever you want to collect them.'],
      ['D', "Oh great, I'll probably pop in Saturday to pick them up."],
    ],
    items: [{ mentions: /curtain/i, owner: 'Diane' }],
  },
  {
    probe: '"maybe, depends how I\'m feeling" (no commitment)',
    category: 'hedged',
    turns: [
      ['D', 'Are you coming to the quiz on Friday?'],
      ['S', "Maybe, it depends how I'm feeling."],
    ],
    items: [],
  },
  {
    probe: '"I should be able to" by Thursday',
    category: 'hedged',
    turns: [
      ['D', 'When can I have the keys?'],
      ['S', 'I should be able to get them to you by Thursday.'],
      ['D', "That'd be great."],
    ],
    items: [{ mentions: /key/i, owner: 'Sheila', due: '2026-03-05' }],
  },
  {
    probe: '"I\'ll have a think … and let you know"',
    category: 'hedged',
    turns: [
      ['S', 'So which colour did you want for the front door?'],
      ['D', "I'll have a think about the colour and let you know."],
    ],
    items: [{ mentions: /colou?r|door/i, owner: 'Diane', due: null }],
  },
  {
    probe: '"I\'ll see if I can … make Thursday work"',
    category: 'hedged',
    turns: [
      ['S', 'Thursday is really the only day I can do the handover.'],
      ['D', "I'll see if I can move things around and make Thursday work for the handover."],
      ['S', 'Okay, let me know.'],
    ],
    items: [{ mentions: /handover/i, owner: 'Diane' }],
  },
  {
    probe: '"I might give you a call … if I hear anything" (no commitment)',
    category: 'hedged',
    turns: [
      ['D', 'Any news from the buyers?'],
      ['S', 'Nothing yet. I might give you a call later if I hear anything.'],
    ],
    items: [],
  },
  {
    probe: '"in theory it\'ll ship Friday" (schedule, hedged)',
    category: 'hedged',
    turns: [
      ['D', 'When will the desk ship?'],
      ['S', "In theory it'll ship Friday, but the warehouse is a nightmare at the moment."],
    ],
    items: [],
  },
  {
    probe: '"I\'ll do my best" for before the weekend',
    category: 'hedged',
    turns: [
      ['D', 'Can you get the alterations on my dress done before the weekend?'],
      ['S', "I'll do my best."],
    ],
    items: [{ mentions: /dress|alteration/i, owner: 'Sheila', due: '2026-03-06' }],
  },
];
