import type { ActionWords } from './ActionWords.js';
import type { SentenceFacts } from './sentenceFacts.js';
import { isContentWord } from '../describe/words.js';


/**
 * An item's description: the sentence the action was said in, with what a reader needs to make
 * sense of it, quoted as said (nothing is paraphrased, so nothing can be invented):
 * - the other party's question the action answers ("When would you like to make the first
 *   payment?" – "I'll pay the first seventy-one ten online then": what is paid is in the question);
 * - for an appointment, the need it was booked for, said before it ("I lost a filling last night"
 *   … "I'll put you down for Friday at 4:30": the title says who is put down, the need says for what).
 * `said` is the sentence as the description already has it (a sum of money said before may follow it).
 */
export function describedWithContext(said: string, facts: SentenceFacts, call: readonly SentenceFacts[], isAppointment: boolean, words: ActionWords): string {
  // A quoted condition ("if anything opens up earlier…") would read as the item's own.
  const context = [questionAnswered(facts, call), isAppointment ? needBooked(facts, call, words)?.sentence.text ?? null : null]
    .filter((sentence): sentence is string => sentence !== null && !said.includes(sentence) && !words.conditionAnywhere.test(sentence));
  return [said, ...[...new Set(context)].map((sentence) => `(${words.contextLabel}: "${sentence}")`)].join(' ');
}

/**
 * The question the other party asked last in the turn just before the one that holds `facts`,
 * when `facts` opens its turn (the answer: a promise said later in the turn answers something else); null otherwise.
 */
function questionAnswered(facts: SentenceFacts, call: readonly SentenceFacts[]): string | null {
  const at = call.indexOf(facts);
  const speaker = facts.sentence.segment.speakerId;
  let start = at;
  while (start > 0 && call[start - 1]!.sentence.segment.speakerId === speaker) start--;
  if (at !== start || start === 0) return null;
  const asker = call[start - 1]!.sentence.segment.speakerId;
  for (let index = start - 1; index >= 0 && call[index]!.sentence.segment.speakerId === asker; index--) {
    if (call[index]!.sentence.isQuestion) return call[index]!.sentence.text;
  }
  return null;
}

/**
 * The latest sentence before `facts` that states a need or a purpose (see `ActionWords.statedPurpose`):
 * what an appointment is for. Questions are offers or checks ("Do you want the service doing too?"), not the need.
 */
function needBooked(facts: SentenceFacts, call: readonly SentenceFacts[], words: ActionWords): SentenceFacts | null {
  const earlier = call.slice(0, Math.max(0, call.indexOf(facts))).reverse();
  return earlier.find((other) => !other.sentence.isQuestion && words.statedPurpose.test(other.sentence.text)) ?? null;
}

/** Words a thing needed may run to after its determiner ("her stitches", "the back door lock"). */
const MAX_THING_WORDS = 3;

/**
 * "Put Marcus Bell down" → "Put Marcus Bell down for the filling" after "I lost a filling last
 * night"; "Put Dev down for that" → "… for the MOT" after "I need to get the Golf in for its MOT":
 * an appointment's title that says only whom it books (it ends with the booking's particle, or
 * "for that") takes the thing the need said before it names (see {@link thingNeeded}). As said otherwise.
 */
export function withNeedNamed(title: string, facts: SentenceFacts, call: readonly SentenceFacts[], words: ActionWords): string {
  const bare = words.bareBooking.exec(title);
  if (!bare) return title;
  const need = needBooked(facts, call, words);
  const thing = need ? thingNeeded(need, words) : null;
  const particle = bare.groups!.particle;
  return thing ? `${title.slice(0, bare.index)}${particle ? ` ${particle}` : ''} for the ${thing.join(' ')}` : title;
}

/**
 * The thing a need names: the last noun phrase (a determiner and up to {@link MAX_THING_WORDS}
 * words, lower case or an acronym, ending in a content word) between the need's cue and the end of
 * its clause, its dates and amounts left out ("I lost a filling last night, bottom left" → `filling`).
 */
function thingNeeded(need: SentenceFacts, words: ActionWords): string[] | null {
  const cue = words.statedPurpose.exec(need.sentence.text);
  if (!cue) return null;
  let clause = need.sentence.text.slice(cue.index).split(/[,.;:!?]/)[0]!;
  for (const said of [...need.dates.map((mention) => mention.text), ...need.amounts.map((amount) => amount.text)]) clause = clause.replace(said, ' ');
  const tokens = clause.split(/\s+/).filter(Boolean);
  let found: string[] | null = null;
  tokens.forEach((token, index) => {
    if (!words.determiners.includes(token.toLowerCase()) && !words.possessives.includes(token.toLowerCase())) return;
    const phrase: string[] = [];
    for (const word of tokens.slice(index + 1, index + 1 + MAX_THING_WORDS)) {
      if (!/^(?:[a-z][a-z-]*|[A-Z]{2,})$/.test(word) || words.objectStopWords.includes(word) || words.determiners.includes(word)) break;
      phrase.push(word);
    }
    while (phrase.length > 0 && !isContentWord(phrase.at(-1)!.toLowerCase())) phrase.pop();
    if (phrase.length > 0) found = phrase;
  });
  return found;
}
