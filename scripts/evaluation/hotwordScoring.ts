/**
 * Scoring for `npm run eval:hotwords`: whether a name came out spelt exactly, and the word error
 * rate of a whole transcript.
 */

/**
 * Whether `transcript` holds `name` exactly: letters as given (case aside), whole words (no
 * letter or digit on either side), any whitespace between its words. "Zentrix" is not found in
 * "Zentrixes" or "Zen Trix".
 */
export function nameFound(transcript: string, name: string): boolean {
  return nameMentions(transcript, name) > 0;
}

/** How many times `transcript` holds `name` exactly, by the rules of {@link nameFound}. */
export function nameMentions(transcript: string, name: string): number {
  return transcript.normalize('NFC').match(namePattern(name))?.length ?? 0;
}

/** Words for the error rate: lower case, punctuation dropped (an apostrophe or hyphen inside a word kept). */
export function scoringWords(text: string): string[] {
  return text
    .normalize('NFC')
    .toLocaleLowerCase('en')
    .replace(/(?<![\p{L}\p{N}])['’-]|['’-](?![\p{L}\p{N}])/gu, ' ')
    .replace(/[^\p{L}\p{N}'’\-\s]/gu, ' ')
    .split(/\s+/)
    .filter((word) => word !== '');
}

/** Substitutions, deletions and insertions over the reference's words (word-level Levenshtein); 0 for two empty texts, 1 for an empty hypothesis. */
export function wordErrorRate(reference: readonly string[], hypothesis: readonly string[]): number {
  if (reference.length === 0) return hypothesis.length === 0 ? 0 : 1;
  // One row of the edit-distance table at a time, shape: (hypothesis.length + 1).
  let previous = Array.from({ length: hypothesis.length + 1 }, (_, index) => index);
  for (let row = 1; row <= reference.length; row++) {
    const current = [row];
    for (let column = 1; column <= hypothesis.length; column++) {
      const substitution = previous[column - 1]! + (reference[row - 1] === hypothesis[column - 1] ? 0 : 1);
      current.push(Math.min(substitution, previous[column]! + 1, current[column - 1]! + 1));
    }
    previous = current;
  }
  return previous[hypothesis.length]! / reference.length;
}

/** `name` as whole words, case aside, any whitespace between its words. */
function namePattern(name: string): RegExp {
  const words = name.normalize('NFC').trim().split(/\s+/).map(escapeRegExp);
  return new RegExp(`(?<![\\p{L}\\p{N}])${words.join('\\s+')}(?![\\p{L}\\p{N}])`, 'giu');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
