/**
 * A battery of short phone dialogues that hold no action item at all, though they sound as if they
 * might: things already done or done while still on the call, information only, offers declined
 * or left open, questions answered on the call, advice for if something happens, courtesy and small
 * talk, what one party will merely receive or what happens by itself, past events and plans others
 * already carried out, hedges and wishes, requests turned down, wrong numbers and calls that end
 * with nothing agreed, and statements about the future that are nobody's task. They are written
 * from how English is spoken on the phone (British, with American, Australian, Irish and Indian
 * English), not from the evaluation calls or from the analyser, with future tenses, days, times and
 * verbs like send, call, book and pay where a careless reader might see an action. Every dialogue's
 * `items` is [], so whatever is extracted from one is invented.
 *
 * The conventions are those of ./dialogueBattery.ts: a call on Wednesday 4 March 2026, 10:00 in
 * London, the harness prepending the greeting, so `D` is Diane (the user) and `S` Sheila (the
 * contact); the category is the kind of call without actions.
 *
 * 120 dialogues were written together and split by alternation into this half, tuned on since
 * round 11 (read while changing the analyser), and the held-out half in
 * ./dialogueBatteryQuietHeldOut.ts, a judge, which is never read.
 */
import type { BatteryDialogue } from './dialogueBattery.js';

