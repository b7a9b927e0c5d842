import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { readFileSync } from 'node:fs';
import { ErrorCodes } from './errors.js';
import { CallMetadataSchema } from './schemas/callSchemas.js';

/**
 * The OpenAPI 3.1 document of the HTTP API, generated from the route schemas by
 * @fastify/swagger, and its viewer (@fastify/swagger-ui, bundled assets only) at `/docs`, the
 * document itself at `/docs/json`. `scripts/writeOpenApi.ts` writes it to `docs/openapi.json`.
 *
 * Nothing here changes how a request is validated or a response serialized: the route schemas
 * Fastify compiled are never modified; every rewrite below works on copies, at document time.
 *
 * - Schemas with an `$id` (TypeBox `{ $id: 'User' }`) become `components/schemas/<id>` and are
 *   referenced wherever they are used; error responses reference `components/responses`.
 * - Hidden: the viewer itself (`/docs/**`) and the operator endpoints (`/admin/**`).
 *   The probes `/actuator/**` are documented under the tag `operations`.
 * - The two uploads stream their body (no body schema), so their `multipart/form-data`
 *   request bodies are described here, by route.
 */

export const openApiPrefix = '/docs';

/** Routes that are not part of the API: the viewer and the operator endpoints. */
export function isHiddenFromOpenApi(url: string): boolean {
  return /^\/(docs|admin)(\/|$)/.test(url);
}

const packageVersion = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

type Json = Record<string, unknown>;
type Operation = Json & { responses?: Record<string, Json>; parameters?: Json[]; tags?: string[]; security?: Json[] };

const componentMarker = 'x-callscope-component';
const schemasPath = '#/components/schemas/';
const mutatingMethods = new Set(['post', 'put', 'patch', 'delete']);
const httpMethods = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

const tags = [
  { name: 'calls', description: 'Call recordings: upload, list, status, detail, transcript, analysis, export, deletion' },
  { name: 'actions', description: 'Action items extracted from the user\'s calls' },
  { name: 'search', description: 'Full-text search over the user\'s completed calls' },
  { name: 'users', description: 'The caller\'s own profile, statistics and account deletion' },
  { name: 'voice profile', description: 'Optional voice profile (off unless `SERVICE_VOICE_EMBEDDING_ENABLED=true`)' },
  { name: 'health', description: 'Liveness of the API; no credentials' },
  { name: 'operations', description: 'Probes and metrics for the operator (`/actuator/**`); no API credentials' },
  { name: 'callbacks', description: 'The site\'s transcription provider answering in callback mode; verified by its Standard Webhooks signature, no user credentials' },
];

function tagOf(path: string): string {
  if (path.startsWith('/api/calls')) return 'calls';
  if (path.startsWith('/api/actions')) return 'actions';
  if (path.startsWith('/api/search')) return 'search';
  if (path.startsWith('/api/users/me/voice-profile')) return 'voice profile';
  if (path.startsWith('/api/users')) return 'users';
  if (path === '/api/health') return 'health';
  if (path.startsWith('/api/callbacks')) return 'callbacks';
  return 'operations';
}

/** Stable operation ids (for generated clients), by `METHOD path`. */
const operationIds: Record<string, string> = {
  'GET /api/health': 'getHealth',
  'POST /api/calls/analyze': 'uploadCall',
  'GET /api/calls': 'listCalls',
  'GET /api/calls/status': 'getCallStatuses',
  'GET /api/calls/events': 'streamCallEvents',
  'GET /api/calls/{id}': 'getCall',
  'GET /api/calls/{id}/transcript': 'getCallTranscript',
  'GET /api/calls/{id}/analysis': 'getCallAnalysis',
  'GET /api/calls/{id}/export': 'exportCall',
  'PATCH /api/calls/{id}/speakers/{speakerId}': 'correctCallSpeaker',
  'POST /api/calls/{id}/speakers/merge': 'mergeCallSpeakers',
  'DELETE /api/calls/{id}': 'deleteCall',
  'DELETE /api/calls': 'deleteCalls',
  'GET /api/search': 'searchCalls',
  'GET /api/actions': 'listActionItems',
  'PATCH /api/actions/{id}': 'updateActionItem',
  'GET /api/users/me': 'getCurrentUser',
  'PATCH /api/users/me': 'updateCurrentUser',
  'DELETE /api/users/me': 'deleteCurrentUser',
  'GET /api/users/me/stats': 'getCurrentUserStats',
  'POST /api/users/me/voice-profile': 'createVoiceProfile',
  'GET /api/users/me/voice-profile/status': 'getVoiceProfileStatus',
  'DELETE /api/users/me/voice-profile': 'deleteVoiceProfile',
  'GET /actuator/health': 'getActuatorHealth',
  'GET /actuator/health/liveness': 'getActuatorLiveness',
  'GET /actuator/health/readiness': 'getActuatorReadiness',
  'GET /actuator/prometheus': 'getPrometheusMetrics',
  'POST /api/callbacks/transcription': 'receiveTranscriptionCallback',
};

