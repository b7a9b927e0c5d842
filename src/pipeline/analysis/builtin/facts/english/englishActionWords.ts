import type { ActionWords } from '../ActionWords.js';
import { anyOfWords } from '../../../text/regexWords.js';
import { englishPeopleWords } from './englishPeopleWords.js';

/** An apostrophe as transcribers write it: straight or typographic. */
const A = "['’]";

/** A capitalised name word ("Priya", "O'Brien"). */
const NAME = "\\p{Lu}[\\p{Ll}'’-]+";
/** A word whose first letter may be a capital (it may open the sentence), the rest as written. */
const firstEitherCase = (word: string) => `[${word.charAt(0).toUpperCase()}${word.charAt(0)}]${word.slice(1)}`;
/**
 * Who acts for a party without being on the call: a role ("my colleague", "an engineer", "the
 * complaints team"), a title and name ("Dr. Patel"), or a full name ("Priya Shah"). Case-sensitive:
 * the names must be capitalised.
 */
const THIRD_PARTY = `(?:(?:${['my', 'our', 'your', 'their', 'his', 'her', 'the', 'an', 'a'].map(firstEitherCase).join('|')})\\s+(?:[\\p{Ll}-]+\\s+)?`
  // The name may follow as an aside: "our loss adjuster, Mark Fenwick, will ring you".
  + `(?:${anyOfWords([...englishPeopleWords.roles, 'team', 'department', 'office'])})(?:(?:\\s+${NAME}){1,2}|,\\s+${NAME}(?:\\s+${NAME})?,)?`
  + `|(?:${englishPeopleWords.titles.join('|')})\\.?\\s+${NAME}|${NAME}\\s+${NAME}`
  // "Someone will call you", "one of our engineers will ring you": someone not on the call, unnamed.
  + `|${firstEitherCase('someone')}|${firstEitherCase('somebody')}`
  + `|${firstEitherCase('one')} of (?:our|the|their|my|your)\\s+(?:[\\p{Ll}-]+\\s+)?(?:${anyOfWords([...englishPeopleWords.roles, 'team'])})s?)`;

/** Nouns that name an appointment of its own, in the order a headline prefers them. */
const APPOINTMENT_NOUNS = [
  'meeting', 'appointment', 'session', 'interview', 'consultation', 'visit', 'catch-up', 'catch up', 'conference', 'check-up',
  'checkup', 'recheck', 'review', 'hearing test', 'eye test', 'inspection', 'viewing', 'fitting', 'assessment',
];

/**
 * A thing put in somewhere ("put it in her book bag", "pop the form in the post"): no one put in a
 * diary ("put you in the afternoon list" is one; so is anything put "in the diary").
 */
const THING_PUT_IN = /(?:it|that|this|them|those|these|(?:the|a|an|my|your|his|her|their|our) [a-z-]+(?: [a-z-]+)?) in (?!(?:the|your|my|our) (?:diary|calendar)\b)(?:the|a|an|my|your|his|her|their|our|its)\b/;

/** Action cues of English calls. */
/** Organisations one rings ("the insurance", "the council"): what "call them" stands for when the call just named one. */
const CALLED_BODIES = [
  'insurance', 'insurer', 'bank', 'council', 'surgery', 'practice', 'pharmacy', 'clinic', 'hospital', 'school', 'nursery', 'landlord',
  'agency', 'company', 'provider', 'supplier', 'lender', 'carrier', 'airline', 'garage', 'embassy', 'consulate', 'dmv', 'helpline', 'utility',
];

