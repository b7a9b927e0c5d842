import type { ActionWords } from './ActionWords.js';
import type { SentenceFacts } from './sentenceFacts.js';
import { isContentWord, keyOf } from '../describe/words.js';

/** Words a noun phrase may run to after its determiner ("an updated medical history form"). */
const MAX_PHRASE_WORDS = 4;

/**
 * The noun phrases of a sentence outside its dates and amounts: words after a determiner, up to
 * {@link MAX_PHRASE_WORDS}, the last a content word naming a thing (a phrase ending in a person, place or time is
 * none); with `bare`, also a plural noun said without a determiner ("photos of the damage").
 */
export function thingsNamed(facts: SentenceFacts, words: ActionWords, bare = false, things: readonly string[] = []): string[][] {
  let text = facts.sentence.text;
  for (const said of facts.dates.map((mention) => mention.text)) text = text.replace(said, ' , ');
  // "a fifteen dollar fee": the amount goes, the thing stays ("a fee"; the amount is in the details).
  for (const said of facts.amounts.map((amount) => amount.text)) text = text.replace(said, ' ');
  const tokens = text.replace(/[’]/g, "'").split(/\s+/).filter(Boolean);
  const phrases: string[][] = [];
  const isThing = (word: string) => !words.notThings.has(word) || things.includes(word);
  tokens.forEach((token, index) => {
    // A possessive opens a noun phrase too: "Jayden's permission slip".
    if (!words.antecedentDeterminers.includes(token.toLowerCase()) && !/^\p{Lu}\p{Ll}+'s$/u.test(token)) return;
    // "a bit short notice", "a lot of forms": a quantity, no thing.
    if (words.quantityWords.includes((tokens[index + 1] ?? '').toLowerCase())) return;
    const phrase: string[] = [];
    for (const next of tokens.slice(index + 1, index + 1 + MAX_PHRASE_WORDS)) {
      // "your sofa's arrived": the thing, its "'s" (is, has) left out.
      const word = next.replace(/[.,;:!?]+$/, '').replace(/'s$/, '');
      // "the consent form signed first": a participle after the noun says what is done to it.
      if (!/^[a-z][a-z-]*$/.test(word) || words.objectStopWords.includes(word) || words.auxiliaries.includes(word)
        || (phrase.length > 0 && (words.resultParticiple.test(word) || words.thingVerbs.includes(word)))) break;
      phrase.push(word);
      if (word !== next) break;
    }
    while (phrase.length > 0 && !isContentWord(phrase.at(-1)!)) phrase.pop();
    if (phrase.length > 0 && isThing(phrase.at(-1)!) && !phrase.some((word) => /^(?:first|second|third|\w+(?:teenth|tieth|th))$/.test(word))) {
      phrases.push(phrase);
    }
  });
  if (bare) {
    tokens.forEach((token, index) => {
      // "Photos of the damage and the report number.": a sentence's first word is capitalised
      // for being first, a plural noun all the same.
      const asSaid = index === 0 ? token.charAt(0).toLowerCase() + token.slice(1) : token;
      const word = asSaid.replace(/[.,;:!?]+$/, '');
      const before = (tokens[index - 1] ?? '').toLowerCase();
      if (/^[a-z][a-z-]*$/.test(word) && keyOf(word) !== word && isContentWord(word) && isThing(keyOf(word))
        && !words.antecedentDeterminers.includes(before) && !words.anaphors.includes(before)) phrases.push([word]);
    });
  }
  return phrases;
}