/** Every `/api` route but the liveness probe needs: the API key (when the server has one) and one identity. */
const apiSecurity = [
  { bearerAuth: [], apiKey: [] },
  { localUser: [], apiKey: [] },
  { bearerAuth: [] },
  { localUser: [] },
];

const securitySchemes = {
  bearerAuth: {
    type: 'http' as const, scheme: 'bearer', bearerFormat: 'JWT',
    description: 'The identity provider\'s ID token: `Authorization: Bearer <ID_TOKEN>`. The first request of a new identity creates its user.',
  },
  apiKey: {
    type: 'apiKey' as const, in: 'header', name: 'X-API-Key',
    description: 'Shared secret; required on every `/api` request (except `GET /api/health`) when the server has `API_KEY` set, in addition to the identity.',
  },
  localUser: {
    type: 'apiKey' as const, in: 'header', name: 'X-Local-User-Id',
    description: 'Local-user mode only (`LOCAL_AUTH=true`): names the user instead of an ID token (1-128 characters `[A-Za-z0-9._@-]`). Ignored when a Bearer token is sent.',
  },
  metricsToken: {
    type: 'http' as const, scheme: 'bearer',
    description: '`/actuator/prometheus` only: `Authorization: Bearer <METRICS_TOKEN>`; loopback clients need none.',
  },
};

const statusTexts: Record<string, string> = {
  200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No Content', 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden',
  404: 'Not Found', 408: 'Request Timeout', 409: 'Conflict', 413: 'Payload Too Large', 415: 'Unsupported Media Type',
  422: 'Unprocessable Content', 429: 'Too Many Requests', 500: 'Internal Server Error', 502: 'Bad Gateway',
  503: 'Service Unavailable', 507: 'Insufficient Storage',
};

/**
 * The codes an API route may answer with this status. The admin area's codes (`admin_*`) share
 * the table but never come from a documented route, so the descriptions leave them out.
 */
function apiCodesWithStatus(status: number): string[] {
  return Object.entries(ErrorCodes).filter(([code, entry]) => entry.status === status && !code.startsWith('admin_')).map(([code]) => code);
}

/** `components/responses`: `Error<status>` for each error status the operations use, `Error` for `default`. */
function errorResponseComponents(statuses: ReadonlySet<number>): Record<string, Json> {
  const envelope = { 'application/json': { schema: { $ref: `${schemasPath}ErrorEnvelope` } } };
  const requestIdHeader = { 'X-Request-Id': { $ref: '#/components/headers/XRequestId' } };
  const responses: Record<string, Json> = {};
  for (const status of [...statuses].sort((a, b) => a - b)) {
    const codes = apiCodesWithStatus(status);
    responses[`Error${status}`] = {
      description: `${statusTexts[status] ?? 'Error'}: the error envelope${codes.length > 0 ? `; \`error.code\` is ${codes.map((code) => `\`${code}\``).join(', ')}` : ''}`,
      headers: { ...requestIdHeader, ...(status === 429 ? { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } } : {}) },
      content: envelope,
    };
  }
  responses.Error = {
    description: 'Any other error, in the same envelope: e.g. 408 `request_timeout`, 415 `unsupported_content_type`, 500 `internal_error`, 503 `service_unavailable` (identity provider unreachable).',
    headers: requestIdHeader,
    content: envelope,
  };
  return responses;
}

