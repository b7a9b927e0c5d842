/**
 * Cue phrases shared by several parts of the description. Every pattern is matched against the
 * lower-cased sentence with curly apostrophes made straight (see `matchTextOf`). Tables specific
 * to one part (call types, outcomes, tone, emotional signals) live beside that part.
 */

/** A weighted cue: `weight` is what one matching sentence adds to the score of its class. */
export interface Cue {
  pattern: RegExp;
  weight: number;
}

/** A sentence as the cue tables read it. */
export function matchTextOf(text: string): string {
  return text.replace(/[’‘]/g, "'").toLowerCase();
}

/** Sum of the weights of the cues `text` matches (each cue counted once). */
export function cueScore(text: string, cues: readonly Cue[]): number {
  return cues.reduce((total, cue) => total + (cue.pattern.test(text) ? cue.weight : 0), 0);
}

/** Opening talk: greetings, introductions, "how are you". */
export const greetingCue = /\b(?:hi|hello|hey|hiya|good (?:morning|afternoon|evening)|how are you|how's it going|how have you been|this is \w+|\w+ speaking|thanks for (?:calling|taking|picking|getting back)|nice to (?:meet|hear from|speak)|good to (?:hear|speak)|what can i do for you|how can i help)\b/;

/** Closing talk: goodbyes and sign-offs. */
export const goodbyeCue = /\b(?:bye|goodbye|talk (?:to you )?(?:soon|later|then)|speak (?:to you )?(?:soon|later)|have a (?:good|great|nice|lovely) (?:day|one|evening|weekend|night)|take care|see you|cheers|thanks again|thank you (?:again|for your time)|that's all (?:for now|i needed))\b/;

/** Thanks that carry nothing else. */
export const thanksCue = /\b(?:thanks|thank you|cheers|appreciate it|much appreciated)\b/;

/** Stating why one calls: keeps an otherwise pleasant sentence informative. */
export const contextCue = /\b(?:calling (?:about|regarding|because|to)|reason (?:i'm|i am) calling|wanted to (?:ask|talk|discuss|check|follow)|regarding|about your|about the|about our)\b/;

/**
 * Talk about what happens after the call: the speaker committing to act ("I'll send"), a
 * next contact ("let's talk next week"), a deadline ("by Friday").
 */
export const followUpCue = /\b(?:(?:i'll|i will|we'll|we will|i'm going to|we're going to|i can|let me) (?:send|email|e-mail|mail|text|call|ring|follow|get back|forward|check|confirm|set up|schedule|book|put together|share|draft|prepare|update|look into|circle back)|follow(?:ing)?[- ]up|next steps?|get back to you|circle back|touch base|let's (?:talk|meet|catch up|speak|reconvene|regroup)|(?:talk|speak|meet|see you) (?:next|on|again)|send (?:you|it|that|them|over|across)|by (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|tonight|end of|the end|next)|(?:next|this coming) (?:week|monday|tuesday|wednesday|thursday|friday|month))\b/;

/** A first-person promise to act (a commitment). */
export const commitmentCue = /\b(?:i'll|i will|we'll|we will|i'm going to|we're going to|i promise|i can (?:do|send|get|have)|you'll (?:have|get|receive))\b/;

/** A decision taken in the call. */
export const decisionCue = /\b(?:we(?:'ve)? decided|i(?:'ve)? decided|let's go (?:with|ahead)|we'll go (?:with|ahead)|we're going (?:with|ahead)|go ahead (?:with|and)|the decision is|final decision|we'll take|i'll take|we settled on|let's do (?:it|that|the)|we chose|i chose)\b/;

/** Agreement to something proposed. */
export const agreementCue = /\b(?:agreed|i agree|we agree|sounds good|sounds great|sounds fair|that works|works for me|works for us|deal|it's a deal|you've got a deal|fair enough|that's fine|happy with that|okay with that|fine with that|let's do it|perfect, thanks|absolutely|of course)\b/;

/** A problem or worry raised. */
export const concernCue = /\b(?:worried|worry|concern(?:ed|s)?|problem|issue|(?:is|been|was|went|are|were) down|trouble|frustrat\w*|disappoint\w*|not happy|unhappy|unacceptable|broken|broke|damaged|faulty|wrong|mistake|error|complain\w*|delayed|overcharged|missing)\b/;

/** Something that prevents progress until another thing happens. */
export const blockerCue = /\b(?:blocked|blocker|can't (?:\w+ )?until|cannot (?:\w+ )?until|waiting (?:on|for)|held up|on hold|depends on|stuck|need (?:\w+ )?approval|not until|before we can|unless we)\b/;

/** A result reached in the call ("we fixed", "it's sorted"; not a demand such as "get it fixed"). */
export const outcomeCue = /\b(?:(?:is|was|were|been|be|it's|that's|we|i|they|we've|i've|they've|you've) (?:now |all |already )?(?:resolved|fixed|sorted|solved)|works now|working now|(?:refund|credit|replacement|order|payment) (?:has been|is|was) (?:processed|issued|approved|sent|confirmed|arranged)|approved|confirmed|signed|booked|all set|good to go|done and dusted)\b/;

/** A number, an amount or a quantity word: facts make a sentence informative. */
export const numberCue = /\d|\b(?:percent|per cent|dollars?|euros?|pounds?|bucks|hundred|thousand|million|dozen|half|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)\b/;

/** Fillers at the start of a sentence that carry nothing ("So, well, um, …"). */
export const leadingFillers = /^(?:(?:so|well|okay|ok|yeah|yep|yes|right|alright|all right|um+|uh+|er+|ah+|oh|hmm+|look|listen|and|but|actually|basically|honestly|anyway|i mean|you know|i think|i guess|i suppose)\b[\s,.]*)+/i;

/** A label the speaker put before the point ("So the next steps: …"): the bullet's category says it already. */
export const leadingLabel = /^(?:the )?(?:next steps?|bottom line|in summary|to summari[sz]e|to sum up|long story short)(?: (?:is|are|would be))?\s*[:,-]\s*/i;

/** Fillers inside a sentence: hesitations anywhere, hedges only between commas. */
export const innerFillers: readonly [RegExp, string][] = [
  [/\s*\b(?:um+|uh+|er+|erm|uhm|hmm+)\b,?/gi, ''],
  [/,\s*(?:you know|i mean|like|sort of|kind of|basically|actually)\s*,\s*/gi, ' '],
  [/,?\s*(?:you know|right)\s*\?$/i, '.'],
];
