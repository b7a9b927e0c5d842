/** The longest title part of a file name, in characters (the date and extension come on top). */
const maxTitleLength = 60;

/** Latin letters that Unicode decomposition leaves whole, spelled out in ASCII. */
const asciiSpellings: Record<string, string> = { ß: 'ss', æ: 'ae', ø: 'o', œ: 'oe', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i' };

export interface ExportFileName {
  /** ASCII only, safe in any header or file system: `2026-11-20-dentist-appointment.srt`. */
  ascii: string;
  /** The same with the title's own letters (`2026-11-20-zahnarzt-müller.srt`) when it has non-ASCII ones; null otherwise. */
  unicode: string | null;
}

/**
 * The download name of an export: the recording date (`YYYY-MM-DD`), a slug of the title (lower
 * case, words joined by `-`, at most 60 characters; `call` when nothing is left) and the
 * format's extension. Neither form can hold a quote, a slash or a line break.
 */
export function exportFileName(recordedDate: string, title: string, extension: string): ExportFileName {
  const ascii = `${recordedDate}-${slug(asciiLetters(title), /[^a-z0-9]+/g)}.${extension}`;
  if (/^[\x20-\x7e]*$/.test(title)) return { ascii, unicode: null };
  const unicode = `${recordedDate}-${slug(title.normalize('NFC'), /[^\p{L}\p{N}]+/gu)}.${extension}`;
  return { ascii, unicode: unicode === ascii ? null : unicode };
}

/** Accents dropped (`é` → `e`), a few whole letters spelled out (`ß` → `ss`). */
function asciiLetters(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase().replace(/[^\x20-\x7e]/g, (letter) => asciiSpellings[letter] ?? ' ');
}

/** Lower case, every run of `separators` one `-`, trimmed, cut at a whole character. */
function slug(text: string, separators: RegExp): string {
  const joined = text.toLowerCase().replace(separators, '-').replace(/^-+|-+$/g, '');
  const cut = [...joined].slice(0, maxTitleLength).join('').replace(/-+$/, '');
  return cut === '' ? 'call' : cut;
}
