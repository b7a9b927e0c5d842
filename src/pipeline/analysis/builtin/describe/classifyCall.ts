import type { callTypes, conversationOutcomes } from '../../../../domain/analysis/analysisSchema.js';
import type { Cue } from './cues.js';
import type { Conversation, Utterance } from './readConversation.js';
import type { Salience } from './scoreSentences.js';

export type CallType = (typeof callTypes)[number];
export type ConversationOutcome = (typeof conversationOutcomes)[number];

/**
 * Cue words per call type; a sentence adds each matching cue's weight once. Weights: 2 for a
 * phrase that alone names the type ("I'd like to make a complaint"), 1 for a word that leans
 * towards it. `voicemail` is decided apart (one speaker), `other` is the fallback.
 */
const callTypeCues: Record<Exclude<CallType, 'voicemail' | 'other'>, readonly Cue[]> = {
  complaint: [
    { pattern: /\b(?:complain\w*|complaint|unacceptable|ridiculous|disgrace\w*|fed up|(?:second|third|fourth|fifth) time|speak to (?:a|your) (?:manager|supervisor))\b/, weight: 2 },
    { pattern: /\b(?:frustrat\w*|disappoint\w*|angry|upset|not happy|broken|damaged|faulty|refund|overcharged|never arrived|still (?:not|hasn't|haven't|waiting))\b/, weight: 1 },
  ],
  support: [
    { pattern: /\b(?:not working|doesn't work|won't (?:start|load|connect|turn on)|error (?:message|code)|troubleshoot\w*|reset (?:your|my|the) password|support ticket|tech(?:nical)? support|help desk)\b/, weight: 2 },
    { pattern: /\b(?:account|login|log in|password|install\w*|update|restart|reboot|settings|crash\w*|bug|ticket|fix|error)\b/, weight: 1 },
    // Everyday troubles reported for the other side to sort: a lost or stolen card, a fault, a leak.
    { pattern: /\b(?:(?:lost|stolen|snapped|broken) (?:my |his |her |the )?(?:wallet|purse|card|debit card|credit card|phone|keys)|(?:cancel|block|freeze|lock)(?:ed)? (?:the|your|my|that) card|report(?:ing)? (?:a|the) (?:leak|fault|problem)|(?:has|have) stopped working|isn't working|not working properly)\b/, weight: 2 },
    { pattern: /\b(?:fraud|leak\w*|fault\w*|replacement card|cancel(?:l)?ed)\b/, weight: 1 },
  ],
  negotiation: [
    { pattern: /\b(?:discount|counter ?offer|meet (?:you )?(?:halfway|in the middle)|best price|lower the price|negotiat\w*|(?:the|your|our) terms)\b/, weight: 2 },
    { pattern: /\b(?:price|pricing|budget|offer|rate|percent|contract|renewal|deal|cheaper|expensive|margin)\b/, weight: 1 },
  ],
  sales: [
    { pattern: /\b(?:(?:book|schedule|set up) a demo|free trial|pricing (?:plan|tier)s?|(?:interested|interest) in (?:buying|purchasing|our|your)|place an order|sign up for)\b/, weight: 2 },
    { pattern: /\b(?:demo|quote|purchase|buy|product|package|subscription|plan|licen[cs]e|seats|features|upgrade|order)\b/, weight: 1 },
    // A cold call and its refusal: "we're offering free surveys", "I'm not interested, thanks".
    { pattern: /\b(?:(?:i'm|i am|we're|we are) not interested|we(?:'re| are) offering|free (?:consultation|quote|survey|installation|assessment)|special offer|limited time|saving up to|save (?:you )?up to)\b/, weight: 2 },
  ],
  scheduling: [
    { pattern: /\b(?:reschedule|book (?:an|a) (?:appointment|slot|meeting)|make an appointment|(?:what|which) time works|are you (?:free|available)|calendar invite|move (?:the|our) (?:meeting|appointment))\b/, weight: 2 },
    // Offering and taking a slot: "I'll book you in", "how does Tuesday at 3 look for you?", "Tuesday at 3 works for me".
    { pattern: /\b(?:(?:book|put|pencil|fit) (?:you|him|her|them|it) in|move (?:it|this|that) to|how does \w+(?: \w+){0,4} look|works for (?:me|us|you)|is there anything (?:on|next|later|free|else on))\b/, weight: 2 },
    // A slot found and taken: "the first appointment I have is …", "I had a cancellation", "could you do Thursday?", "I've booked you in".
    { pattern: /\b(?:(?:first|next|earliest) (?:routine )?(?:appointment|slot|opening|availability)|had a cancellation|(?:i've|we've) (?:booked|put|pencilled|moved) (?:you|him|her|them)|(?:could|can) you do (?:\w+ )?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|a week|the|next|half|quarter|\d)|(?:you're|you are) (?:all )?booked)\b/, weight: 2 },
    { pattern: /\b(?:schedule|appointment|available|availability|calendar|diary|slot|meeting|booked|invite)\b/, weight: 1 },
  ],
  follow_up: [
    { pattern: /\b(?:following up|follow up on|(?:just )?checking in|as (?:we )?discussed|last time we (?:spoke|talked)|circling back|as promised)\b/, weight: 2 },
  ],
  inquiry: [
    { pattern: /\b(?:i was wondering|quick question|could you tell me|can you tell me|i'd like to know|do you (?:have|offer|sell)|what are your (?:hours|opening)|how much (?:is|does|do)|opening (?:hours|times)|are you open|what time do you (?:open|close)|can i still)\b/, weight: 2 },
    // Asking after something's status: "I'm checking on a delivery", "where is it now?", "has the invoice been paid?".
    { pattern: /\b(?:checking on|(?:where|when) is (?:it|my|our|the)|has (?:the|my|our) \w+ (?:been|arrived|gone))\b/, weight: 2 },
    { pattern: /\b(?:information|question|wondering|find out|enquir\w*|inquir\w*)\b/, weight: 1 },
  ],
  internal: [
    { pattern: /\b(?:stand-?up|sprint|our team|the team|all-hands|one-on-one|1:1|quarterly (?:review|numbers|targets)|our (?:manager|boss|department)|hr)\b/, weight: 2 },
    { pattern: /\b(?:colleague|project|deadline|roadmap|report|okrs?|kpis?|deliverable|office)\b/, weight: 1 },
  ],
  personal: [
    { pattern: /\b(?:love you|miss you|happy birthday|how's the family|how are the kids|mum|mom|dad|grandma|grandpa|honey|sweetheart|darling)\b/, weight: 2 },
    { pattern: /\b(?:weekend|dinner|party|holiday|vacation|birthday|kids|family|wife|husband|girlfriend|boyfriend|friends?|movie|game|weather|barbecue|garden|dog|cat)\b/, weight: 1 },
  ],
};

/** A type needs at least this score to be named; below it the call is `other`. */
const minCallTypeScore = 3;
/** A one-speaker recording is a voicemail when it says one of these. */
const voicemailCue = /\b(?:leave (?:a|your) message|after the (?:tone|beep)|(?:give me|call me) (?:a call )?back|(?:call|ring) (?:me|us) back|just calling to|(?:i'm|i am) calling (?:about|to|regarding)|this is \w+ calling|it's \w+ calling|sorry i missed you|you've reached|(?:get|got) your message|(?:just )?a (?:quick )?message (?:about|for|to)|leaving (?:you )?a (?:quick )?message|just (?:to )?let(?:ting)? you know)\b/;

/**
 * The call's type: the table's type with the highest cue score (at least {@link minCallTypeScore}; each
 * appointment booked in the call, `agreedAppointments`, counts that much for `scheduling`);
 * `personal` only when it outscores every business type together. A recording with one speaker
 * and a voicemail phrase is a `voicemail`. `other` when nothing reaches the threshold, null when
 * there is too little speech to judge.
 */
export function classifyCallType(conversation: Conversation, agreedAppointments = 0): CallType | null {
  const { utterances, segments } = conversation;
  if (utterances.length === 0) return null;
  const speakerCount = new Set(segments.map((segment) => segment.speakerId)).size;
  if (speakerCount === 1 && utterances.some((utterance) => voicemailCue.test(utterance.matchText))) return 'voicemail';
  const scores = Object.entries(callTypeCues).map(([type, cues]) => ({ type: type as CallType, score: scoreOver(utterances, cues) }));
  const personal = scores.find(({ type }) => type === 'personal')!.score;
  const business = scores.filter(({ type }) => type !== 'personal');
  const businessTotal = business.reduce((total, { score }) => total + score, 0);
  // An appointment booked in the call (an action item with its time) is what a scheduling call is
  // for; with an organisation on the line (the metadata names one) it also outweighs family words
  // ("my mum's appointment"), while two friends fixing a lunch stay a personal call.
  const booked = agreedAppointments * minCallTypeScore;
  const withOrganisation = Boolean(conversation.input.metadata.organization?.trim());
  if (personal >= minCallTypeScore && personal > businessTotal + (withOrganisation ? booked : 0)) return 'personal';
  business.find(({ type }) => type === 'scheduling')!.score += booked;
  const best = business.sort((first, second) => second.score - first.score)[0]!;
  if (best.score >= minCallTypeScore) return best.type;
  return conversation.tooShort ? null : 'other';
}

function scoreOver(utterances: readonly Utterance[], cues: readonly Cue[], weightOf: (utterance: Utterance) => number = () => 1): number {
  let total = 0;
  for (const utterance of utterances) {
    for (const cue of cues) if (cue.pattern.test(utterance.matchText)) total += cue.weight * weightOf(utterance);
  }
  return total;
}

/**
 * Cue words per outcome, in order of precedence when scores tie (an escalation outweighs
 * anything else said; a resolution outweighs an agreement). `scheduled` also needs a date or time
 * said in the same sentence (see {@link classifyOutcome}).
 */
const outcomeCues: readonly [ConversationOutcome, readonly Cue[]][] = [
  ['escalated', [{ pattern: /\b(?:escalat\w*|(?:speak|talk) to (?:a|your|the) (?:manager|supervisor)|put you through to (?:a|my) (?:manager|supervisor)|legal action|my lawyer|formal complaint)\b/, weight: 2 }]],
  ['resolved', [
    { pattern: /\b(?:resolved|that fixed it|fixed (?:it|that|now)|it's fixed|(?:all )?sorted(?: out)?|problem solved|works now|working now|that solves|(?:refund|credit|replacement) (?:has been|is|was|will be) (?:processed|issued|approved|sent|arranged|on its way))\b/, weight: 2 },
  ]],
  ['scheduled', [{ pattern: /\b(?:booked|scheduled|(?:i'll|i will) (?:send|put) (?:a|the|you a) (?:calendar )?invite|see you (?:on|then|next|at)|confirmed for|it's in the (?:calendar|diary)|pencil (?:you|it) in)\b/, weight: 2 }]],
  ['agreement', [
    { pattern: /\b(?:we have a deal|it's a deal|you've got a deal|deal|agreed|we agree|sounds good|that works|works for me|works for us|let's do it|let's go with|go ahead)\b/, weight: 2 },
  ]],
  ['declined', [{ pattern: /\b(?:not interested|no thanks|no, thank you|we'll pass|i'll pass|decline\w*|not for us|we're going with (?:someone|another)|can't afford)\b/, weight: 2 }]],
  ['follow_up_needed', [
    { pattern: /\b(?:get back to you|follow up|call you back|let me check|i'll (?:check|find out|look into|confirm)|need to (?:check|confirm|ask))\b/, weight: 1.5 },
  ]],
  ['unresolved', [{ pattern: /\b(?:still (?:not|doesn't|isn't|hasn't|broken)|no (?:solution|fix)|(?:nothing|not much) (?:more )?(?:i|we) can do|can't help|not resolved|unresolved|hasn't been (?:resolved|fixed))\b/, weight: 2 }]],
  ['informational', [{ pattern: /\b(?:thanks for the (?:information|info|update)|good to know|that answers|that's (?:all|everything) i needed|that's helpful|just wanted to let you know|for your information)\b/, weight: 1.5 }]],
];

/** An outcome needs at least this (phase-weighted) score to be named. */
const minOutcomeScore = 2;
/** Where an outcome is said matters: what the call ends on (closing, follow-up talk) counts double, the first half half. */
const outcomePhaseWeight = { end: 2, secondHalf: 1.5, firstHalf: 0.5 } as const;

/**
 * How the call ended: the outcome whose cues score highest, weighted by where they were said
 * ({@link outcomePhaseWeight}), at least {@link minOutcomeScore}. No cue: `no_outcome` for a
 * personal call (small talk has none), null when too short to judge, `unclear` otherwise.
 */
export function classifyOutcome(conversation: Conversation, salience: Salience, callType: CallType | null): ConversationOutcome | null {
  const { utterances } = conversation;
  if (utterances.length === 0) return null;
  const weightOf = (utterance: Utterance) => {
    if (utterance.phase === 'closing' || utterance.phase === 'followup') return outcomePhaseWeight.end;
    return utterance.index >= utterances.length / 2 ? outcomePhaseWeight.secondHalf : outcomePhaseWeight.firstHalf;
  };
  let best: { outcome: ConversationOutcome; score: number } | undefined;
  for (const [outcome, cues] of outcomeCues) {
    const counted = outcome === 'scheduled' ? utterances.filter((utterance) => salience.hasDate[utterance.index]) : utterances;
    const score = scoreOver(counted, cues, weightOf);
    if (score >= minOutcomeScore && (!best || score > best.score)) best = { outcome, score };
  }
  if (best) return best.outcome;
  if (callType === 'personal') return 'no_outcome';
  return conversation.tooShort ? null : 'unclear';
}