const description = `The HTTP API of a Callscope box. Callscope runs on premises: recordings, transcripts, analyses and
voice profiles stay on this box, and every resource belongs to exactly one user, who reaches only their own data.

**Authentication.** Every \`/api\` endpoint except \`GET /api/health\` needs one identity: \`Authorization: Bearer <ID_TOKEN>\`
(the identity provider's ID token) or, in local-user mode only, \`X-Local-User-Id\`. When the server has an \`API_KEY\`,
\`X-API-Key\` is required as well. Missing or invalid credentials are 401 \`auth_invalid\`.

**Errors.** Every error is \`{"error": {"code", "message", "details?"}}\` (\`ErrorEnvelope\`); \`code\` comes from one closed
table, listed in the schema's enum.

**Idempotency.** POST, PATCH and DELETE take an optional \`Idempotency-Key\`: the first response below 500 is stored for
24 hours and replayed (header \`Idempotent-Replayed: true\`) to repeats; the same key on a different request is 409.

**Request ids.** Every response carries \`X-Request-Id\`: the request's own (8-64 characters \`[A-Za-z0-9-]\`) or a new UUID.`;

/**
 * Registers @fastify/swagger and the viewer. Call it on the root instance before any route is
 * registered: @fastify/swagger collects routes as they are added.
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Callscope API', version: packageVersion, description },
      servers: [{ url: '/', description: 'This Callscope box' }],
      tags,
      components: { securitySchemes },
    },
    transform: ({ schema, url }) => {
      if (isHiddenFromOpenApi(url)) return { schema: { ...schema, hide: true }, url };
      return { schema: markComponents(schema) as typeof schema, url };
    },
    transformObject: (documentObject) => finishDocument((documentObject as { openapiObject: Json }).openapiObject),
  });

  await app.register(swaggerUi, {
    routePrefix: openApiPrefix,
    theme: { title: 'Callscope API' },
    uiConfig: { deepLinking: true, displayRequestDuration: true, defaultModelsExpandDepth: 1 },
    // Everything the viewer loads comes from this box; nothing leaves it.
    staticCSP: "default-src 'self'; base-uri 'self'; connect-src 'self'; img-src 'self' data:; font-src 'self' data:; "
      + "style-src 'self' 'unsafe-inline'; script-src 'self'; object-src 'none'; frame-ancestors 'self'; form-action 'self'",
  });
}

/** The document as `docs/openapi.json` holds it: 2-space JSON and a final newline. */
export function openApiJson(app: FastifyInstance): string {
  return `${JSON.stringify(app.swagger(), null, 2)}\n`;
}

// ---------------------------------------------------------------------------------------------
// Route schemas → components

/**
 * A copy of a route schema in which every subschema with an `$id` is marked (instead of the
 * `$id`, which @fastify/swagger would drop from top-level schemas and rename `def-N` in nested
 * ones), so that {@link finishDocument} can move it to `components/schemas/<id>`.
 */
function markComponents(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(markComponents);
  if (schema === null || typeof schema !== 'object') return schema;
  const copy: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$id' && typeof value === 'string') copy[componentMarker] = componentName(value);
    else copy[key] = markComponents(value);
  }
  return copy;
}

