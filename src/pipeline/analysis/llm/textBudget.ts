/**
 * Sizing prompt text on the main thread, which has no tokenizer: the analysers plan what fits a
 * model's context from character counts, and the worker counts exactly (a chunk that does not
 * fit after all is split).
 */

/** Characters per token assumed: below English's ~4, so that plans err small. */
export const charsPerToken = 3;

/** Tokens `text` is taken to need. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / charsPerToken);
}

/** `text` cut to at most `maxLength` characters, with `…` where it was cut. */
export function shorten(text: string, maxLength: number): string {
  return text.length <= maxLength ? text : `${text.slice(0, Math.max(0, maxLength - 1))}…`;
}
