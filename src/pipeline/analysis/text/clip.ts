/** Cutting and capitalising text for the analysis' length-limited fields. */

/**
 * `text` trimmed and cut to at most `maxLength` characters at a word boundary, with "…" when cut:
 * the schema's string limits must hold and a cut mid-word reads as a typo. Punctuation before the
 * cut is dropped so the ellipsis does not follow a comma. A word longer than half the room is cut inside.
 */
export function clip(text: string, maxLength: number): string {
  const trimmed = text.trim();
  if (trimmed.length <= maxLength) return trimmed;
  const room = trimmed.slice(0, maxLength - 1);
  const lastBlank = room.lastIndexOf(' ');
  const cut = lastBlank > maxLength / 2 ? room.slice(0, lastBlank) : room;
  return `${cut.replace(/[\s,;:.!?-]+$/, '')}…`;
}

/** The first letter upper-cased. */
export function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