/** `User` stays `User`; `https://host/schemas/analysis-v2.schema.json` becomes `analysis-v2`. */
function componentName(id: string): string {
  return id.replace(/#.*$/, '').replace(/^.*\//, '').replace(/\.schema\.json$|\.json$/, '').replace(/[^A-Za-z0-9._-]/g, '_');
}

/** Moves every marked schema to `components/schemas` (bottom-up) and references it instead. */
function hoistComponents(node: unknown, components: Record<string, Json>): unknown {
  if (Array.isArray(node)) return node.map((item) => hoistComponents(item, components));
  if (node === null || typeof node !== 'object') return node;
  const copy: Json = {};
  for (const [key, value] of Object.entries(node)) copy[key] = hoistComponents(value, components);
  const name = copy[componentMarker];
  if (typeof name !== 'string') return copy;
  delete copy[componentMarker];
  const existing = components[name];
  if (existing && JSON.stringify(existing) !== JSON.stringify(copy)) {
    throw new Error(`Two different schemas have the $id ${name}: give one of them another $id`);
  }
  components[name] = copy;
  return { $ref: `${schemasPath}${name}` };
}

// ---------------------------------------------------------------------------------------------
// The finished document

function finishDocument(document: Json): Json {
  const componentsIn = (document.components ?? {}) as Json & { schemas?: Record<string, Json> };
  const schemas: Record<string, Json> = { ...(componentsIn.schemas ?? {}) };
  const paths = hoistComponents(document.paths ?? {}, schemas) as Record<string, Record<string, Operation>>;

  if (schemas.Analysis && schemas.Analysis.description === undefined) {
    schemas.Analysis = {
      ...schemas.Analysis,
      description: 'A stored analysis, in the shape of the schema version it was stored with (`schemaVersion`); version 2 is specified in full by `docs/schemas/analysis-v2.schema.json`.',
    };
  }
  schemas.CallMetadata = { ...(JSON.parse(JSON.stringify(CallMetadataSchema)) as Json), description: 'The upload metadata envelope: every field optional, unknown fields ignored' };

  const errorStatuses = new Set<number>();
  for (const [path, pathItem] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(pathItem)) {
      if (!httpMethods.has(method)) continue;
      pathItem[method] = finishOperation(method, path, operation, errorStatuses);
    }
  }

  return {
    ...document,
    paths,
    components: {
      ...componentsIn,
      schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b))),
      responses: errorResponseComponents(errorStatuses),
      parameters: {
        XRequestId: {
          name: 'X-Request-Id', in: 'header', required: false,
          description: 'Optional id to correlate logs; echoed in the response. Anything else than 8-64 characters `[A-Za-z0-9-]` is replaced by a new UUID.',
          schema: { type: 'string' },
        },
        IdempotencyKey: {
          name: 'Idempotency-Key', in: 'header', required: false,
          description: 'Makes a retry safe: the first response below 500 is stored for 24 hours (per user) and replayed with `Idempotent-Replayed: true`. A UUID v4 is recommended. The same key on a different request is 409 `idempotency_key_conflict`; while the first request still runs, 409 `idempotency_key_in_progress`.',
          schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' },
        },
      },
      headers: {
        XRequestId: { description: 'The request\'s id (the one sent, or a new UUID); quote it when reporting a problem', schema: { type: 'string' } },
        IdempotentReplayed: { description: '`true` when this is the stored response of an earlier request with the same Idempotency-Key', schema: { type: 'string', enum: ['true'] } },
        RetryAfter: { description: 'Seconds to wait before retrying', schema: { type: 'integer', minimum: 1 } },
      },
      securitySchemes,
    },
  };
}

/** The operation with tags, id, security, common headers and error responses, in the usual key order. */
function finishOperation(method: string, path: string, operation: Operation, errorStatuses: Set<number>): Operation {
  const key = `${method.toUpperCase()} ${path}`;
  const isApi = path.startsWith('/api/');
  // The provider's callback carries its own signature instead (and no Idempotency-Key: a replay is recognised by its webhook-id).
  const isCallback = path.startsWith('/api/callbacks/');
  const needsCredentials = isApi && path !== '/api/health' && !isCallback;
  const mutating = isApi && !isCallback && mutatingMethods.has(method);

  const operationId = operationIds[key];
  if (operationId) operation.operationId = operationId;
  operation.tags = [tagOf(path)];
  if (needsCredentials) operation.security = apiSecurity;
  operation.parameters = [
    ...(operation.parameters ?? []),
    ...(mutating ? [{ $ref: '#/components/parameters/IdempotencyKey' }] : []),
    { $ref: '#/components/parameters/XRequestId' },
  ];
  const requestBody = multipartBodies[key];
  if (requestBody) operation.requestBody = requestBody;

  const responses = operation.responses ?? {};
  if (mutating && !responses['409']) responses['409'] = {};
  if (needsCredentials && !responses['401']) responses['401'] = {};
  operationPatches[key]?.(operation, responses);
  for (const [status, response] of Object.entries(responses)) {
    const code = Number(status);
    if (isEnvelopeResponse(response) || (code >= 400 && Object.keys(response).length === 0)) {
      responses[status] = { $ref: `#/components/responses/Error${status}` };
      errorStatuses.add(code);
      continue;
    }
    if (response.$ref !== undefined) continue;
    if (response.description === 'Default Response') response.description = statusTexts[status] ?? status;
    if (code === 204) delete response.content;
    response.headers = {
      ...(response.headers as Json | undefined),
      'X-Request-Id': { $ref: '#/components/headers/XRequestId' },
      ...(mutating && code < 300 ? { 'Idempotent-Replayed': { $ref: '#/components/headers/IdempotentReplayed' } } : {}),
    };
  }
  responses.default = { $ref: '#/components/responses/Error' };
  operation.responses = responses;
  const { tags: operationTags, summary, description: text, operationId: id, security, parameters, requestBody: body, ...rest } = operation;
  return {
    tags: operationTags, summary, ...(text !== undefined ? { description: text } : {}), ...(id !== undefined ? { operationId: id } : {}),
    ...(security !== undefined ? { security } : {}), parameters, ...(body !== undefined ? { requestBody: body } : {}), ...rest,
  };
}