export const englishActionWords: ActionWords = {
  commitments: [
    new RegExp(`\\b(?:I${A}ll|I will|I${A}m going to|I am going to|I${A}m gonna|I shall)\\s+(?<clause>.+)`, 'i'),
    // "I can have it ready by Friday": a promise; "I can" alone is only ability.
    /\bI (?:can|could) (?<clause>have\s.+)/i,
    // "I'll see if I can get you a discount": a promise to try.
    new RegExp(`\\b(?:I${A}ll|I will|let me) see if (?:I|we) can (?<clause>\\p{L}.+)`, 'iu'),
    // "I won't be able to send the report until Monday": the deed on the day it becomes possible.
    new RegExp(`\\b(?:I|we) (?:won${A}t be able to|will not be able to|can${A}t|cannot) (?<clause>\\p{L}.+?\\s(?:until|till)\\s.+)`, 'iu'),
    // "I should be able to have it made up for you by Friday": a hedged promise is still one.
    // "I should have known" is no promise: "have" only after "be able to".
    /\bI should (?:be able to (?!be\b)|(?!be\b|have\b))(?<clause>\p{L}.+)/iu,
    new RegExp(`\\b(?:we${A}ll|we will|we${A}re going to|we are going to)\\s+(?<clause>.+)`, 'i'),
    /\blet me\s+(?!know\b)(?<clause>.+)/i,
    // "What I'll do is send you a link": the promise is what follows "is".
    new RegExp(`\\bwhat (?:I|we)(?:${A}ll| will| can| could|${A}m going to| am going to) do is(?: to)?\\s+(?<clause>.+)`, 'i'),
    // "Leave it with me": taking on what was just asked.
    /\b(?<clause>leave (?:it|that|this) with (?:me|us)\b.*)/i,
    new RegExp(`\\bI (?:need|have|${A}ve got|must|ought) to\\s+(?<clause>.+)`, 'i'),
    // A booking made on the line: "I've booked you in for Friday at ten", "I've moved her to
    // Tuesday", "you're all booked in with Dr Shah for Monday": a slot the speaker's side now
    // holds, as much an appointment as "I'll book you in" (read with its base verb, see `rewrites`).
    // Case-sensitive: the one booked is a pronoun or a capitalised name ("I've put the fee on hold" is no booking).
    new RegExp(`\\b(?:I|[Ww]e)(?:${A}ve| have)(?: now| just| also| gone ahead and)? (?<clause>(?:booked|pencil+ed|put|moved|rebooked|rescheduled|squeezed|popped|fitted)\\s+(?:you|her|him|them|\\p{Lu}\\p{Ll}+)\\b.+)`, 'u'),
    new RegExp(`\\b(?:you${A}re|you are|that${A}s you|you${A}ve been|(?:she|he)${A}s|(?:she|he) is)(?: all| now)? (?<clause>booked in\\b.+)`, 'i'),
    // "I've got you down for Monday at nine", "we've got her in for the tenth".
    // "So that's a table for eight next Friday at seven thirty": a reservation read back is made.
    new RegExp(`^(?:(?:so|right|okay|ok|perfect|lovely|great|brilliant)[,\\s]+)*that(?:${A}s| is) (?<clause>(?:a|an|your) (?:[\\p{L}-]+ ){0,2}?(?:table|booking|reservation)\\b.*\\bat\\b.+)`, 'iu'),
    new RegExp(`\\b(?:I|we)(?:${A}ve| have) (?:now |just )?got (?<clause>(?:you|her|him|them) (?:booked )?(?:in|down) (?:for|on|at|with)\\b.+)`, 'i'),
  ],
  offers: [
    /\b(?:shall|should) I(?: just)?\s+(?<clause>.+\?)\s*$/i,
    // "Can I call you back tomorrow?" offers something to the other party; "can I still print there?" only asks.
    /\b(?:can|could) I(?: just)?\s+(?<clause>(?=.*\byou(?:r)?\b).+\?)\s*$/i,
    new RegExp(`\\b(?:do you want|would you like|d${A}you want|you want|want) me to\\s+(?<clause>.+)`, 'i'),
    new RegExp(`\\bI (?:can|could) (?<clause>.+?),?\\s+if you (?:like|want|prefer|${A}d like|would like)\\b`, 'i'),
  ],
  // "Do", "see", "try": a slot or a look offered ("I could do Monday at half eight?"), not a deed.
  proposals: [/\bI (?:could|can)(?: just)?\s+(?!do\b|see\b|try\b|look\b|check\b)(?<clause>.+\?)\s*$/i],
  notOffered: ['have', 'get', 'take', 'ask', 'grab', 'confirm', 'check', 'verify', 'speak', 'talk', 'help', 'go', 'come', 'see', 'look', 'just', 'put', 'leave', 'bring'],
  requests: [
    // "Will you be bringing a cake?" asks about a plan, not for a favour.
    /\b(?:could|can|would|will) you(?: please)?\s+(?!be\s+\p{L}+ing\b)(?<clause>.+)/iu,
    /\bif you (?:could|can|would)(?: please)?\s+(?<clause>.+)/i,
    // "Please can you send …", "Kindly share the documents" (Indian English): the favour after the courtesy.
    /\b(?:please|kindly),?\s+(?:(?:can|could|would|will) you\s+)?(?<clause>.+)/i,
    new RegExp(`\\b(?:I|we)(?:${A}d|${A}ll| would| will|${A}m going to| am going to|${A}re going to| are going to)? (?:need|like|want) you to\\s+(?<clause>.+)`, 'i'),
    // "All you need to do is sign the form", "the only thing you need to do is …".
    new RegExp(`\\b(?:all|what|the only thing|the one thing) you(?:${A}ll| will)? (?:need|have) to do is(?: to)?\\s+(?<clause>.+)`, 'i'),
    // "Would you mind sending …" (the clause's -ing verb is read as its base), "can I get you to …", "any chance you could …".
    /\b(?:would|do) you mind(?: (?:just|maybe))?\s+(?<clause>.+)/i,
    /\b(?:can|could) I (?:get|ask) you to\s+(?<clause>.+)/i,
    /\bany chance you (?:could|can|would)\s+(?<clause>.+)/i,
    /\b(?:make sure|be sure) (?:you|to)\s+(?<clause>.+)/i,
    new RegExp(`\\byou(?: should| must| need to| have to|${A}ll (?:need|have) to| will (?:need|have) to|${A}d better)\\s+(?<clause>.+)`, 'i'),
    new RegExp(`\\b(?:don${A}t|do not) forget to\\s+(?<clause>.+)`, 'i'),
    /^(?:and\s+)?remember to\s+(?<clause>.+)/i,
    // The clause keeps "let me know": the title says whom to tell ("Let Diane know whether …").
    /\b(?<clause>let me know\b.+)/i,
  ],
  selfReminders: [/^(?:(?:and|so|oh|just)\s+)*remind me (?:to|about)\s+(?<clause>.+)/i],
  joint: [
    new RegExp(`\\blet${A}?s\\s+(?<clause>.+)`, 'i'),
    new RegExp(`\\bwe (?:need|have|should|must|ought|${A}ve got) to\\s+(?<clause>.+)`, 'i'),
    /\bwe (?:should|must)\s+(?<clause>.+)/i,
    /\b(?:someone|somebody) (?:(?:needs|has|ought) to|should|must)\s+(?<clause>.+)/i,
    /\b(?:can|could|shall|should) we\s+(?<clause>.+)/i,
  ],
  // "from our pharmacy team" may stand between the person and "will"; "I'll ask Dr. Patel to …" is the speaker's own promise.
  // "my colleague Raj can. *He'll* ring you this afternoon": a third party the turn named, as "he" or "she".
  thirdPartyPronouns: new RegExp(`^(?:(?:and|so|then)\\s+)?(?:he|she)(?:${A}ll| will| is going to)\\s+(?<clause>.+)`, 'i'),
  thirdParties: [
    new RegExp(`\\b${THIRD_PARTY}(?:\\s+from\\s+(?:the|our|your|their)(?:\\s+[\\p{L}-]+){1,3})?\\s+(?:will|is going to|${A}ll)\\s+(?<clause>.+)`, 'u'),
    // "You should expect a call from the surveyor on Monday to arrange access": the surveyor's call.
    /\b(?:you(?:['’]ll| will| should| can| may)\s+)?(?:expect|be expecting|look out for)\s+(?:a|an)\s+(?<clause>(?:call|phone call|ring|visit)\s+from\s+(?:the|your|our|their|a|an)\s+\p{L}.+)/iu,
  ],
  namedPersonWill: `(?:will|is going to|${A}ll)`,
  // The condition opens the sentence (after at most one lead-in: "In the meantime, if …, please …"), not "let me know if …, and could you …".
  condition: /^(?:[^,.!?]+,\s*)?(?:if|in case|should you|whenever|unless)\b[^.!?]*,\s*(?:(?:just|then|so|please)\s+)*$/i,
  conditionLead: /^\s*(?:(?:and|but|so|or|oh|well|um|uh|er|erm)[,\s]+)*(?:if|unless|in case|whenever|even if)\s+$/i,
  dayOfAThing: /^['’]s\s+\p{L}/u,
  topicPreposition: /\b(?:about|regarding)\s+$/i,
  paymentAction: /^(?:pay|settle|transfer|make (?:the|a|an|my|your|our) (?:[\w-]+ )?payment|top up)\b/i,
  deedJoiner: /\s+and\s+(?:then\s+)?/,
  // Not "…, then." ("in that case": "I'll come pick it up once I get the text, then.") nor "by then" (a deadline).
  thenAtTheEnd: /(?<![,;]\s*|\b(?:by|before|until|till|since|and|but|so|okay|ok|right)\s+)\bthen[.!]*\s*$/i,
  vagueWhen: /\b(?:sometime|some time|at some point|one of these days|one day|someday|some day)\b/i,
  hedgedLead: /\b(?:maybe|perhaps)\b[^.!?]*$|\bI (?:might|may)(?: just)?\s+$/i,
  errandVerbs: ['go', 'come', 'pop', 'nip', 'swing', 'head', 'stop', 'run', 'get'],
  stepJoiner: /\b(?:and|and then|then)\s+(?!I\b|we\b)[a-z]+\b/i,
  contingency: new RegExp(
    `\\b(?:if|in case|should)\\s+(?:there${A}?s|there (?:is|are|were))\\s+(?:any|a)\\s+(?:problems?|issues?|changes?|delays?|hiccups?|trouble|questions?)\\b`
    + `|\\b(?:if|in case|should)\\s+(?:anything|something)\\s+(?:else\\s+)?(?:changes?|comes? up|crops? up|goes wrong|happens)\\b`
    + `|\\b(?:if|in case)\\s+(?:it|that|this|they)(?:${A}s|${A}re| is| are)\\s+(?:still\\s+)?not\\s+(?:fixed|sorted|resolved|working|better)\\b`
    + `|\\b(?:if|in case)\\s+(?:it|that|this)\\s+(?:doesn${A}t|does not|still doesn${A}t)\\s+(?:work|help|fix)\\b`
    + `|\\b(?:if|in case)\\s+you\\s+(?:have|get|need)\\s+(?:any|anything)\\b`,
    'i',
  ),
  conditionOpener: /^\s*(?:(?:and|but|so|or|oh|well|um|uh|er|erm)[,\s]+)*(?:if|unless|in case|whenever|even if)\b/i,
  advice: /\b(?:you (?:could|might|may) (?:always |also )?(?:try|want to|like to|wish to)|it(?:['’]s| is| might be| may be| would be) (?:worth|best to|a good idea to)|I(?:['’]d| would) (?:suggest|recommend|advise))\b/i,
  inCall: /^(?:just\s+)?(?:look(?:\s+(?:up|at)\b|\s*$)|find\b|see\b|(?:have|take) a (?:quick )?look\b|pull up\b|bring up\b|read (?:that|it|them|this) back\b)/i,
  // Due as the call ends: "right after this", "once we hang up", "in the next few minutes".
  immediacy: new RegExp(
    '\\b(?:right now|now(?=\\s*(?:[.,;!?]|$))|right away|straight away|immediately'
    + '|(?:straight |right |just |directly )?after (?:this call|the call|this(?=\\s*(?:[.,;!?]|$|(?:so|and|then)\\b))|(?:we|I) (?:hang up|finish|get off(?: the phone)?))'
    + '|(?:as soon as|once) (?:we|I) (?:hang up|finish|get off(?: the phone)?)|(?:as soon as|once) (?:I[\'’]m|I am|we[\'’]re|we are) off the phone'
    + '|in (?:the next |a )?(?:few|couple of) minutes|within the (?:next )?hour)\\b',
    'i',
  ),
  doneAsAsked: /\b(?:I['’]ll|I will|I can|I['’]m going to) (?:do|sort) (?:that|it|this|so)\b|\bwill do\b/i,
  // "by end of day" (not "end of day Friday"), "by lunchtime", "in an hour", "later", "in a while": later on the call's day.
  laterToday: new RegExp(
    '\\b(?:(?:by |before )?(?:the )?(?:end of (?:the )?(?:day|play)|close of (?:business|play)|(?:cob|eod)\\b)'
    + '(?!\\s+(?:on|tomorrow|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\\b)'
    + '|(?:by |before |at )?lunchtime(?: today)?|in (?:about |around |roughly )?(?:an|half an|a couple of|a few|one|two|three) hours?'
    // "I'll ring you back in a while", "I'll email it over later", "after lunch": later the same day.
    + '|in a (?:little )?(?:while|bit)|shortly|after lunch|later(?: on)?(?=\\s*(?:[.,;!?]|$|today\\b|and\\b)))\\b',
    'i',
  ),
  emptyObjectWords: [
    'it', 'that', 'this', 'them', 'those', 'these', 'something', 'anything', 'one', 'you', 'me', 'us', 'him', 'her', 'back', 'up', 'out', 'over',
    'in', 'on', 'off', 'into', 'at', 'to', 'with', 'for', 'about', 'again', 'later', 'sorted', 'done', 'fixed', 'finished', 'ready', 'through',
    // "Let's get that started", "we need to get that looked at", "I'll have a look at that too": nothing named to act on.
    'started', 'going', 'looked', 'too', 'also',
    // Times left in a title when they fix no day ("fix it this week").
    'today', 'tonight', 'tomorrow', 'now', 'soon', 'week', 'month', 'morning', 'afternoon', 'evening', 'next', 'the', 'a', 'an', 'please',
    // "Have a look", "have a think": nothing to act on until it says at what ("have a look at the brakes").
    'look', 'think', 'quick',
  ],
  thingPronouns: {
    singular: ['it'],
    plural: ['them', 'those', 'these'],
    demonstrative: ['that', 'this'],
    demonstrativeFollowers: /\s*$|[.,;!?]|\s+(?:to|by|on|in|over|back|off|out|up|for|at|with|before|after|today|tonight|tomorrow|now|then|later|first)\b/i,
  },
  anaphors: ['it', 'that', 'this', 'them', 'those', 'these', 'both', 'something', 'everything'],
  // Nouns that end in "ed" are none ("the signed deed", "the flower bed").
  resultParticiple: /^(?!(?:deed|need|seed|feed|speed|weed|tweed|creed|breed|bed|shed|sled|hundred)s?$)(?:\p{L}+ed|made|done|ready|built|sent|fitted|written|seen)$/u,
  genericVerbs: ['send', 'put', 'get', 'give', 'do', 'write', 'make', 'pass', 'hand', 'drop', 'bring', 'forward', 'have'],
  verbs: [
    'add', 'approve', 'arrange', 'ask', 'book', 'bring', 'buy', 'calculate', 'call', 'cancel', 'cc', 'chase', 'check',
    'circle', 'clarify', 'clear', 'collect', 'come', 'complete', 'confirm', 'connect', 'contact', 'copy', 'deliver', 'discuss',
    'double-check', 'draft', 'drop', 'e-mail', 'email', 'escalate', 'figure', 'file', 'finalise', 'finalize', 'find',
    'finish', 'fix', 'follow', 'forward', 'get', 'give', 'go', 'hand', 'handle', 'have', 'inform', 'install', 'introduce',
    'invoice', 'investigate', 'leave', 'let', 'lock', 'log', 'look', 'loop', 'mail', 'make', 'meet', 'message', 'move', 'note', 'notify', 'open', 'order',
    'organise', 'organize', 'pass', 'pay', 'pencil', 'phone', 'pick', 'ping', 'pop', 'post', 'postpone', 'push', 'prepare', 'print', 'process', 'provide',
    'purchase', 'put', 'quote', 'raise', 'reach', 'reboot', 'refund', 'register', 'reinstall', 'remind', 'renew', 'repair', 'replace', 'reply',
    'reschedule', 'reserve', 'respond', 'restart', 'return', 'review', 'ring', 'run', 'schedule', 'send', 'set', 'share', 'ship',
    'sign', 'sort', 'speak', 'submit', 'take', 'talk', 'tell', 'test', 'text', 'touch', 'transfer', 'update', 'upload', 'verify',
    'visit', 'whatsapp', 'write',
    // Office and counter work promised on everyday calls ("I'll fax a refill request over", "I'll
    // fill in the form", "I'll waive the fee", "I'll freeze the card").
    'apply', 'attach', 'block', 'credit', 'dispatch', 'fax', 'fill', 'flag', 'freeze', 'issue', 'mark', 'refer', 'reissue', 'request',
    'reset', 'scan', 'unblock', 'waive',
    // Visits made to judge or measure something ("an inspector will be out to assess it").
    'assess', 'inspect', 'measure', 'survey', 'value',
    // Goods and money let go once something is done ("I'll release the goods once the payment clears").
    'release',
    // Goods kept back for someone ("Shall I hold the sofa for you until Saturday?").
    'hold',
  ],
  // Not "bring", "swing", "ring": the base verbs themselves end in "ing".
  stateForm: /^\p{L}{3,}ing$/u,
  notDeeds: [
    'be', 'been', 'see', 'know', 'think', 'wait', 'hold', 'try', 'bet', 'miss', 'need', 'want', 'hope', 'guess', 'say', 'admit', 'manage',
    'live', 'survive', 'keep', 'use', 'like', 'love', 'enjoy', 'stay', 'sit', 'hang', 'stop', 'feel', 'hear', 'remember', 'forget', 'mention',
    'explain', 'believe', 'assume', 'expect', 'wonder', 'trust', 'mind', 'worry', 'leave', 'never', 'always', 'only', 'really', 'even', 'not',
    'still', 'just', 'own', 'owe', 'cope', 'struggle', 'lose', 'win', 'die', 'sleep', 'eat', 'drink', 'watch', 'listen',
    'accept', 'agree', 'probably', 'definitely', 'also', 'then', 'actually',
  ],
  promiseLead: new RegExp(`\\b(?:I|we)(?:${A}ll| will|${A}m going to| am going to|${A}re going to| are going to)\\s+$`, 'i'),
  imperativeVerbs: ['send', 'email', 'e-mail', 'call', 'ring', 'text', 'forward', 'give', 'drop', 'book', 'schedule', 'remind', 'whatsapp', 'message', 'put', 'pencil'],
  imperativeObjects: ['me', 'us', 'him', 'her', 'them', 'it', 'the', 'a', 'an', 'my', 'your', 'our', 'this', 'that', 'those', 'these', 'back', 'over', 'out', 'up', 'to', 'in'],
  imperativeLeads: ['and', 'so', 'just', 'also', 'oh', 'then', 'okay', 'ok', 'well', 'yes', 'yeah', 'sure', 'great', 'perfect', 'lovely', 'right', 'brilliant', 'fine'],
  acceptance: new RegExp(
    `^(?:(?:oh|um|uh|well|ok(?:ay)?|right|brilliant|lovely|great|perfect|cheers)[,.!\\s]+)*`
    + `(?:yes|yeah|yep|yup|sure|of course|absolutely|definitely|certainly|no problem|that works|that${A}s (?:fine|great|perfect|lovely|brilliant)|`
    + `sounds (?:good|great|perfect)|perfect|great|lovely|brilliant|fine|ok(?:ay)?|go on then|deal|will do|happy to|that would be (?:great|lovely|perfect|brilliant|helpful|a help)|`
    // "Oh, that would really help, thanks", "that'd be great".
    + `that(?:${A}d| would) (?:really |be a (?:big |real )?)?help|that${A}d be (?:great|lovely|perfect|brilliant|helpful)|`
    // "We will, of course.": a short yes said with the request's own auxiliary.
    + `(?:I|we) (?:will|can|shall|could)(?=[,.!]))\\b`,
    'i',
  ),
  refusal: new RegExp(
    `\\b(?:I${A}m afraid|afraid (?:not|we can${A}t|I can${A}t)|unfortunately|(?:I|we) can(?:${A}?not| not)|(?:I|we) can${A}t|won${A}t be able|(?:not |un)able to|`
    + `(?:has|have) to (?:go|be sent|come) (?:to|by)|rather not|instead|(?:not|n${A}t) (?:comfortable|happy) (?:doing|to)|`
    // A reply opening with a plain no ("No, I'm not comfortable doing that"), not "no problem" or "no worries".
    + `^(?:no|nope|nah)\\b(?![\\s,]+(?:problem|worries|bother|trouble|probs)))\\b`,
    'i',
  ),
  slotTurnedDown: new RegExp(`\\b(?:no good|(?:does|do|would|will)(?:n${A}t| not) (?:work|suit|do)|won${A}t (?:work|suit|do)|awkward|(?:I|we)(?: just)? can(?:not|${A}t| not) (?:do|make)|not (?:free|available)|busy|fully booked|booked up|gone|taken|cancel(?:led|ed|ling|ing)?)\\b`, 'i'),
  slotSaidByAParty: /\b(?:I|we|you|your|us|let['’]s|me|my|our|free|available|suits?|works?)\b/i,
  slotBookedOnTheLine: new RegExp(`\\b(?:(?:I|we)(?:${A}ve| have) (?:just |now )?(?:booked|moved|put|pencilled|penciled|popped|rescheduled|changed)|(?:you${A}re|you are) (?:all )?(?:booked|in|down)\\b)`, 'i'),
  slotOffer: new RegExp(`\\b(?:how about|what about|(?:can|could) you (?:do|make)|are you (?:free|around|available)|(?:I|we)(?:${A}ve| have) got|(?:I|we) (?:can|could) (?:do|fit|offer|see)|is (?:free|available|open)|are (?:free|available)|works? for|suits? you|would .{1,40} suit|let${A}s say|shall we say|(?:let${A}s|we could|shall we) (?:meet|make it|do))\\b`, 'i'),
  agreedSlotNoun: 'appointment',
  checkOnTheLine: {
    lead: /\blet me\s+(?:just\s+)?$/i,
    verb: /^(?:check|look|see)\b/i,
    resultAfterPause: /^(?:check|look|see)\b[^.!?…]{0,40}(?:\.{2,}|…|\s[-–—]\s)\s*\S/i,
  },
  holdOnTheLine: /\b(?:bear with me|(?:one|just a|give me a) (?:moment|sec(?:ond)?|minute)|(?:hold|hang) on(?! to\b)|while you['’]re (?:on|holding|waiting)(?: the (?:line|phone))?)\b/i,
  recordedOnTheLine: /^(?:log|note|record|cancel|mark|flag|update|amend|remove|add|make a note of|pop a note on|put a note on)\s+(?:that|this|it|those|them)(?:\s+(?:down|off|through|on (?:the|your) (?:file|system|account|record)))?(?:\s+for you)?\s+(?:now|right now|right away|straight away|as we speak|while (?:you|we)['’]re on the (?:phone|line))\b/i,
  doneInTheReply: /^(?:(?:of course|sure|certainly|absolutely|no problem|not a problem|yes|yeah|yep|okay|ok|right|done|all done|there we go|there you go)[,.!]?\s+)*(?:(?:I['’]ve|I have|we['’]ve|we have)\s+(?:just\s+|now\s+|already\s+)?(?:taken|removed|deleted|cancel(?:l)?ed|unsubscribed|logged|noted|updated|changed|amended|flagged|marked|added|replaced|sorted)\b|(?:all\s+)?done[.!]?$|(?:that['’]s|it['’]s|that is|it is)\s+(?:all\s+|now\s+)?(?:done|sorted|cancel(?:l)?ed|updated|changed|added)\b|(?:she|he|they|it)['’](?:s|re)\s+(?:on there|on it|added|in there|on the account)\s+now\b)/i,
  // "Let me just check. Yes, it's there": a check asked for, done while the other party waits.
  checkedInTheReply: /^(?:(?:of course|sure|okay|ok|right|yes|yeah)[,.!]?\s+)*(?:let me|I['’]ll just|I will just)\s+(?:just\s+)?(?:check|look|see|have a look)\b/i,
  statedNeedLead: /\bI (?:need|have|['’]ve got|want) to\s+$/i,
  statedPurpose: /\b(?:needs?|needed|(?:have|has|['’]ve|['’]s) (?:lost|broken|cracked|chipped)|lost (?:a|my|his|her|our|the)|broke|hoping to|(?:like|want|wants|wanted|looking)(?: (?:you|him|her|them|us))? to (?:book|get|make|see|bring|have|arrange|sit|come|talk|meet|pop)|(?:calling|ringing|phoning) (?:about|to|because|regarding)|due (?:for|an?)|runs? out)\b/i,
  conditionAnywhere: /\b(?:if|unless|in case|whenever)\b/i,
  bareBooking: /\s+(?:(?<particle>down|in)(?:\s+for\s+(?:that|it|this|then))?|for\s+(?:that|it|this|then))$/i,
  possessives: ['its'],
  arrangesAppointment: /\b(?:set up|book|arrange|sort out|find|make|fix)\s+(?:a|an|the)\s+(?:time|slot|date|day|appointment)\b/i,
  paymentVerb: 'pay',
  contextLabel: 'Context',
  bookedWithLabel: 'Booked with',
  // "You should get a letter from us", "you'll receive a text the day before": what arrives is not asked of them.
  receipt: /^(?:(?:have|get|receive) (?:it|them)\b(?!\s+(?:done|ready|sorted|signed|back|fixed|checked|filled|sent|to)\b)|(?:get|receive) (?:a|an|the|your|our|some) (?:[\p{L}-]+ )?(?:letter|e-?mail|text|call|message|confirmation|reminder|link|refund|parcel|package|invoice|bill|statement|reply|response|notification|code)s?\b)/iu,
  arrivalEstimate: /\b(?:it|they|that|these|those)(?:['’]ll| will| should| would)(?: normally| usually)? (?:be with you|arrive|get to you|reach you|land)\b[^.,;]*$/i,
  timeWindow: /\b(?:between\s+[\w:.]+(?:\s+(?:am|pm|a\.m\.|p\.m\.|o['’]clock))?\s+and\s+[\w:.]+(?:\s+(?:am|pm|a\.m\.|p\.m\.|o['’]clock))?|from\s+[\w:.]+(?:\s+(?:am|pm))?\s+(?:to|till|until)\s+[\w:.]+(?:\s+(?:am|pm))?)/i,
  // A thing put in somewhere ("put it in her book bag", "pop it in the post") is no one in a diary.
  // "Put it on her calendar for Wednesday at three thirty": a diary entry is a slot too.
  slotVerbs: new RegExp(`^(?:move|reschedule|rebook|put\\s+(?:it|that|this|you|him|her|them|\\p{Lu}\\p{Ll}+)\\s+(?:in|on|into)\\s+(?:the|her|his|my|our|your|their)\\s+(?:diary|calendar|schedule)|(?!\\S+\\s+${THING_PUT_IN.source})(?:put\\s+(?:\\S+\\s+){1,3}?(?:down|in)|(?:book|pencil|pop|fit|squeeze)\\s+(?:\\S+\\s+){1,3}?in)\\b(?!\\s+(?:the post|writing|touch)\\b))\\b`, 'i'),
  whQuestion: /\b(?:how(?: soon| long| quickly| early| late| much| many)?|when|what time|what day|where|why|which)\s+$/i,
  questionOpener: /^(?:do|does|did|what|when|where|why|how|who|which|is|are|am|will|would|should|shall|can|could|have|has)\b/i,
  datePrepositions: ['for', 'on', 'at', 'by', 'in', 'to', 'until', 'till', 'before', 'after', 'around', 'from', 'starting'],
  approximators: ['about', 'around', 'roughly', 'approximately', 'some'],
  objectEnd: /(?:^|\s+)(?:to|for|with|by|about|on|at|in|from|and|so)\s|[,;:]/i,
  recipientPreposition: 'to',
  objectStopWords: [
    'the', 'a', 'an', 'it', 'them', 'this', 'that', 'these', 'those', 'over', 'back', 'up', 'out', 'to', 'with', 'for', 'about',
    'on', 'in', 'some', 'all', 'my', 'your', 'our', 'their', 'his', 'her', 'me', 'you', 'us', 'him', 'again', 'later',
  ],
  auxiliaries: ['is', 'are', 'was', 'were', 'be', 'been', 'has', 'have', 'had', 'will', 'would', 'can', 'could', 'should', 'does', 'do', 'did'],
  danglingAfterDate: /\s+(?:before|after|beforehand|earlier|later|till|until)[\s.,;:?!]*$/i,
  // "I'll be sending it over": the verb is the -ing form after "be".
  progressiveAuxiliary: /^be\s+(?=[a-z]+ing\b)/i,
  leadingFillers: [
    'go ahead and', 'make sure to', 'make sure i', 'make sure we', 'try to', 'try and', 'have to', 'need to', 'be able to',
    'just', 'quickly', 'definitely', 'certainly', 'also', 'then', 'probably', 'actually', 'personally', 'first', 'still',
    'please', 'gladly', 'happily', 'now', 'maybe', 'and', 'so',
  ],
  clauseEnd: /\s+(?:because|since|so that|if|unless|just in case|in case|otherwise|as long as|when|whenever|once)\b|\s+(?:that|which|it)(?: would|['’]d)\b|[,;:]\s|\s+[-–—]\s|[.?!]+$/i,
  clauseSplit: new RegExp(
    `(?:[,;:]\\s*|\\s+(?=and\\s+(?:then\\s+)?(?:I|we|you)(?:\\b|${A})))`
    // A modal opens a new part only as a question to someone ("…, could you …"): "our adjuster, Mark, will ring you" is one.
    + `(?=(?:(?:and|but|so|then)\\s+)*(?:I\\b|I${A}|we\\b|we${A}|you\\b|(?:could|can|would|will)\\s+(?:you|we|I)\\b|please\\b|let\\b|let${A}s\\b|don${A}t\\b|remind\\b))`,
    'i',
  ),
  courtesies: new RegExp(
    `^(?:let me know if (?:you )?(?:have|need)|be honest|tell you (?:what|the truth)|see you|talk (?:to you )?(?:soon|later)|`
    + `speak (?:to you )?(?:soon|later)|let you (?:go|get (?:back|on|off))\\b|leave it there|leave (?:you|it|that|things) (?:to it|be|alone|there|for now|at that)\\b|leave (?:it|that) (?:for|until|till)\\b|keep it short|get going|have a (?:good|great|nice)|take care|`
    // "I'll take that (one)": taking a slot offered, not a task.
    + `(?:take|have) (?:that|it|this)(?: one)?[.!]?$|`
    // "Give my best to your mum": regards passed on, not a task.
    + `give (?:my|our|them my|her my|him my) (?:best|love|regards|thanks)\\b|`
    // "Give him a big hug from me": affection passed on.
    + `give (?:him|her|them|the kids|everyone|[A-Z][a-z]+) (?:a )?(?:big )?(?:hug|kiss|cuddle|squeeze)(?:es|s)?\\b|`
    // "Give it three to five working days": waiting, not a task.
    + `give (?:it|them|that|things) (?:[\\w-]+ ){0,4}?(?:days?|weeks?|hours?|minutes?|while|bit|moment|chance)\\b|`
    + `go (?:with|ahead)|do (?:it|that|this)\\b|see what happens|make it${A}?|(?:talk|speak) (?:to|with) you\\b|`
    // Questions answered in the call itself ("could you tell me your order number?").
    + `tell (?:me|us)\\b|give (?:me|us) (?:your|the) (?:name|number|email|address|details|reference|order number)\\b|`
    + `(?:repeat|spell) (?:that|it|your)\\b|hold on\\b|`
    // Security and identity checks answered on the line ("can you confirm the last four digits of the card?").
    + `(?:confirm|verify|check) (?:your|the) (?:[\\w-]+ ){0,3}?(?:name|digits|address|postcode|zip code|date of birth|security answer)\\b(?!.*\\b(?:by|in|via|over) (?:e-?mail|text|post|letter|writing)\\b)|`
    + `give (?:me|us) (?:a|one) (?:second|sec|moment|minute|min)\\b|`
    + `have (?:lunch|dinner|breakfast|a break|fun|a think|a (?:good|great|nice|lovely)\\b)|`
    // Weighing an offer up before deciding ("I'll need to talk it over with my partner"): no task
    // until it says what follows ("I'll ring you on Monday either way" is one).
    + `(?:talk|think|mull) (?:it|this|that|things) over\\b|sleep on it\\b|think about it\\b|`
    // Call handling and turns of phrase, not tasks ("let me put you on hold", "I have to go").
    + `(?:put|transfer) you (?:on hold|through)\\b|ask you (?:something|a question|a few questions)\\b|get (?:this|that) straight\\b|`
    // "I have to go" is leaving the call; "I'll go to the branch", "go and get her" are errands.
    + `go(?! (?:over|through|to|into|in|round|down|up|back|out|and)\\b))`,
    'i',
  ),
  determiners: ['the', 'a', 'an', 'my', 'your', 'our', 'his', 'her', 'their', 'this', 'that', 'these', 'those', 'some', 'any'],
  personObject: /(?<=\S\s+)\b(?:her|him)\b(?=\s*$|\s+(?:up|in|back|off|out|over|down|home|from|to|at|on|with|for|now|today|tonight|tomorrow|and|after|before)\b)/i,
  exclusiveWe: /\bwe(?:['’]ll| will)? (?:need|have|must|['’]ve got|ought) to\b(?=.*\byour?\b)/i,
  personTitle: new RegExp(`^(?:${englishPeopleWords.titles.join('|')})\\.?\\s`),
  notNames: englishPeopleWords.notNames,
  ditransitiveVerbs: ['send', 'email', 'e-mail', 'mail', 'give', 'forward', 'show', 'get', 'text', 'message', 'whatsapp', 'pass', 'hand', 'bring', 'drop', 'write'],
  rewrites: [
    { pattern: /^be in touch\b/i, replacement: 'get in touch' },
    // "I'll talk it over with my husband and give you a ring by Monday": weighing it up is no task, the ring is.
    { pattern: /^(?:talk|think|mull) (?:it|this|that|things) over(?: with [^,.;]+?)? and (?:then )?(?=\p{L})/iu, replacement: '' },
    // "If I don't hear from you by Friday, I'll assume it's fine and place the order": the assumption is no task, the order is.
    { pattern: /^(?:assume|presume|take it|take that as a yes)\b[^,.;]*? and (?:then )?(?=\p{L})/iu, replacement: '' },
    // "An inspector will be out to assess it": the visit's purpose is the action.
    // "I'll be out to you for the survey": a visit to the other party.
    { pattern: /^be (out|over|round|around|along|up) (?=to (?:you|him|her|them|us)\b)/i, replacement: 'come $1 ' },
    // "The engineer will be with you on Friday between eight and twelve": a visit.
    { pattern: /^be with (you|him|her|them|us)\b/i, replacement: 'come out to $1' },
    { pattern: /^be (?:out|over|round|around|along|by|up) (?:to|and) (?=\p{L})/iu, replacement: '' },
    // "I'll be at Mum's on Saturday at eight to let Grace in", "I'll be home to sign for it": being there is for the deed.
    { pattern: /^be (?:at|in|home|there|here|back)\b[^.!?,]{0,40}?\s+to (?=\p{L})/iu, replacement: '' },
    // A booking made on the line, read as the booking it is ("booked you in" → "book you in").
    { pattern: /^booked in\b/i, replacement: 'book you in' },
    { pattern: /^(?:a|an|your) (?=(?:[\p{L}-]+ ){0,2}?(?:table|booking|reservation)\b)/iu, replacement: 'book $&' },
    { pattern: /^(you|her|him|them) (?:booked )?(in|down)\b/i, replacement: 'put $1 $2' },
    { pattern: /^(book|rebook)ed\b/i, replacement: '$1' },
    { pattern: /^(squeez|mov|reschedul)ed\b/i, replacement: '$1e' },
    { pattern: /^(pencil|fit|pop)(?:l|t|p)ed\b/i, replacement: '$1' },
    { pattern: /^give (me|you|him|her|them|us) a (?:call|ring|buzz|bell|shout)\b/i, replacement: 'call $1' },
    // "shoot you an email", "drop me a text", "flick you a message": the channel is the verb.
    { pattern: /^(?:shoot|drop|flick|fire|ping) (me|you|him|her|them|us) (?:an? )?(?:quick )?e-?mail\b/i, replacement: 'email $1' },
    { pattern: /^(?:shoot|drop|flick|fire|ping) (me|you|him|her|them|us) (?:an? )?(?:quick )?(?:text|message)\b/i, replacement: 'text $1' },
    { pattern: /^send (?:it|that|them|this) over\b/i, replacement: 'send it' },
    { pattern: /^leave (?:it|that|this) with (?:me|us)\b/i, replacement: 'sort it' },
    // "Pop it in the post": posting it.
    { pattern: /^pop (.+?) in the post\b/i, replacement: 'post $1' },
    // "Ring Graham back": ringing is calling.
    { pattern: /^ring\b/i, replacement: 'call' },
  ],
  priority: {
    high: /\b(?:urgent(?:ly)?|asap|a\.s\.a\.p\.?|as soon as possible|immediately|right away|straight away|today|tonight|top priority|critical|time[- ]sensitive)\b/i,
    low: /\b(?:no rush|no hurry|whenever|when you get a chance|at some point|eventually|sometime|low priority|not urgent)\b/i,
  },
  intents: [
    // The channel verb decides: "text you a reminder" is a message, "email you a reminder" an email.
    // "Send you a reminder text": the channel said as the thing sent decides too.
    { intent: 'message', pattern: /^(?:text|sms|whats ?app|message)\b|^(?:send|drop)\b(?:\s+[\w'’-]+){0,3}?\s+(?:text|sms|whats ?app)(?:\s+message)?\b(?!\s+(?:or|and)\b)/i },
    { intent: 'email', pattern: /^e-?mail\b/i },
    // "Call her to remind her": the call is what is done, the reminder what it is for.
    { intent: 'call', pattern: /^(?:call|ring|phone)\b/i },
    { intent: 'reminder', pattern: /\b(?:remind|reminder)\b/i },
    { intent: 'message', pattern: /\b(?:whats ?app|sms|telegram|signal message)\b|^(?:text|message)\b|\b(?:a|by|via) (?:text|message)\b|\btext (?:me|you|him|her|them|us)\b/i },
    // "Mail" alone is the post ("mail out the forms"), in both Englishes; only e-mail is email.
    { intent: 'email', pattern: /^e-?mail\b|\b(?:by|via|over|an?|to (?:my|your|his|her|their|our|the)) e-?mail\b|\be-?mail (?:me|you|him|her|them|us|it)\b|\S@\S/i },
    // Calling first: "call Tanya to move the appointment" is a call about a meeting, not one.
    { intent: 'call', pattern: /^(?:call|ring|phone)\b/i },
    {
      intent: 'meeting',
      pattern: new RegExp(
        '\\b(?:meet(?:ing|up)?|appointment(?! (?:card|letter|reminder|confirmation|time|details))|demo|catch[- ]?up|zoom|google meet|teams|calendar invite|invite|conference call|video call|sit down)\\b'
        + '|^(?:schedule|set up|book|arrange|organi[sz]e|plan) (?:a|an|the|another|our|some) (?:\\w+ )?(?:call|chat|session)\\b'
        // A slot in a diary: "book you in with Dr. Lim", "put you in for Friday", "pencil it in" (not "put that in writing").
        // A thing put in somewhere is no slot: "put it in her book bag", "pop it in the post" ("pop you in the afternoon list" is one).
        + `|^(?:book|put|pencil|pop|fit|squeeze) (?!${THING_PUT_IN.source})(?:\\S+ ){1,3}?in\\b(?! (?:writing|the post|touch)\\b)`
        + '|\\bin (?:the|your|my|our) (?:diary|calendar)\\b',
        'i',
      ),
    },
    { intent: 'call', pattern: /\b(?:call|ring|phone)\b/i },
  ],
  providerHints: [
    { pattern: /\bzoom\b/i, hint: 'zoom' },
    { pattern: /\bgoogle meet\b|\bgmeet\b/i, hint: 'meet' },
    { pattern: /\bteams\b/i, hint: 'teams' },
    { pattern: /\b(?:phone|conference) call\b|\b(?:by|over the|on the) phone\b/i, hint: 'phone' },
    { pattern: /\bwhats ?app\b/i, hint: 'whatsapp' },
    { pattern: /\btelegram\b/i, hint: 'telegram' },
    { pattern: /\bsms\b|\btext(?: message)?\b/i, hint: 'sms' },
  ],
  meetingNouns: ['conversation', 'call', 'chat', 'slot', ...APPOINTMENT_NOUNS],
  appointmentNouns: APPOINTMENT_NOUNS,
  bookingVerb: /^(?:book|pencil|lock|schedule|arrange|put)\b/i,
  visitAtATime: /^(?:come|pop|call|drop)\s+(?:out|round|over|by|in|along)\b/i,
  reservedThing: /^(?:book|reserve|hold)\s+(?:(?:a|an|the|your|my|our)\s+)?(?:[\p{L}-]+\s+){0,2}?(?:table|booking|reservation|slot|room|court|pitch|lane|tee time)\b/iu,
  visitNouns: [
    'delivery', 'redelivery', 'repair', 'installation', 'service', 'tune-up', 'tune up', 'inspection', 'survey', 'fitting', 'collection',
    'replacement', 'safety check', 'check-up', 'measure-up', 'assessment', 'visit',
  ],
  meetingIntentNoun: /\b(?:meeting|appointment|session|interview|consultation|conference|demo|zoom|teams|google meet|video call|conference call)\b/i,
  antecedentDeterminers: ['the', 'a', 'an', 'your', 'my', 'our', 'his', 'her', 'their', 'this', 'that', 'these', 'those'],
  consultStep: /^(?:ask|check with|speak to|speak with|talk to|talk with|run it by|run that by|find out|look into|chase)\b/i,
  reportBack: /^(?:let \S+(?: \S+)? know|get back to|come back to|call \S+(?: \S+)? back|ring \S+(?: \S+)? back|confirm)\b/i,
  openTimeBound: /^(?:after|by|before|until|till)\b|\b(?:after|by|before|until|till)\s+(?:\S+\s*)?$/i,
  tiedToTheVisit: /\bbefore (?:they|he|she|we|the \p{L}+) (?:come|comes|arrive|arrives|get there|gets there|get here|gets here|turn up|turns up|start|starts|touch|do any)\b|\bon the day\b/iu,
  hedgedClause: /^\s*(?:probably|maybe|perhaps|possibly)\b/i,
  resignation: new RegExp(`^(?:(?:oh|ah|right|okay|ok|no)[,.!\\s]+)*(?:fair enough|never mind|not to worry|ah well|oh well|that${A}s a shame|what a shame|shame|no worries(?: then)?|I understand|that${A}s fine, I understand)\\b`, 'i'),
  deedAnaphor: /^do (?:that|it|this)\b/i,
  thingVerbs: [
    'arrives', 'comes', 'goes', 'gets', 'needs', 'seems', 'happens', 'expires', 'lands', 'leaves', 'means', 'includes',
    'opens', 'closes', 'finishes', 'begins', 'takes', 'arrived', 'came', 'went', 'got', 'needed',
  ],
  quantityWords: ['bit', 'lot', 'little', 'couple', 'few', 'while', 'minute', 'second', 'moment'],
  notThings: new Set([
    ...englishPeopleWords.roles, 'team', 'department', 'office', 'portal', 'website', 'line', 'number', 'address',
    'way', 'end', 'moment', 'date', 'time', 'day', 'week', 'month', 'morning', 'afternoon', 'evening', 'bus', 'car', 'house', 'home',
  ]),
  laterStepAnaphor: /\b(?<verb>[a-z]+) (?:it|them)(?: all)?(?: (?<particle>up|out|in|back|off|over|down))?\b/gi,
  awaitedThing: /\b(?:when|once|as soon as|the minute|the moment|if)\s+(?<pronoun>it|they)(?=\s+(?:arrives?|comes?|come in|comes in|gets?|get in|gets in|lands?|is|are|'s|'re|’s|’re|turns? up|shows? up)\b|['’](?:s|re)\b)/i,
  awaitedCondition: /^\s*(?:(?:and|but|so|oh|well)[,\s]+)*(?<event>(?:if|when|once|as soon as)\s+(?:it|they)(?:\s+(?:arrives?|comes? in|comes? back|gets? in|lands?|turns? up|shows? up|is (?:ready|in|back)|are (?:ready|in|back))|['’](?:s|re) (?:ready|in|back)))\s*,/i,
  ellipticalThing: /\b(?:the|a|an|another) (?:replacement|spare)(?=$|\s+(?:for|to|by|from|with|on|at|in|today|tomorrow|now)\b)/i,
  oneAnaphor: /^(?<verb>\S+)\s+(?:(?<determiner>the|a|an|another|this|that|your|my|our|his|her|their)\s+(?:(?<modifier>\p{Ll}+)\s+)?)?one(?=\s*$|[.,;!?]|\s+(?:to|into|by|on|in|over|back|off|out|up|for|at|with|before|after|today|tonight|tomorrow|now|then|later|first|when|as)\b)/iu,
  objectAffinities: {
    sign: ['form', 'slip', 'document', 'contract', 'agreement', 'letter', 'paperwork', 'consent', 'lease', 'declaration', 'application', 'waiver', 'mandate'],
    pay: ['bill', 'fee', 'invoice', 'balance', 'deposit', 'charge', 'fine', 'excess', 'deductible', 'premium', 'instalment', 'installment', 'payment', 'arrear', 'money'],
    fill: ['form', 'slip', 'application', 'questionnaire', 'survey', 'claim'],
    complete: ['form', 'application', 'questionnaire', 'survey', 'declaration'],
    return: ['form', 'slip', 'document', 'contract', 'agreement', 'parcel', 'package', 'item', 'key', 'keys', 'card'],
    text: ['address', 'detail', 'number', 'photo', 'picture', 'confirmation', 'link', 'code', 'reference'],
    whatsapp: ['address', 'detail', 'number', 'photo', 'picture', 'confirmation', 'link', 'code', 'reference', 'video'],
    message: ['address', 'detail', 'number', 'photo', 'picture', 'confirmation', 'link', 'code', 'reference'],
    send: ['photo', 'picture', 'form', 'document', 'invoice', 'receipt', 'quote', 'estimate', 'confirmation', 'detail', 'link', 'copy', 'certificate', 'statement'],
    email: ['address', 'detail', 'photo', 'picture', 'confirmation', 'link', 'form', 'invoice', 'receipt', 'quote', 'estimate', 'document', 'certificate'],
    assess: ['damage', 'pothole', 'leak', 'roof', 'car', 'vehicle', 'property', 'site', 'boiler', 'wall', 'crack', 'tree', 'ceiling', 'floor', 'window', 'claim'],
    inspect: ['damage', 'pothole', 'leak', 'roof', 'car', 'vehicle', 'property', 'site', 'boiler', 'wall', 'crack', 'tree', 'ceiling', 'floor', 'window'],
    // "Have it made up": a prescription or an order is made up.
    made: ['prescription', 'order', 'medication', 'medicine'],
    empty: ['bin', 'recycling', 'rubbish', 'waste', 'cupboard', 'tank', 'box'],
    collect: ['prescription', 'parcel', 'package', 'car', 'key', 'keys', 'order', 'medication', 'medicine'],
    pick: ['prescription', 'parcel', 'package', 'car', 'key', 'keys', 'order', 'medication', 'medicine'],
    renew: ['prescription', 'policy', 'licence', 'license', 'passport', 'membership', 'subscription'],
    // "Is it covered by my insurance?" … "I'll call them to check": the body "them" stands for.
    ...Object.fromEntries(['call', 'ring', 'phone', 'contact'].map((verb) => [verb, CALLED_BODIES])),
  },
  genericAppointmentNouns: ['meeting', 'appointment', 'session', 'visit', 'conference'],
  movedVerbs: ['move', 'moved', 'moving', 'reschedul', 'rebook', 'rearrang', 'push it back', 'bring it forward'],
  numberReference: /\b(?:that|this|the same|the) (?:number|mobile|line)\b/i,
  // Up to three words may name the place ("at our Parkside Road surgery", "at the Corner Café").
  location: new RegExp(
    '\\b(?:at|in) (?<location>(?:the|our|your|my|their) (?:(?!(?:of|the|a|and|to|for)\\b)[\\p{L}\'’-]+ ){0,3}'
    + '(?:office|offices|site|warehouse|shop|store|branch|headquarters|HQ|clinic|surgery|practice|hospital|studio|showroom|factory|plant|'
    + 'restaurant|cafe|café|pub|bar|hotel|lobby|library|school|station|centre|center|reception))(?![\\p{L}])',
    'iu',
  ),
  handle: /(?<![\w.@])@[A-Za-z0-9_]{2,32}\b/,
};
