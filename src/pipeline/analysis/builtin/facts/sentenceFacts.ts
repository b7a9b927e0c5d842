import { findEmails, type EmailMention } from './contactDetails.js';
import type { FactLexicon } from './FactLexicon.js';
import { findAmounts, type AmountMention } from './findAmounts.js';
import { findCallDateMentions, type CallClock, type DateMention } from './findDateMentions.js';
import { findThirdPartyMentions, type NameMention } from './findPeople.js';
import type { Sentence } from '../../text/sentences.js';

/** What one sentence says that can be checked against the text: dates, amounts, addresses, names. */
export interface SentenceFacts {
  sentence: Sentence;
  dates: DateMention[];
  /** Money, numbers, durations, phone numbers and references (see `findAmounts`). */
  amounts: AmountMention[];
  emails: EmailMention[];
  /** Third parties named in the sentence. */
  names: NameMention[];
}

/**
 * The checkable facts of every sentence, found once and shared by every list built from them.
 * A spelled address is accepted only when the lexicon's email cue is in its segment or the
 * segment before ("what's your email?" – "sheila at acme dot com"); a phone number likewise
 * with the phone cue ("Could you call me back? It's 0161 496 0732.").
 * `excludedNames` are capitalised words that are no person (the organisation's words).
 */
export function sentenceFactsOf(sentences: readonly Sentence[], clock: CallClock, lexicon: FactLexicon, excludedNames: readonly string[]): SentenceFacts[] {
  const names = findThirdPartyMentions(sentences, lexicon.people, excludedNames);
  const segmentTexts = new Map(sentences.map((sentence) => [sentence.segmentIndex, sentence.segment.text]));
  const dates = findCallDateMentions(sentences.map((sentence) => sentence.text), clock, lexicon.dates, lexicon.numbers, sentences.map((sentence) => sentence.segment.speakerId));
  return sentences.map((sentence, at) => {
    const near = (cue: RegExp) => [sentence.segmentIndex, sentence.segmentIndex - 1].some((index) => cue.test(segmentTexts.get(index) ?? ''));
    const nearCue = near(lexicon.emails.cue);
    return {
      sentence,
      dates: dates[at]!,
      amounts: findAmounts(sentence.text, lexicon.amounts, lexicon.numbers, near(lexicon.amounts.phoneCue), dates[at]!),
      emails: findEmails(sentence.text, lexicon.emails, nearCue),
      names: names.filter((mention) => mention.sentence === sentence),
    };
  });
}