function isEnvelopeResponse(response: Json): boolean {
  const content = response.content as Record<string, { schema?: Json }> | undefined;
  return content?.['application/json']?.schema?.$ref === `${schemasPath}ErrorEnvelope`;
}

// ---------------------------------------------------------------------------------------------
// What the route schemas cannot say

const audioFile = (what: string) => ({
  type: 'string', format: 'binary', contentMediaType: 'audio/*',
  description: `${what}; recognised by its content, not its declared type`,
});

const flatFieldDescription = 'Flat form field, used only when there is no `metadata` part';

/** Request bodies of the streamed uploads, by `METHOD path`. */
const multipartBodies: Record<string, Json> = {
  'POST /api/calls/analyze': {
    required: true,
    description: 'The recording and, optionally, its metadata: as one JSON `metadata` part (then every flat field is ignored) or as flat fields.',
    content: {
      'multipart/form-data': {
        schema: {
          type: 'object',
          required: ['file'],
          properties: {
            file: audioFile('The recording: `.m4a`, `.mp3`, `.wav`, `.aac` or `.ogg`, at most `MAX_FILE_SIZE` (50 MB by default)'),
            metadata: { $ref: `${schemasPath}CallMetadata` },
            ...Object.fromEntries(Object.entries(CallMetadataSchema.properties).map(([name, schema]) => [
              name, { ...(JSON.parse(JSON.stringify(schema)) as Json), description: flatFieldDescription },
            ])),
            fileName: { type: 'string', minLength: 1, maxLength: 255, description: `${flatFieldDescription}: replaces the file part's own name` },
          },
        },
        encoding: {
          file: { contentType: 'audio/mp4, audio/mpeg, audio/wav, audio/aac, audio/ogg, application/octet-stream' },
          metadata: { contentType: 'application/json' },
        },
      },
    },
  },
  'POST /api/users/me/voice-profile': {
    required: true,
    description: 'A voice sample of the user alone, and the user\'s consent (ask for it before sending).',
    content: {
      'multipart/form-data': {
        schema: {
          type: 'object',
          required: ['file', 'consentAccepted'],
          properties: {
            file: audioFile('The voice sample: WAV, MP3 or M4A, between `SERVICE_VOICE_SAMPLE_MIN_SECONDS` and `SERVICE_VOICE_SAMPLE_MAX_SECONDS` long, at most `SERVICE_VOICE_SAMPLE_MAX_SIZE_MB`'),
            consentAccepted: {
              type: 'boolean', enum: [true],
              description: 'The user ticked the consent box: the text `true`. Anything else is 400 `validation_failed`.',
            },
          },
        },
        encoding: { file: { contentType: 'audio/wav, audio/mpeg, audio/mp4, application/octet-stream' } },
      },
    },
  },
};

const liveness503 = {
  description: 'Service Unavailable: the database is unreachable. The error envelope (`service_unavailable`) with `status: "DOWN"`.',
  headers: { 'X-Request-Id': { $ref: '#/components/headers/XRequestId' } },
  content: {
    'application/json': {
      schema: {
        allOf: [
          { $ref: `${schemasPath}ErrorEnvelope` },
          { type: 'object', required: ['status'], properties: { status: { type: 'string', enum: ['DOWN'] } } },
        ],
      },
    },
  },
};

/** Corrections to what the route schemas say, by `METHOD path`. */
const operationPatches: Record<string, (operation: Operation, responses: Record<string, Json>) => void> = {
  'GET /api/health': (_operation, responses) => { responses['503'] = liveness503; },
  'GET /actuator/health': (_operation, responses) => { responses['503'] = liveness503; },
  'GET /actuator/health/liveness': (_operation, responses) => { responses['503'] = liveness503; },
  'GET /actuator/prometheus': (operation, responses) => {
    operation.security = [{}, { metricsToken: [] }];
    responses['200'] = { description: 'Metrics in the Prometheus text format', content: { 'text/plain': { schema: { type: 'string' } } } };
    responses['401'] = {};
  },
};