export const dialogueBatteryQuiet: BatteryDialogue[] = [
  // ───────────────────────────── already done ─────────────────────────────
  {
    probe: 'a promised email already sent before the call, found while they talk',
    category: 'already done',
    turns: [
      ['D', "Hiya, I was just ringing about the, um, the copy of the lease you said you'd send over?"],
      ['S', "Oh, I sent that first thing this morning, about half eight. It'll have come from Nadia at Brennan Lettings."],
      ['D', 'Hang on... oh yes, there it is. Sorry, it went into my other folder.'],
      ['S', 'No worries at all.'],
    ],
    items: [],
  },
  {
    probe: 'American "I went ahead and removed it, you\'re all set"',
    category: 'already done',
    turns: [
      ['D', "Hi, yeah, so I wanna cancel the premium add-on, we're just not using it."],
      ['S', "Sure thing. Okay, so I went ahead and removed it, and you won't be charged for it on the fifteenth. You're all set."],
      ['D', 'Awesome, that was easy.'],
    ],
    items: [],
  },
  {
    probe: 'Irish "I\'m after putting it back on your account there now"',
    category: 'already done',
    turns: [
      ['D', 'I think I was charged twice for the heating oil last week.'],
      ['S', "You were, yeah, I can see it there. Hang on... right, I'm after putting the hundred and sixty euro back on your account there now."],
      ['D', 'Ah, grand, thanks a million.'],
      ['S', 'Not a bother.'],
    ],
    items: [],
  },
  {
    probe: 'Australian "I\'ve just shifted your delivery, done and dusted"',
    category: 'already done',
    turns: [
      ['S', "Righto, I've just shifted your delivery from Thursday to Friday like you asked. Done and dusted."],
      ['D', 'Oh, legend. Is there anything I need to do?'],
      ['S', "Nah, nothing at all, it's all sorted on our end."],
    ],
    items: [],
  },
  {
    probe: 'login code re-sent during the call and used straight away',
    category: 'already done',
    turns: [
      ['D', "I'm trying to log in to the portal but the code never came."],
      ['S', "Okay, I've just sent a fresh one to the mobile ending six two. Has that come through?"],
      ['D', "Yep, got it, it's three eight one, five five oh... and I'm in."],
      ['S', 'Great stuff.'],
    ],
    items: [],
  },

  // ───────────────────────────── facts only ─────────────────────────────
  {
    probe: 'balance, last payment and direct debit day read out',
    category: 'facts only',
    turns: [
      ['S', 'So your balance at the moment is a hundred and twelve pounds forty, and the last payment we had was sixty pounds on the twentieth of February.'],
      ['D', 'Right, okay. That sounds about right.'],
      ['S', 'And your direct debit comes out on the first of each month.'],
      ['D', "Yeah, that's fine."],
    ],
    items: [],
  },
  {
    probe: 'American prices: "the standard clean runs about ninety-five dollars"',
    category: 'facts only',
    turns: [
      ['S', "So the standard clean runs about ninety-five dollars, and the deep clean's a hundred and sixty. Carpets are extra, like thirty bucks a room."],
      ['D', "Gotcha. Okay, that's helpful."],
    ],
    items: [],
  },
  {
    probe: 'Indian "your application is under process only"',
    category: 'facts only',
    turns: [
      ['S', "Ma'am, your application is under process only. It is with the verification team since Monday."],
      ['D', 'Okay, and how long does that usually take?'],
      ['S', "Normally it takes seven to ten working days, ma'am."],
      ['D', 'Okay, fine, thank you.'],
    ],
    items: [],
  },
  {
    probe: 'Australian stock and special price: "three left in the Chermside store"',
    category: 'facts only',
    turns: [
      ['S', "Yeah, so we've got three of the grey ones left in the Chermside store and none at Carindale."],
      ['D', 'Ah, righto.'],
      ['S', "And they're on special this week, a hundred and ninety-nine instead of two forty-nine."],
      ['D', 'Oh, nice.'],
    ],
    items: [],
  },
  {
    probe: 'Irish road closure and diversion stated as facts',
    category: 'facts only',
    turns: [
      ['S', "The road out to Ballyvaughan is closed at the minute with the flooding, so everything's going round by Kinvara."],
      ['D', "Ah no. That's a good twenty minutes extra."],
      ['S', 'It is, yeah.'],
    ],
    items: [],
  },

  // ───────────────────────────── offer not taken up ─────────────────────────────
  {
    probe: '"Shall I pop a brochure in the post?" — "no, you\'re alright"',
    category: 'offer not taken up',
    turns: [
      ['S', "Shall I pop a brochure in the post for you? It's got all the spring ranges in."],
      ['D', "Ah, no, you're alright, thanks, I've already had a look online."],
      ['S', 'No problem.'],
    ],
    items: [],
  },
  {
    probe: "American offer of a specialist's call tomorrow, declined",
    category: 'offer not taken up',
    turns: [
      ['S', 'I can have one of our specialists give you a call tomorrow morning if you want?'],
      ['D', "Nah, that's okay. I think I've got what I need."],
      ['S', 'Okay, sounds good.'],
    ],
    items: [],
  },
  {
    probe: 'the user offers to email photos; the contact says no need',
    category: 'offer not taken up',
    turns: [
      ['D', 'Do you want me to email you the photos of the damage?'],
      ['S', "No, you're fine, the driver already took some when he dropped it off."],
      ['D', 'Oh, okay, great.'],
    ],
    items: [],
  },
  {
    probe: 'Indian offer to raise a complaint ticket, declined as it now works',
    category: 'offer not taken up',
    turns: [
      ['S', "Shall I raise one complaint ticket for this, ma'am? Engineer will call you within forty-eight hours."],
      ['D', "No, no, it's okay, it's working fine now after the restart."],
      ['S', "Okay ma'am, no problem."],
    ],
    items: [],
  },
  {
    probe: 'Australian "want me to flick it through?" — "nah, all good"',
    category: 'offer not taken up',
    turns: [
      ['S', 'Want me to flick you through a copy of the invoice?'],
      ['D', "Nah, all good, I've already got it from Brendan."],
      ['S', 'Too easy.'],
    ],
    items: [],
  },

  // ───────────────────────────── question answered ─────────────────────────────
  {
    probe: '"do you deliver on Saturdays?" and the charge, answered',
    category: 'question answered',
    turns: [
      ['D', 'Um, do you deliver on Saturdays at all?'],
      ['S', 'We do, yeah, but only in the mornings, eight till twelve.'],
      ['D', 'Ah, okay. And is there a charge for that?'],
      ['S', "It's an extra four ninety-nine."],
      ['D', 'Right, thanks.'],
    ],
    items: [],
  },
  {
    probe: 'American "what was the confirmation number again?"',
    category: 'question answered',
    turns: [
      ['D', 'Sorry, what was the confirmation number again?'],
      ['S', "It's K as in kilo, seven, seven, two, nine, B as in bravo."],
      ['D', 'K seven seven two nine B. Got it, thanks.'],
    ],
    items: [],
  },
  {
    probe: 'Indian "the invoice was raised on second March itself"',
    category: 'question answered',
    turns: [
      ['D', 'Has the invoice been raised for the February order?'],
      ['S', 'Yes, it was raised on second March itself. Amount is forty-two thousand five hundred rupees.'],
      ['D', 'Okay, noted. Thanks.'],
    ],
    items: [],
  },
  {
    probe: 'Irish "did Declan get out to you yesterday?"',
    category: 'question answered',
    turns: [
      ['D', 'Did Declan get out to you yesterday in the end?'],
      ['S', 'He did, yeah, he was here by ten and he had it fixed by lunchtime.'],
      ['D', 'Ah, great stuff.'],
    ],
    items: [],
  },
  {
    probe: 'Australian "what time does the tip open on a Sunday?"',
    category: 'question answered',
    turns: [
      ['D', 'What time does the tip open on a Sunday?'],
      ['S', "Eight o'clock, and it shuts at four. Residents only, mind, they check your licence at the gate."],
      ['D', 'Good to know, cheers.'],
    ],
    items: [],
  },

  // ───────────────────────────── advice for if ─────────────────────────────
  {
    probe: '"if the swelling gets worse, go straight to A&E"',
    category: 'advice for if',
    turns: [
      ['S', "So keep an eye on it, and if the swelling gets any worse or you get a temperature, go straight to A&E, don't wait."],
      ['D', "Okay. Hopefully it won't come to that."],
      ['S', 'Hopefully not.'],
    ],
    items: [],
  },
  {
    probe: 'American "if it keeps logging you out, you might wanna reinstall"',
    category: 'advice for if',
    turns: [
      ['S', 'If it keeps logging you out, you might wanna delete the app and reinstall it. That usually clears it.'],
      ['D', 'Okay, good to know.'],
      ['S', "Yeah, it's a known thing with the latest update."],
    ],
    items: [],
  },
  {
    probe: 'Irish vet: "if she\'s still not eating by tomorrow evening, bring her in"',
    category: 'advice for if',
    turns: [
      ['S', "She'll probably be a bit sleepy tonight after the anaesthetic. If she's still not eating by tomorrow evening, bring her back in to us."],
      ['D', "Okay. She's usually a right gannet, so I'd say she'll be fine."],
      ['S', "I'd say so too."],
    ],
    items: [],
  },
  {
    probe: 'what to do if the power goes: "hold the reset button for five seconds"',
    category: 'advice for if',
    turns: [
      ['S', "If the power goes off again, the alarm panel might start beeping. All you do is hold the reset button for five seconds and it'll stop."],
      ['D', "Okay, hold it for five seconds. That's easy enough."],
    ],
    items: [],
  },
  {
    probe: '"you might want to think about the bigger plan" — "it\'s fine for now"',
    category: 'advice for if',
    turns: [
      ['S', "If you're running out of storage that often, you might want to think about moving up to the two terabyte plan at some point."],
      ['D', "Mm, maybe. It's fine for now."],
    ],
    items: [],
  },

  // ───────────────────────────── courtesy and small talk ─────────────────────────────
  {
    probe: '"give my love to your mum, won\'t you?"',
    category: 'courtesy and small talk',
    turns: [
      ['S', "Anyway, I'll let you go. Give my love to your mum, won't you?"],
      ['D', "Aw, thanks, she'll be chuffed you asked. Speak soon."],
      ['S', 'Bye, love.'],
    ],
    items: [],
  },
  {
    probe: "small talk about last night's match",
    category: 'courtesy and small talk',
    turns: [
      ['S', 'Did you see the match last night?'],
      ['D', "Don't. I switched it off at half time, two nil down at home to Burnley."],
      ['S', 'Ha, I know, my husband was fuming.'],
    ],
    items: [],
  },
  {
    probe: 'Irish sign-off: "mind yourself", "talk soon"',
    category: 'courtesy and small talk',
    turns: [
      ['S', "Right, I won't keep you. Mind yourself now."],
      ['D', 'And you. Talk soon, Sheila.'],
      ['S', 'Bye, bye, bye, bye.'],
    ],
    items: [],
  },
  {
    probe: 'Australian "no worries, say g\'day to Mick"',
    category: 'courtesy and small talk',
    turns: [
      ['D', 'Thanks heaps for that, Sheila.'],
      ['S', "No worries at all. Say g'day to Mick for me."],
      ['D', "Ha, he'll be stoked. Catch ya."],
    ],
    items: [],
  },
  {
    probe: '"I\'ll let you get on, don\'t be a stranger"',
    category: 'courtesy and small talk',
    turns: [
      ['S', "Oh, she's gorgeous, I saw the photos on Sunday. How are you all getting on?"],
      ['D', "Knackered, but good, thanks. She's finally sleeping a bit longer."],
      ['S', "Aw. Right, I'll let you get on. Don't be a stranger."],
      ['D', "I won't. Bye now."],
    ],
    items: [],
  },

  // ───────────────────────────── received or automatic ─────────────────────────────
  {
    probe: 'automated text from the courier the evening before a delivery',
    category: 'received or automatic',
    turns: [
      ['S', "The sofa's down for Tuesday, and you'll get an automated text the evening before with a two-hour slot."],
      ['D', 'Oh, handy. Does that come from you or the courier?'],
      ['S', 'From the courier, from a number ending triple seven.'],
      ['D', 'Okay.'],
    ],
    items: [],
  },
  {
    probe: 'refund goes back to the card by itself once the return is scanned',
    category: 'received or automatic',
    turns: [
      ['D', 'So do I need to do anything for the refund?'],
      ['S', "No, it goes back to the original card automatically once the return's scanned in at the depot, which it was this morning. Give it three to five working days."],
      ['D', 'Lovely.'],
    ],
    items: [],
  },
  {
    probe: 'breakdown cover auto-renews on the twenty-first',
    category: 'received or automatic',
    turns: [
      ['D', 'Is the breakdown cover going to renew on its own?'],
      ['S', "It is, yes, it auto-renews on the twenty-first, and it'll come out of the same account as last year, sixty-eight pounds."],
      ['D', "Perfect, that's what I want."],
    ],
    items: [],
  },
  {
    probe: 'Indian "EMI will be auto-debited on fifth, SMS will come"',
    category: 'received or automatic',
    turns: [
      ['S', "Ma'am, the EMI will be auto-debited on fifth of every month, first one is this fifth only."],
      ['D', 'Tomorrow, you mean?'],
      ['S', "Yes ma'am, tomorrow. Eight thousand two hundred rupees. SMS will come once it is debited."],
      ['D', 'Okay, fine.'],
    ],
    items: [],
  },
  {
    probe: 'Australian "the bond refund\'ll just pop back in your account"',
    category: 'received or automatic',
    turns: [
      ['S', "So the bond refund's been approved, and it'll just pop back into your account within a couple of business days."],
      ['D', "Ah, beautiful. So I don't need to fill in anything else?"],
      ['S', 'Nup, all done.'],
    ],
    items: [],
  },

  // ───────────────────────────── past events ─────────────────────────────
  {
    probe: 'story: last Thursday the parcel was left in the recycling bin',
    category: 'past events',
    turns: [
      ['D', 'Honestly, last Thursday the driver left it in the recycling bin. The recycling bin!'],
      ['S', "Oh no, you're joking."],
      ['D', 'No, and the bin men came on Friday morning, so it very nearly went to the tip.'],
      ['S', 'Oh my God.'],
    ],
    items: [],
  },
  {
    probe: 'American "we met with them Monday, they signed right there"',
    category: 'past events',
    turns: [
      ['S', 'So did you ever end up meeting with the Hendersons?'],
      ['D', 'Yeah, we met with them Monday afternoon. It went great, actually, they signed right there in the meeting.'],
      ['S', "No way, that's awesome."],
    ],
    items: [],
  },
  {
    probe: 'a colleague already emailed the client on Monday',
    category: 'past events',
    turns: [
      ['D', 'Has anyone let Pearson and Hale know about the price change?'],
      ['S', 'Yeah, Tom emailed them on Monday, and their buyer replied the same day saying it was fine.'],
      ['D', "Oh, great, that's one off the list."],
    ],
    items: [],
  },
  {
    probe: 'Australian story: a flat tyre near Gympie on the weekend',
    category: 'past events',
    turns: [
      ['D', 'We drove up to Noosa on the weekend, which was gorgeous, till we got a flat near Gympie.'],
      ['S', "Oh no! What'd you do?"],
      ['D', 'Some bloke from the servo changed it for us in about ten minutes. Absolute legend.'],
    ],
    items: [],
  },
  {
    probe: '"I was going to ring you last week, but…" (a past intention)',
    category: 'past events',
    turns: [
      ['D', "I was going to ring you last week, actually, but then I saw on the website that it'd been sorted."],
      ['S', 'Yeah, we got the system back up on Thursday night.'],
      ['D', 'Good.'],
    ],
    items: [],
  },

  // ───────────────────────────── hedge or wish ─────────────────────────────
  {
    probe: '"we should grab a coffee sometime" — "definitely"',
    category: 'hedge or wish',
    turns: [
      ['S', "We should grab a coffee sometime, it's been ages."],
      ['D', "Definitely, we should. Life's just so mad at the moment."],
      ['S', 'Tell me about it.'],
    ],
    items: [],
  },
  {
    probe: '"I\'ll think about it" to a three-year contract',
    category: 'hedge or wish',
    turns: [
      ['S', 'So would you be interested in the three-year contract? It works out cheaper per month.'],
      ['D', "Hmm, I'll think about it. I'm not sure we'll still be here in three years, to be honest."],
      ['S', "That's fair."],
    ],
    items: [],
  },
  {
    probe: 'American "I\'d love to, maybe when things calm down"',
    category: 'hedge or wish',
    turns: [
      ['S', 'You should totally come see the new office at some point.'],
      ['D', "Oh, I'd love to. Maybe when things calm down a bit."],
      ['S', 'For sure.'],
    ],
    items: [],
  },
  {
    probe: 'wish: "it\'d be nice to do the walk again next year"',
    category: 'hedge or wish',
    turns: [
      ['D', "It'd be nice to do the charity walk again next year, wouldn't it?"],
      ['S', 'Oh, it would. If my knees hold out!'],
      ['D', 'Ha, mine too.'],
    ],
    items: [],
  },
  {
    probe: '"I\'m toying with the idea… I\'ll mull it over"',
    category: 'hedge or wish',
    turns: [
      ['D', "I'm toying with the idea of switching to paperless billing, but I haven't decided."],
      ['S', "Okay, well, it's there if you want it."],
      ['D', "Mm. I'll mull it over."],
    ],
    items: [],
  },

  // ───────────────────────────── turned down ─────────────────────────────
  {
    probe: '"could you waive the admin fee?" — "I\'m afraid I can\'t"',
    category: 'turned down',
    turns: [
      ['D', 'Is there any chance you could waive the twenty-five pound admin fee? It was your system that double-booked me.'],
      ['S', "I'm really sorry, I'm afraid I can't do that, the fee's set by head office and I can't override it."],
      ['D', 'Right. Well, I had to ask.'],
    ],
    items: [],
  },
  {
    probe: 'American refund refused: "we\'re past the cancellation window"',
    category: 'turned down',
    turns: [
      ['D', 'Is there any way I can get a refund on the tickets? My flight got changed.'],
      ['S', "Unfortunately those were non-refundable, and we're past the cancellation window, so there's nothing I can do there."],
      ['D', 'Ugh, okay. Figured it was a long shot.'],
    ],
    items: [],
  },
  {
    probe: 'Irish "ah no, I won\'t be able to hold the room"',
    category: 'turned down',
    turns: [
      ['D', 'Would you be able to hold the room till Friday without a deposit?'],
      ['S', "Ah no, I won't be able to do that, I'm sorry. We've a waiting list for that weekend."],
      ['D', 'Fair enough, no bother.'],
    ],
    items: [],
  },
  {
    probe: 'the user turns down coming in on Friday to sign',
    category: 'turned down',
    turns: [
      ['S', 'Would you be able to come in on Friday to sign the paperwork in person?'],
      ['D', "No, I'm sorry, Friday's impossible, I'm away from tomorrow. I can't do it."],
      ['S', 'Okay, understood.'],
    ],
    items: [],
  },
  {
    probe: 'minimum order not waived; the user drops it',
    category: 'turned down',
    turns: [
      ['D', 'Could you waive the minimum order just this once? We only need twenty.'],
      ['S', "I'm sorry, I can't go under fifty units, the system won't let me."],
      ['D', "Okay, we'll leave it then. Thanks anyway."],
    ],
    items: [],
  },

  // ───────────────────────────── wrong number, no agreement ─────────────────────────────
  {
    probe: 'wrong number: the user meant the dentist',
    category: 'wrong number, no agreement',
    turns: [
      ['S', "Diane? Sorry, I don't think I know a Diane."],
      ['D', 'Oh, is this not Hartley Dental?'],
      ['S', 'No, love, this is a private number.'],
      ['D', "Oh gosh, I'm so sorry. Wrong number."],
      ['S', 'No harm done. Bye.'],
    ],
    items: [],
  },
  {
    probe: 'the line breaks up before anything is said',
    category: 'wrong number, no agreement',
    turns: [
      ['D', 'So I was ringing about the... the order for next...'],
      ['S', "Sorry, Diane, you're really breaking up, I can only hear every other word."],
      ['D', 'Hello? Can you hear me now?'],
      ['S', "Hello? ... No, I've lost you."],
    ],
    items: [],
  },
  {
    probe: 'the user hesitates over the price: "let\'s just leave it for now"',
    category: 'wrong number, no agreement',
    turns: [
      ['D', 'So I was thinking about the bigger van, but honestly, the price has thrown me a bit.'],
      ['S', 'It is a big jump, I know.'],
      ['D', "Yeah. Look, let's just leave it for now."],
      ['S', 'Okay, no problem at all.'],
    ],
    items: [],
  },
  {
    probe: 'haggling that ends with no deal',
    category: 'wrong number, no agreement',
    turns: [
      ['S', 'The best I can do is four hundred and twenty.'],
      ['D', "That's still way over what we've got, to be honest."],
      ['S', "Then I don't think we can make it work this time."],
      ['D', "No, I don't think so either. Never mind."],
    ],
    items: [],
  },
  {
    probe: 'a missed call from the switchboard that nobody here made',
    category: 'wrong number, no agreement',
    turns: [
      ['S', "Diane, hi. Were you returning my call? I didn't ring you, I don't think."],
      ['D', 'Oh, I had a missed call from this number this morning.'],
      ['S', "That'll have been the main switchboard, it shows the same number for everyone. I've no idea who it was, sorry."],
      ['D', 'Ah, never mind then. Sorry to bother you.'],
    ],
    items: [],
  },

  // ───────────────────────────── future, nobody's task ─────────────────────────────
  {
    probe: '"the branch reopens on Monday at nine" after a refit',
    category: "future, nobody's task",
    turns: [
      ['S', 'Just so you know, the Kingsway branch is shut for the refit, but it reopens on Monday at nine.'],
      ['D', 'Oh, okay. Good to know.'],
    ],
    items: [],
  },
  {
    probe: 'bus route change from Monday the ninth',
    category: "future, nobody's task",
    turns: [
      ['S', "From Monday the ninth, the number forty-two bus won't go down Station Road any more, it'll turn off at the roundabout."],
      ['D', "Oh, that's annoying. That's my stop."],
      ['S', 'Yeah, a lot of people have complained.'],
    ],
    items: [],
  },
  {
    probe: 'clocks go forward on the twenty-ninth, shuttle starts at eight',
    category: "future, nobody's task",
    turns: [
      ['S', 'The clocks go forward on the twenty-ninth, so from then the shuttle bus starts at eight instead of half seven.'],
      ['D', "Oh, right, I'd forgotten about the clocks."],
    ],
    items: [],
  },
  {
    probe: 'Indian "from first April the maintenance charges will be revised"',
    category: "future, nobody's task",
    turns: [
      ['S', "Ma'am, from first April the maintenance charges will be revised to three rupees per square foot."],
      ['D', "Oh, it's increasing again?"],
      ['S', "Yes ma'am, the society committee decided it last month."],
    ],
    items: [],
  },
  {
    probe: 'Australian "school holidays kick off on the third of April"',
    category: "future, nobody's task",
    turns: [
      ['S', "Just a heads up, school holidays kick off on the third of April, so the pool's going to be chockers."],
      ['D', 'Ugh. Good to know.'],
    ],
    items: [],
  },
];
