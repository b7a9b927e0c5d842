/** Abbreviations whose full stop does not end a sentence ("Dr. Patel", "3 p.m. tomorrow"). */
const abbreviation = /\b(?:mr|mrs|ms|dr|prof|st|jr|sr|vs|etc|approx|dept|inc|ltd|co|no|e\.g|i\.e|a\.m|p\.m)\.$/i;

/** A sentence end: terminal punctuation, closing quotes or brackets, then blanks. */
const sentenceEnd = /[.!?…]+["'”’)\]]*\s+/g;

/**
 * The sentences of one segment's text, each trimmed and as said (so a sentence can always be found
 * again in its segment). A full stop ends a sentence unless it closes a known abbreviation or the
 * next word starts in lower case ("about 3. or so" in a badly punctuated transcript); a question
 * or exclamation mark always does. A text without terminal punctuation (some transcribers emit
 * none) is one sentence.
 */
export function splitSentences(text: string): string[] {
  const sentences: string[] = [];
  let start = 0;
  for (const match of text.matchAll(sentenceEnd)) {
    const end = match.index + match[0].length;
    const candidate = text.slice(start, end).trim();
    const next = text.charAt(end);
    const endsWithFullStopOnly = /\.["'”’)\]]*$/.test(candidate) && !/[!?]/.test(match[0]);
    if (endsWithFullStopOnly && (abbreviation.test(candidate.replace(/["'”’)\]]+$/, '')) || /\p{Ll}/u.test(next))) continue;
    if (candidate) sentences.push(candidate);
    start = end;
  }
  const rest = text.slice(start).trim();
  if (rest) sentences.push(rest);
  return sentences;
}
