/** What a call's initial prompt is made of: the names said in it, and the site's own words. */
export interface TranscriptionPromptInput {
  /** The user's display name. Defaults to none. */
  userDisplayName?: string | undefined;
  /** The call's contact name (upload metadata). Defaults to none. */
  contactName?: string | undefined;
  /** The admin's terms (`TRANSCRIPTION_VOCABULARY`, see {@link vocabularyTerms}), most important first. Defaults to none. */
  vocabulary?: readonly string[];
}

/**
 * Longest prompt, characters. whisper reads at most 224 prompt tokens (half its 448-token text
 * context; OpenAI's API likewise keeps only the last 224): 600 characters of names and terms
 * come to roughly 150–200 tokens, leaving room for unusual spellings, which take more.
 */
export const maxPromptCharacters = 600;
/** Most terms `TRANSCRIPTION_VOCABULARY` may hold. */
export const maxVocabularyTerms = 100;
/** Longest single name or term, characters: anything longer is not a name and is left out. */
export const maxEntryCharacters = 100;

/**
 * The initial prompt ("hotwords") for whisper: the call's names and the admin's terms as a
 * spelling list, e.g. `"Callscope, Zentrix, Maria Lopez, Dr. Patel."`, or undefined when there
 * is nothing to say (then no prompt is sent at all).
 *
 * - A plain list, no labels: whisper does not follow instructions, it continues the style and
 *   spelling of the text before it (OpenAI's prompting guide calls this a spelling guide), and
 *   a list with no English words in it biases no language (`WHISPER_LANGUAGE=auto`).
 * - Each entry is trimmed, its control and invisible format characters become spaces, runs of
 *   spaces become one; an entry with no letter (a phone number given as a contact name) or
 *   longer than {@link maxEntryCharacters} is left out; duplicates (ignoring case) are kept once.
 * - At most {@link maxPromptCharacters}: whole entries are kept in order of importance (the
 *   user's name, the contact's, then the terms in the admin's order) and the first that does
 *   not fit ends the list.
 * - The terms come first and the names last: a model that cuts a long prompt keeps its end
 *   (whisper.cpp and OpenAI both do), so terms would go before names.
 */
export function transcriptionPrompt(input: TranscriptionPromptInput, maxCharacters = maxPromptCharacters): string | undefined {
  const seen = new Set<string>();
  const kept: { text: string; isName: boolean }[] = [];
  let length = 0;
  const candidates = [
    { text: input.userDisplayName, isName: true },
    { text: input.contactName, isName: true },
    ...(input.vocabulary ?? []).map((text) => ({ text, isName: false })),
  ];
  for (const candidate of candidates) {
    const text = cleanEntry(candidate.text ?? '');
    const key = text.toLocaleLowerCase();
    if (text === '' || !hasLetter.test(text) || text.length > maxEntryCharacters || seen.has(key)) continue;
    // ", " before every entry but the first, and the closing "." once.
    const added = (kept.length === 0 ? 0 : 2) + text.length + (kept.length === 0 ? 1 : 0);
    if (length + added > maxCharacters) break;
    seen.add(key);
    kept.push({ text, isName: candidate.isName });
    length += added;
  }
  if (kept.length === 0) return undefined;
  const ordered = [...kept.filter((entry) => !entry.isName), ...kept.filter((entry) => entry.isName)].map((entry) => entry.text);
  const list = ordered.join(', ');
  return endsSentence.test(list) ? list : `${list}.`;
}

/** The terms of a `TRANSCRIPTION_VOCABULARY` value (comma- or newline-separated), trimmed, without empty ones, in order. */
export function vocabularyTerms(setting: string | undefined): string[] {
  return (setting ?? '').split(/[,\r\n]+/).map((term) => cleanEntry(term)).filter((term) => term !== '');
}

/** What is wrong with a `TRANSCRIPTION_VOCABULARY` value, one message each (the length as a whole is the schema's to check). */
export function vocabularyProblems(setting: string | undefined): string[] {
  const terms = vocabularyTerms(setting);
  const problems: string[] = [];
  if (terms.length > maxVocabularyTerms) problems.push(`holds ${terms.length} terms; at most ${maxVocabularyTerms} are allowed`);
  const long = terms.filter((term) => term.length > maxEntryCharacters);
  if (long.length > 0) problems.push(`a term may have at most ${maxEntryCharacters} characters (separate terms with commas or new lines); too long: "${long[0]!.slice(0, 30)}…"`);
  return problems;
}

/** Control characters (C0, DEL, C1) and invisible format characters (zero-width, bidi overrides). */
const unwanted = /[\p{Cc}\p{Cf}]/gu;
const hasLetter = /\p{L}/u;
/** A list whose last entry already ends a sentence ("Acme Inc.") gets no second full stop. */
const endsSentence = /[.!?…]$/u;

function cleanEntry(text: string): string {
  return text.normalize('NFC').replace(unwanted, ' ').replace(/\s+/g, ' ').trim();
}
