/** The specification's error table ("## Errors"): code → status. Clients switch on these; they never change. */
export const specErrorCodes: Readonly<Record<string, number>> = {
  validation_failed: 400,
  auth_invalid: 401,
  payload_too_large: 413,
  unsupported_media_type: 415,
  call_not_found: 404,
  call_not_completed: 422,
  feature_not_available: 404,
  voice_sample_too_short: 400,
  voice_sample_too_long: 400,
  voice_sample_too_large: 413,
  voice_provider_error: 502,
};
