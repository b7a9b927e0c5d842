import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, errorEnvelope, type ErrorCode } from './errors.js';
import type { FieldProblem } from './validateAgainst.js';

/** Framework and plugin error codes that describe a bad request, by the code they map to. */
const frameworkCodes: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'validation_failed',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'validation_failed',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'validation_failed',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_content_type',
  FST_ERR_CTP_EMPTY_TYPE: 'unsupported_content_type',
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_INVALID_MULTIPART_CONTENT_TYPE: 'unsupported_content_type',
  FST_INVALID_JSON_FIELD_ERROR: 'validation_failed',
  FST_PROTO_VIOLATION: 'validation_failed',
  FST_PARTS_LIMIT: 'validation_failed',
  FST_FILES_LIMIT: 'validation_failed',
  FST_FIELDS_LIMIT: 'validation_failed',
  FST_REQ_FILE_TOO_LARGE: 'payload_too_large',
  FST_ERR_REQUEST_TIMEOUT: 'request_timeout',
};

/** Messages for framework errors whose own wording is too technical for a client. */
const frameworkMessages: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'The request body is not valid JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is empty but JSON was declared',
  FST_INVALID_JSON_FIELD_ERROR: 'The metadata part is not valid JSON',
  FST_PARTS_LIMIT: 'The form has too many parts',
  FST_FILES_LIMIT: 'Only one file part is accepted',
  FST_FIELDS_LIMIT: 'The form has too many fields',
};

/** Errors the multipart parser (busboy) raises for a malformed or cut-off body. */
const malformedMultipart = /multipart|boundary|part terminated|unexpected end/i;

/**
 * The one error handler: every error leaves as the envelope from the closed code table. Only
 * server-side faults are 5xx (and logged with their stack); anything the client caused maps to
 * a 4xx, so no request gets a 500 for what it sent.
 */
export function handleError(error: FastifyError | ApiError | Error, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const { code, message, details } = classify(error);
  const status = new ApiError(code).statusCode;
  if (status >= 500) request.log.error({ err: error }, 'request failed');
  else request.log.info({ code }, 'request refused');
  if (code === 'rate_limited' && details?.retryAfterSeconds !== undefined) reply.header('retry-after', String(details.retryAfterSeconds));
  return reply.code(status).type('application/json; charset=utf-8').send(errorEnvelope(code, message, details));
}

function classify(error: FastifyError | ApiError | Error): { code: ErrorCode; message?: string; details?: Record<string, unknown> } {
  if (error instanceof ApiError) return { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) };
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) {
    return { code: 'validation_failed', message: 'The request is not valid', details: { fields: validationProblems(fastifyError) } };
  }
  const mapped = fastifyError.code ? frameworkCodes[fastifyError.code] : undefined;
  if (mapped) return { code: mapped, ...(frameworkMessages[fastifyError.code] ? { message: frameworkMessages[fastifyError.code] } : {}) };
  if (malformedMultipart.test(error.message ?? '') && !fastifyError.statusCode) {
    return { code: 'validation_failed', message: 'The multipart body is malformed or incomplete' };
  }
  const status = fastifyError.statusCode ?? 500;
  if (status === 404) return { code: 'route_not_found' };
  if (status === 413) return { code: 'payload_too_large' };
  if (status === 415) return { code: 'unsupported_content_type' };
  if (status === 408) return { code: 'request_timeout' };
  if (status >= 400 && status < 500) return { code: 'validation_failed' };
  return { code: 'internal_error' };
}

function validationProblems(error: FastifyError): FieldProblem[] {
  const where = error.validationContext ?? 'request';
  return (error.validation ?? []).slice(0, 20).map((problem) => {
    const params = problem.params as Record<string, unknown>;
    const child = params.missingProperty ?? params.additionalProperty;
    const path = `${where}${problem.instancePath}${typeof child === 'string' ? `/${child}` : ''}`;
    const message = params.additionalProperty !== undefined ? 'is not an accepted field' : (problem.message ?? 'is not valid');
    return { path, message };
  });
}
