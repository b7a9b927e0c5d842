/**
 * How `npm run eval:speakers` scores a resolved speaker against the annotator's expectation
 * (./speakerCalls.json), and which labels count as invented.
 */
import type { CallMetadata } from '../../src/domain/calls/callTypes.js';
import type { Speaker } from '../../src/domain/transcripts/transcriptSchema.js';
import type { SpeakerExpectation } from './speakerCalls.js';

/** The product's label for a speaker it gives no name: "Speaker 2". */
const placeholderLabel = /^Speaker \d+$/;
/** The product's label for a contact known only by a phone number: "Contact …4567". */
const phoneDigitsLabel = /^Contact …\d{4}$/;

/** Whether a label is one of the product's conventions for a speaker without a personal name. */
export const isNoPersonalName = (label: string): boolean => placeholderLabel.test(label) || phoneDigitsLabel.test(label);

/**
 * Name right: the product's label equals the expected name, or the expected name is null (the
 * annotator heard no name) and the label is no personal name ("Speaker N" or "Contact …NNNN").
 * A phone label where the annotator heard a name ("Gary from Acme") is a wrong name.
 */
export function nameRight(label: string, expectedName: string | null): boolean {
  return label === expectedName || (expectedName === null && isNoPersonalName(label));
}

/** Role and name against the expectation; a speaker missing from the transcript has neither right. */
export function scoreSpeaker(expected: SpeakerExpectation, got: Speaker | undefined): { roleRight: boolean; nameRight: boolean } {
  if (!got) return { roleRight: false, nameRight: false };
  return { roleRight: got.role === expected.role, nameRight: nameRight(got.label, expected.name) };
}

/** The "Contact …NNNN" label a phone number may give, as resolveSpeakers documents it. */
export function phoneLabelOf(phoneNumber: string | undefined): string | undefined {
  const digits = (phoneNumber ?? '').replace(/\D/g, '');
  return digits.length > 4 ? `Contact …${digits.slice(-4)}` : undefined;
}

/**
 * Labels and display names the product had no ground for: none of "Speaker N", the call's own
 * phone label, the user's display name or the metadata contact name. The resolver only ever
 * labels from those, so a name the annotator heard but the metadata lacks is a wrong name, never
 * an invented one.
 */
export function inventedNames(speakers: readonly Speaker[], userDisplayName: string | undefined, metadata: Pick<CallMetadata, 'contactName' | 'phoneNumber'>): string[] {
  const allowed = new Set([userDisplayName?.trim(), metadata.contactName?.trim(), phoneLabelOf(metadata.phoneNumber)].filter((name): name is string => Boolean(name)));
  return speakers.flatMap((speaker) => [...new Set([speaker.label, speaker.displayName])].filter((name) => !placeholderLabel.test(name) && !allowed.has(name)));
}
