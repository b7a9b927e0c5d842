/**
 * A voice profile is used only under the consent the user gave for it: the one stamped on the
 * profile must be the version the server requires now (`SERVICE_VOICE_CONSENT_VERSION`, editable
 * on the admin page). Versions are opaque labels, so any difference counts, not only a newer one.
 */
export function isConsentCurrent(profileConsentVersion: string, requiredConsentVersion: string): boolean {
  return profileConsentVersion === requiredConsentVersion;
}

/** For `speakerResolution.warnings` when a profile is left out for its consent version. */
export const outdatedConsentWarning = 'Voice match skipped: the voice profile was recorded under an earlier consent version; the user must accept the current consent and record it again';
