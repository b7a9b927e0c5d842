/**
 * The closed table of error codes the API answers with, in the envelope
 * `{error: {code, message, details?}}`. Each key equals its `code`; codes are never reused
 * or renamed once released (clients switch on them). Messages are short and carry no
 * personal data; anything specific goes into `details`.
 */
export const ErrorCodes = {
  // From the interface specification.
  validation_failed: { status: 400, message: 'The request is not valid' },
  auth_invalid: { status: 401, message: 'Missing or invalid credentials' },
  payload_too_large: { status: 413, message: 'The upload is larger than the size limit' },
  unsupported_media_type: { status: 415, message: 'The audio type is not recognised' },
  call_not_found: { status: 404, message: 'Call not found' },
  call_not_completed: { status: 422, message: 'The call has not completed processing' },
  feature_not_available: { status: 404, message: 'This feature is not enabled on this server' },
  voice_sample_too_short: { status: 400, message: 'The voice sample is shorter than the minimum duration' },
  voice_sample_too_long: { status: 400, message: 'The voice sample is longer than the maximum duration' },
  voice_sample_too_large: { status: 413, message: 'The voice sample is larger than the size limit' },
  voice_provider_error: { status: 502, message: 'The voice provider failed' },
  // Decided by Callscope where the specification says "not shown" (see docs/api.md).
  invalid_cursor: { status: 400, message: 'The cursor is not valid for this request' },
  unsupported_content_type: { status: 415, message: 'The request content type is not accepted here' },
  action_item_not_found: { status: 404, message: 'Action item not found' },
  route_not_found: { status: 404, message: 'No such endpoint' },
  call_in_progress: { status: 409, message: 'The call is still being processed' },
  // Legal hold (an extension of the specification): only once an admin has placed a hold; `details.callIds` names the held calls.
  legal_hold: { status: 409, message: 'A legal hold keeps this data; it cannot be deleted until the hold is lifted' },
  // Speaker correction (`PATCH /calls/{id}/speakers/{speakerId}`, `POST /calls/{id}/speakers/merge`).
  speaker_not_found: { status: 404, message: 'The call has no such speaker' },
  call_not_correctable: { status: 409, message: 'Only a completed call\'s speakers can be corrected' },
  idempotency_key_conflict: { status: 409, message: 'The Idempotency-Key was already used for a different request' },
  idempotency_key_in_progress: { status: 409, message: 'A request with this Idempotency-Key is still being processed' },
  rate_limited: { status: 429, message: 'Too many requests; retry later' },
  // The live-status stream (`GET /api/calls/events`): a limit on open streams, not on requests; closing one frees a slot.
  too_many_streams: { status: 429, message: 'Too many live-status streams are open' },
  request_timeout: { status: 408, message: 'The request took too long' },
  internal_error: { status: 500, message: 'Internal server error' },
  service_unavailable: { status: 503, message: 'The service is temporarily unavailable' },
  insufficient_storage: { status: 507, message: 'The server has no space left to store this upload' },
  // The transcription provider's callbacks (`POST /api/callbacks/transcription`), not the mobile client's.
  callback_signature_invalid: { status: 401, message: 'The callback\'s signature is missing, wrong or too old' },
  transcription_job_not_found: { status: 404, message: 'No such transcription job' },
  transcription_job_not_waiting: { status: 409, message: 'The transcription job is no longer waiting for an answer' },
  // The admin area (`/admin/api`), not part of the mobile client's API.
  admin_auth_required: { status: 401, message: 'Sign in to the admin area first' },
  admin_csrf_failed: { status: 403, message: 'The request lacks a valid CSRF token or comes from another origin' },
  admin_setup_done: { status: 409, message: 'The admin password is already set' },
  admin_locked: { status: 429, message: 'Too many failed sign-ins; retry later' },
  // The admin page's Webhooks list: no delivery has this number (pruned after WEBHOOK_RETENTION_DAYS, or never existed).
  admin_webhook_delivery_not_found: { status: 404, message: 'No such webhook delivery' },
  // The admin page's legal holds: no hold has this id, or it was lifted already (a lift is not undone).
  admin_legal_hold_not_found: { status: 404, message: 'No active legal hold with this id' },
  // The admin page's certificate: an upload that fails its check (`details.problem`: certificate_unreadable, key_unreadable,
  // key_mismatch, not_yet_valid, expired, names_not_covered, with `details.missingNames`); the certificate in use stays.
  admin_tls_certificate_rejected: { status: 422, message: 'The certificate was not accepted; the one in use stays' },
  // An upload or removal while TLS_CERT_FILE and TLS_KEY_FILE name the certificate: those files are the place to change it.
  admin_tls_set_by_environment: { status: 409, message: 'The certificate is set by TLS_CERT_FILE and TLS_KEY_FILE' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ErrorCodes;

/** Field-level problems or other structured context carried in `error.details`. */
export type ErrorDetails = Record<string, unknown>;

/** An error that the HTTP layer turns into the envelope with the code's status. */
export class ApiError extends Error {
  readonly statusCode: number;

  constructor(
    readonly code: ErrorCode,
    message: string = ErrorCodes[code].message,
    readonly details?: ErrorDetails,
  ) {
    super(message);
    this.name = 'ApiError';
    this.statusCode = ErrorCodes[code].status;
  }
}

export interface ErrorEnvelope {
  error: { code: ErrorCode; message: string; details?: ErrorDetails };
}

export function errorEnvelope(code: ErrorCode, message?: string, details?: ErrorDetails): ErrorEnvelope {
  return { error: { code, message: message ?? ErrorCodes[code].message, ...(details ? { details } : {}) } };
}
