/** What local redaction can find in a transcript (`REDACT` names these). */
export const redactionKinds = ['card', 'iban', 'national_id', 'date_of_birth', 'email', 'phone'] as const;
export type RedactionKind = (typeof redactionKinds)[number];

/** The word that stands in for each redacted span, in the transcript and everything made from it. */
export const redactionPlaceholders: Record<RedactionKind, string> = {
  card: '[CARD]',
  iban: '[IBAN]',
  national_id: '[NATIONAL_ID]',
  date_of_birth: '[DATE_OF_BIRTH]',
  email: '[EMAIL]',
  phone: '[PHONE]',
};

/** `REDACT`'s default: card numbers must never be stored (PCI DSS). */
export const defaultRedactKinds: readonly RedactionKind[] = ['card'];

function isRedactionKind(name: string): name is RedactionKind {
  return (redactionKinds as readonly string[]).includes(name);
}

/** The names in a `REDACT` value (comma- or space-separated, case-insensitive), without empty ones. */
function namesOf(value: string): string[] {
  return value.split(/[\s,]+/).map((name) => name.trim().toLowerCase()).filter((name) => name.length > 0);
}

/**
 * The kinds a `REDACT` value turns on, in the canonical order, each once. `none` (alone) or an
 * empty list turns redaction off; unset means the default (`card`).
 */
export function redactKindsOf(value: string | undefined): RedactionKind[] {
  if (value === undefined) return [...defaultRedactKinds];
  const names = new Set(namesOf(value));
  return redactionKinds.filter((kind) => names.has(kind));
}

/** What is wrong with a `REDACT` value, one message each. */
export function redactProblems(value: string | undefined): string[] {
  if (value === undefined) return [];
  const names = namesOf(value);
  if (names.includes('none')) return names.length === 1 ? [] : ['`none` cannot be combined with other kinds'];
  return names.filter((name) => !isRedactionKind(name))
    .map((name) => `unknown kind "${name.slice(0, 40)}"; the kinds are ${redactionKinds.join(', ')} (or none)`);
}
