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
 * 120 dialogues were written together and split by alternation into the half in
 * ./dialogueBatteryQuiet.ts and this held-out half, a judge (of the same writer, so a weaker test
 * of generalising): never read while changing the analyser and run by no test; its figures are
 * printed by category, its failures only with `--show-held-out`.
 */
import type { BatteryDialogue } from './dialogueBattery.js';

export const dialogueBatteryQuietHeldOut: BatteryDialogue[] = [
  // ───────────────────────────── already done ─────────────────────────────
  {
    probe: 'address changed while the user waits: "right, that\'s all updated"',
    category: 'already done',
    turns: [
      ['D', "I need to change the address on my account, it's forty-two Mortimer Street now."],
      ['S', 'Okay, let me pull that up. Is the postcode changing as well?'],
      ['D', 'No, same postcode.'],
      ['S', "Lovely... right, that's all updated for you now, so everything from today goes to Mortimer Street."],
      ['D', 'Perfect, thanks Sheila.'],
    ],
    items: [],
  },
  {
    probe: 'balance paid by card during the call: "that\'s gone through"',
    category: 'already done',
    turns: [
      ['S', 'So the balance is two hundred and eighteen pounds fifty. Would you like to pay that over the phone now?'],
      ['D', "Yes please, let's just get it done. It's the card ending four four one nine."],
      ['S', "Thank you. And that's... yep, that's gone through, so you're at a zero balance."],
      ['D', 'Brilliant, one less thing to worry about.'],
    ],
    items: [],
  },
  {
    probe: 'Indian "I have already shared it, kindly check once", checked on the call',
    category: 'already done',
    turns: [
      ['D', 'Hi Sheila, just checking whether the updated price list is ready?'],
      ['S', 'Yes, yes, I have already shared it to your mail itself, around nine fifteen. Kindly check once.'],
      ['D', "Oh, one second... yes, I've got it. Thanks."],
      ['S', "Welcome, ma'am."],
    ],
    items: [],
  },
  {
    probe: 'invoice chased but the user paid it on Monday',
    category: 'already done',
    turns: [
      ['S', "Um, I've got a note here that the March invoice is still outstanding?"],
      ['D', 'Oh, no, I paid that on Monday, actually. Three hundred and forty pounds by bank transfer.'],
      ['S', "Ah, yes, I see it now, it just hadn't been matched up. Okay, that's cleared."],
      ['D', 'Great.'],
    ],
    items: [],
  },
  {
    probe: 'a message the user asks to pass on was passed on before the call',
    category: 'already done',
    turns: [
      ['D', 'Could you tell Marcus the meeting room has changed?'],
      ['S', "Already done, actually. I mentioned it to him when he came in at nine, so he knows it's the Oak Room."],
      ['D', "Oh, you're a star."],
    ],
    items: [],
  },

  // ───────────────────────────── facts only ─────────────────────────────
  {
    probe: 'delivery status: out for delivery today between one and three',
    category: 'facts only',
    turns: [
      ['S', "Okay, so I can see it's on the van now, it's out for delivery today and the window is between one and three."],
      ['D', 'Oh, so it is actually coming today.'],
      ['S', "Yep, you're the eleventh drop on his route."],
      ['D', 'Okay, great.'],
    ],
    items: [],
  },
  {
    probe: 'returns policy stated, the user is still within it',
    category: 'facts only',
    turns: [
      ['S', "Our policy's thirty days from purchase with the receipt, and it has to be unused, in the original packaging."],
      ['D', 'Right, and it was bought on the tenth of February, so...'],
      ['S', "So you're still within it, yeah."],
      ['D', 'Okay, good.'],
    ],
    items: [],
  },
  {
    probe: 'train times read out: every twenty minutes, last one at eleven forty',
    category: 'facts only',
    turns: [
      ['S', "So the trains from Leeds to York are every twenty minutes until seven, then it's every half hour, and the last one's at eleven forty."],
      ['D', "Oh, that's later than I thought."],
    ],
    items: [],
  },
  {
    probe: 'the user states her working days as facts',
    category: 'facts only',
    turns: [
      ['D', "Just so you know, I'm only in the office Mondays and Thursdays now, the rest of the week I'm working from home."],
      ['S', "Ah, okay, that's handy to know."],
      ['D', 'Yeah, and I finish at three on Thursdays.'],
      ['S', 'Right you are.'],
    ],
    items: [],
  },
  {
    probe: 'savings rate and notice period stated',
    category: 'facts only',
    turns: [
      ['S', "So the rate on that account is three point two percent, variable, and there's no fee, but withdrawals need thirty days' notice."],
      ['D', 'Thirty days, okay.'],
      ['S', "That's right."],
    ],
    items: [],
  },

  // ───────────────────────────── offer not taken up ─────────────────────────────
  {
    probe: '"I could ring you back this afternoon?" — "no need, honestly"',
    category: 'offer not taken up',
    turns: [
      ['S', "I'm not sure about the colours, to be honest. I could ring you back this afternoon once I've checked with the warehouse?"],
      ['D', 'Oh, no need, honestly. It was only out of curiosity.'],
      ['S', 'Okay, fair enough.'],
    ],
    items: [],
  },
  {
    probe: 'offer left open: "the offer\'s there, no pressure"',
    category: 'offer not taken up',
    turns: [
      ['S', "If you ever want us to come and measure up, the offer's there, and it's free."],
      ['D', "Thanks, that's good to know."],
      ['S', 'No pressure at all.'],
    ],
    items: [],
  },
  {
    probe: 'Irish offer to drop the keys round on Friday, declined',
    category: 'offer not taken up',
    turns: [
      ['S', 'Would you like me to drop the keys round to you on Friday?'],
      ['D', "Ah no, you're grand. Sure I don't need them till April."],
      ['S', 'Right so.'],
    ],
    items: [],
  },
  {
    probe: 'offer of a follow-up next Tuesday left: "let\'s leave it for now"',
    category: 'offer not taken up',
    turns: [
      ['S', 'Do you want me to book you in for a follow-up next Tuesday?'],
      ['D', "Um, let's leave it for now, actually, and see how it settles."],
      ['S', "Okay, that's fine."],
    ],
    items: [],
  },
  {
    probe: 'the user offers to transfer a deposit today; not needed',
    category: 'offer not taken up',
    turns: [
      ['D', 'Do you want me to pay a deposit to hold it? I can transfer it today.'],
      ['S', "No, honestly, there's no need. We don't take deposits from repeat customers."],
      ['D', 'Oh, lovely, even better.'],
    ],
    items: [],
  },

  // ───────────────────────────── question answered ─────────────────────────────
  {
    probe: '"has my prescription gone through yet?" — yes, yesterday',
    category: 'question answered',
    turns: [
      ['D', "Hi, I was just wondering whether my prescription's gone through to Boots yet?"],
      ['S', 'Let me have a look... yes, Doctor Marsh signed it off yesterday afternoon and it went electronically.'],
      ['D', 'Oh, brilliant.'],
    ],
    items: [],
  },
  {
    probe: 'next free slot asked "just out of interest", nothing booked',
    category: 'question answered',
    turns: [
      ['D', "When's your next free slot for a cut and blow-dry, just out of interest?"],
      ['S', 'Um, the earliest would be Friday at ten past four with Chloe.'],
      ['D', "Okay, thanks, that's useful to know."],
    ],
    items: [],
  },
  {
    probe: '"do I need to send you a copy of my passport?" — "no, nothing"',
    category: 'question answered',
    turns: [
      ['D', 'Do I need to send you a copy of my passport or anything?'],
      ['S', "No, nothing like that, we've already got everything we need from you."],
      ['D', 'Oh good.'],
    ],
    items: [],
  },
  {
    probe: '"how much is left on the gift card?"',
    category: 'question answered',
    turns: [
      ['D', 'How much have I got left on the gift card?'],
      ['S', "You've got thirty-seven pounds twenty left, and it's valid until the end of December."],
      ['D', 'Oh, more than I thought.'],
    ],
    items: [],
  },
  {
    probe: '"do I have to ring the insurers?" — "no, it goes across automatically"',
    category: 'question answered',
    turns: [
      ['D', 'Do I have to ring the insurance people to tell them about the new car?'],
      ['S', "No, you don't, it's all linked. Once the policy's updated on our side it goes across to them automatically, and that's already been done."],
      ['D', "Oh, that's a relief."],
    ],
    items: [],
  },

  // ───────────────────────────── advice for if ─────────────────────────────
  {
    probe: 'router restart suggested and done on the call',
    category: 'advice for if',
    turns: [
      ['S', 'Have you tried turning the router off at the wall for about thirty seconds?'],
      ['D', "No... hang on, I'm doing it now... okay, it's off... and back on... oh, the lights have gone green."],
      ['S', 'Brilliant, so you should be back online.'],
      ['D', "Yeah, it's working. Thanks."],
    ],
    items: [],
  },
  {
    probe: 'scam warning: "if anyone rings asking for your PIN, just hang up"',
    category: 'advice for if',
    turns: [
      ['S', "Just so you know, we'll never ring you and ask for your PIN, so if anyone does, just hang up."],
      ['D', 'Yeah, no, I know. My dad had one of those calls last month.'],
      ['S', "They're getting really clever."],
    ],
    items: [],
  },
  {
    probe: 'Indian "if OTP does not come, you can try after some time" — it comes',
    category: 'advice for if',
    turns: [
      ['S', "Sometimes there is delay in OTP, ma'am. If it does not come in two minutes, you can try after some time, or use the email option."],
      ['D', 'Okay, okay. Actually it has come now.'],
      ['S', "Very good, ma'am."],
    ],
    items: [],
  },
  {
    probe: 'Australian "if you see a snake, leave it be and ring the catcher"',
    category: 'advice for if',
    turns: [
      ['S', "Look, if you see one in the garden, just leave it be and ring the snake catcher, the number's on the council website."],
      ['D', "Oh god, I hope I don't."],
      ['S', "Nah, you'll be right, they're more scared of you."],
    ],
    items: [],
  },
  {
    probe: 'care instructions: "wash them at thirty, don\'t tumble dry"',
    category: 'advice for if',
    turns: [
      ['S', "With the wool ones, wash them at thirty, inside out, and don't put them in the tumble dryer or they'll shrink."],
      ['D', "Oh, good job you said, I'd have chucked them straight in."],
    ],
    items: [],
  },

  // ───────────────────────────── courtesy and small talk ─────────────────────────────
  {
    probe: '"let me know if you need anything at all"',
    category: 'courtesy and small talk',
    turns: [
      ['S', 'Well, you know where I am. Let me know if you need anything at all.'],
      ['D', "Thanks, Sheila, that's really kind."],
      ['S', 'Take care of yourself.'],
    ],
    items: [],
  },
  {
    probe: 'American sign-off: "have a good one" — "you too"',
    category: 'courtesy and small talk',
    turns: [
      ['D', 'Okay, I think that is everything. Thanks so much for your help.'],
      ['S', 'No problem at all. Have a good one!'],
      ['D', 'You too, bye.'],
    ],
    items: [],
  },
  {
    probe: 'small talk about Easter plans',
    category: 'courtesy and small talk',
    turns: [
      ['S', 'Are you going anywhere nice for Easter?'],
      ['D', "Just my sister's in Whitby for a few days. You?"],
      ['S', "Nowhere, we're having the kitchen done, so it'll be takeaways and dust."],
      ['D', 'Oh, lovely.'],
    ],
    items: [],
  },
  {
    probe: 'Indian festive greeting: "happy Holi, ma\'am"',
    category: 'courtesy and small talk',
    turns: [
      ['S', "Happy Holi, ma'am! Sorry, there is a lot of noise, everyone is playing colours outside."],
      ['D', 'Oh, happy Holi to you too! Sounds like fun.'],
      ['S', 'Yes, yes, my kids are completely pink already.'],
    ],
    items: [],
  },
  {
    probe: 'apology and thanks for the trouble',
    category: 'courtesy and small talk',
    turns: [
      ['D', "Sorry for being such a pain about all this, I know it's been a saga."],
      ['S', "Honestly, don't worry, it's what we're here for. Thanks for being so patient."],
      ['D', 'Ah, thanks. Have a lovely afternoon.'],
      ['S', 'You too.'],
    ],
    items: [],
  },

  // ───────────────────────────── received or automatic ─────────────────────────────
  {
    probe: 'closing statement generated by the system, "it just comes"',
    category: 'received or automatic',
    turns: [
      ['S', "Now that the account's closed, the system generates a closing statement automatically, so that'll land on your doormat in about seven to ten days."],
      ['D', "Okay, so I don't have to request it or anything."],
      ['S', 'No, nothing, it just comes.'],
    ],
    items: [],
  },
  {
    probe: 'American "your new card\'s gonna ship automatically"',
    category: 'received or automatic',
    turns: [
      ['S', "So your new card's gonna ship automatically about two weeks before the old one expires, so you'll have it before the end of the month."],
      ['D', 'Okay, cool. And the number stays the same?'],
      ['S', 'Same number, new expiration date and security code.'],
      ['D', 'Great.'],
    ],
    items: [],
  },
  {
    probe: 'Irish final bill generated and paid by direct debit, "nothing for me to do"',
    category: 'received or automatic',
    turns: [
      ['S', "The final bill gets generated automatically, probably the end of next week, and it'll just come out by direct debit after that."],
      ['D', 'Right, grand, so there is nothing for me to do.'],
      ['S', 'Nothing at all.'],
    ],
    items: [],
  },
  {
    probe: 'smart meter sends the readings on its own',
    category: 'received or automatic',
    turns: [
      ['D', 'Do you need me to send you a meter reading?'],
      ['S', "No, you've got a smart meter, so it sends the readings across on its own every half hour."],
      ['D', 'Oh, of course it does. Brilliant.'],
    ],
    items: [],
  },
  {
    probe: 'automatic confirmation email arrives during the call',
    category: 'received or automatic',
    turns: [
      ['S', "So that's the change made, and you'll get an automatic confirmation email in a minute or two."],
      ['D', "Oh, it's just pinged in now, actually."],
      ['S', 'Perfect.'],
    ],
    items: [],
  },

  // ───────────────────────────── past events ─────────────────────────────
  {
    probe: 'husband rang yesterday and it was fixed the same afternoon',
    category: 'past events',
    turns: [
      ['S', 'Did you ever get the boiler looked at?'],
      ['D', 'Yeah, Rob rang them yesterday and they came out the same afternoon. It was just the pressure.'],
      ['S', 'Oh, thank goodness for that.'],
    ],
    items: [],
  },
  {
    probe: 'Irish story about a wedding on Saturday',
    category: 'past events',
    turns: [
      ['S', 'How was the wedding on Saturday?'],
      ['D', "Ah, it was mighty. The band didn't stop till two, and my uncle Seamus fell asleep under the table."],
      ['S', 'Stop!'],
    ],
    items: [],
  },
  {
    probe: 'Indian "the meeting happened yesterday only, it was preponed"',
    category: 'past events',
    turns: [
      ['S', "Ma'am, the vendor meeting happened yesterday only, Ravi sir attended from our side."],
      ['D', 'Oh, I thought it was on Friday.'],
      ['S', "It was preponed, ma'am, they had some travel."],
      ['D', 'Okay, okay, no problem.'],
    ],
    items: [],
  },
  {
    probe: 'the landlord had the damp treated a fortnight ago',
    category: 'past events',
    turns: [
      ['D', 'Did the landlord ever get someone in for the damp?'],
      ['S', "He did, a firm called Dryzone came out a fortnight ago and treated the whole back wall. It's been fine since."],
      ['D', 'Oh, good.'],
    ],
    items: [],
  },
  {
    probe: 'a noise complaint the council dealt with in February',
    category: 'past events',
    turns: [
      ['S', 'I can see you complained about the noise back in January.'],
      ['D', "Yeah, but the council came out in the end and served them a notice, and it's been quiet since February."],
      ['S', "Oh, that's good, so you're sorted there."],
      ['D', 'Touch wood.'],
    ],
    items: [],
  },

  // ───────────────────────────── hedge or wish ─────────────────────────────
  {
    probe: '"I might pop in on Saturday if I\'m passing"',
    category: 'hedge or wish',
    turns: [
      ['D', "I might pop in on Saturday if I'm passing, I'm not sure yet."],
      ['S', "Okay, well, we're here till five if you do."],
      ['D', 'Okay.'],
    ],
    items: [],
  },
  {
    probe: '"we\'ll see, it depends" about a visit in April',
    category: 'hedge or wish',
    turns: [
      ['S', "Are you coming up for Mum's birthday in April?"],
      ['D', "We'll see. It depends whether Jack can get the time off."],
      ['S', 'Okay.'],
    ],
    items: [],
  },
  {
    probe: 'Irish "I might give her a ring, I don\'t know, I\'ll see"',
    category: 'hedge or wish',
    turns: [
      ['S', 'Siobhán might know someone who does the sash windows.'],
      ['D', "She might, yeah. I might give her a ring, I don't know. I'll see."],
      ['S', 'Sure look.'],
    ],
    items: [],
  },
  {
    probe: 'Indian "let us see" to a showroom visit "if time permits"',
    category: 'hedge or wish',
    turns: [
      ['S', "Ma'am, if time permits, maybe you can also visit our new showroom in Koramangala sometime."],
      ['D', "Let us see, I'm travelling quite a bit this month."],
      ['S', "No problem, ma'am, whenever convenient."],
    ],
    items: [],
  },
  {
    probe: 'Australian "maybe in the winter, we\'ll see how the budget goes"',
    category: 'hedge or wish',
    turns: [
      ['S', "You'll have to come down to Margaret River one of these days."],
      ['D', "Oh, I'd love that. Maybe in the winter, we'll see how the budget goes."],
      ['S', 'Yeah, no rush.'],
    ],
    items: [],
  },

  // ───────────────────────────── turned down ─────────────────────────────
  {
    probe: 'callback refused: "we don\'t make outbound calls"',
    category: 'turned down',
    turns: [
      ['D', "Could somebody ring me back when it's been looked at?"],
      ['S', "I'm afraid we don't make outbound calls from this department at all."],
      ['D', 'Oh. Okay then.'],
    ],
    items: [],
  },
  {
    probe: 'the user refuses to read out her card number',
    category: 'turned down',
    turns: [
      ['S', 'Could you just confirm your full card number for me?'],
      ['D', "No, sorry, I'm not doing that over the phone. I don't know who you are."],
      ['S', "That's absolutely fine, madam."],
    ],
    items: [],
  },
  {
    probe: 'Indian "not possible, ma\'am" to a Saturday delivery',
    category: 'turned down',
    turns: [
      ['D', 'Can you deliver it by Saturday itself?'],
      ['S', "Not possible, ma'am, sorry. Saturday, Sunday our warehouse is closed."],
      ['D', 'Okay, then leave it.'],
    ],
    items: [],
  },
  {
    probe: 'Australian "nah, no can do" to a cash discount',
    category: 'turned down',
    turns: [
      ['D', 'Any chance you could knock fifty bucks off for cash?'],
      ['S', 'Nah, no can do, sorry. Price is the price.'],
      ['D', 'Worth a shot.'],
    ],
    items: [],
  },
  {
    probe: "someone else's statement refused for data protection",
    category: 'turned down',
    turns: [
      ['D', "Could you forward me my husband's statement? He's at work."],
      ['S', "I'm afraid I can't, not without his permission. It's data protection."],
      ['D', 'No, I understand.'],
    ],
    items: [],
  },

  // ───────────────────────────── wrong number, no agreement ─────────────────────────────
  {
    probe: 'American wrong number: "this is Sheila Park, I\'m in Denver"',
    category: 'wrong number, no agreement',
    turns: [
      ['S', "Um, I think you might have the wrong number? This is Sheila Park, I'm in Denver."],
      ['D', "Oh my gosh, I'm so sorry. I was trying to reach Sheila at Acme."],
      ['S', 'No worries, happens all the time. Have a good day.'],
    ],
    items: [],
  },
  {
    probe: 'the Sheila the user wanted left the firm in January',
    category: 'wrong number, no agreement',
    turns: [
      ['D', 'Is that Sheila Grant, from the accounts team?'],
      ['S', "No, sorry, I'm Sheila Wood, in marketing. Sheila Grant actually left back in January."],
      ['D', "Oh, right. I didn't know that."],
      ['S', "Yeah, it's a bit confusing, two Sheilas."],
    ],
    items: [],
  },
  {
    probe: 'Irish wrong number: "you\'ve the wrong Sheila, pet"',
    category: 'wrong number, no agreement',
    turns: [
      ['S', "Diane who? I think you've the wrong Sheila, pet."],
      ['D', 'Oh no, is this not Sheila Moran in Galway?'],
      ['S', "It's not, no, I'm in Cork. Sure it's an easy mistake."],
      ['D', "I'm so sorry for bothering you."],
      ['S', 'Not at all. Good luck now.'],
    ],
    items: [],
  },
  {
    probe: 'Indian wrong extension, the line cannot transfer',
    category: 'wrong number, no agreement',
    turns: [
      ['S', "Ma'am, this is the HR department, you have reached the wrong extension."],
      ['D', 'Oh, sorry. I was looking for the transport desk.'],
      ['S', "That one is a different number altogether, ma'am, this line cannot transfer."],
      ['D', 'Okay, no problem, sorry to disturb.'],
    ],
    items: [],
  },
  {
    probe: 'Australian pocket dial at the footy',
    category: 'wrong number, no agreement',
    turns: [
      ['S', 'Oh, hi! Was that on purpose? I could just hear a crowd for a bit there.'],
      ['D', "Ha, no, sorry, I think I pocket-dialled you. I'm at the footy with the kids."],
      ['S', 'No worries. Enjoy the game.'],
      ['D', 'Cheers, see ya.'],
    ],
    items: [],
  },

  // ───────────────────────────── future, nobody's task ─────────────────────────────
  {
    probe: '"the standing charge is going up from the first of April"',
    category: "future, nobody's task",
    turns: [
      ['S', "The standing charge is going up from the first of April, it's going to be about fifty-eight pence a day."],
      ['D', 'Again? Honestly.'],
      ['S', "I know, it's across the board, everyone's putting them up."],
    ],
    items: [],
  },
  {
    probe: 'American "the portal\'s gonna be down Saturday night"',
    category: "future, nobody's task",
    turns: [
      ['S', "Heads up, the portal's gonna be down for maintenance Saturday night, from like ten p.m. to two a.m. Eastern."],
      ['D', "Okay, doesn't affect me, I'm never on it that late."],
      ['S', "Ha, yeah, most people won't even notice."],
    ],
    items: [],
  },
  {
    probe: 'Irish "a new manager is starting next Tuesday"',
    category: "future, nobody's task",
    turns: [
      ['S', "There's a new manager starting in the branch next Tuesday, a lad called Colm Byrne."],
      ['D', 'Oh right. What happened to Fiona?'],
      ['S', "She's gone to the Limerick branch."],
      ['D', 'Ah, fair play to her.'],
    ],
    items: [],
  },
  {
    probe: 'High Street closed next weekend, the market moves to the car park',
    category: "future, nobody's task",
    turns: [
      ['S', "Oh, and the High Street's closed next weekend for the resurfacing, so the market's moving to the car park."],
      ['D', "Ah, right. At least it's still on."],
    ],
    items: [],
  },
  {
    probe: 'the warranty runs out at the end of the month',
    category: "future, nobody's task",
    turns: [
      ['S', 'Your warranty on the washing machine runs out at the end of the month, by the way.'],
      ['D', "Does it? Gosh, that's gone quickly. It's been fine, though, touch wood."],
      ['S', 'Good, hopefully it stays that way.'],
    ],
    items: [],
  },
];
