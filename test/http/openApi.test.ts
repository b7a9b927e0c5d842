import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { generateOpenApiJson, openApiFile } from '../../scripts/writeOpenApi.js';
import { ErrorCodes } from '../../src/http/errors.js';
import { startTestApp, type TestApp } from '../helpers/startTestApp.js';
import { specErrorCodes } from '../helpers/specErrorCodes.js';

/** Every endpoint of the interface specification ("## Endpoints"), as `METHOD path`. */
const specOperations = [
  'GET /api/health',
  'POST /api/calls/analyze',
  'GET /api/calls',
  'GET /api/calls/status',
  'GET /api/calls/{id}',
  'GET /api/calls/{id}/transcript',
  'GET /api/calls/{id}/analysis',
  'DELETE /api/calls/{id}',
  'DELETE /api/calls',
  'GET /api/actions',
  'PATCH /api/actions/{id}',
  'GET /api/users/me',
  'PATCH /api/users/me',
  'DELETE /api/users/me',
  'GET /api/users/me/stats',
  'POST /api/users/me/voice-profile',
  'DELETE /api/users/me/voice-profile',
  'GET /api/users/me/voice-profile/status',
];
/** The operational probes the specification mentions under GET /api/health: tag `operations`. */
const probeOperations = ['GET /actuator/health', 'GET /actuator/health/liveness', 'GET /actuator/health/readiness', 'GET /actuator/prometheus'];
/** The transcription provider's callback (callback mode): not the mobile client's, signed instead of authenticated. */
const callbackOperations = ['POST /api/callbacks/transcription'];
/** Endpoints Callscope adds beyond the specification (issue 20). */
const addedOperations = ['PATCH /api/calls/{id}/speakers/{speakerId}', 'POST /api/calls/{id}/speakers/merge', 'GET /api/calls/{id}/export', 'GET /api/calls/events', 'GET /api/search'];


const httpMethods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const apiKey = 'k3y-for-the-openapi-test-0123456789';

type Json = Record<string, unknown>;
interface Operation extends Json {
  tags?: string[];
  operationId?: string;
  security?: Record<string, string[]>[];
  parameters?: Json[];
  requestBody?: Json;
  responses: Record<string, Json>;
}
interface Document {
  openapi: string;
  info: { title: string; version: string; description?: string };
  servers?: { url: string }[];
  tags?: { name: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Json>; securitySchemes: Record<string, Json> } & Json;
}

let generated: string;
let document: Document;
let testApp: TestApp;

beforeAll(async () => {
  generated = await generateOpenApiJson();
  document = JSON.parse(generated) as Document;
  // With an API key configured: /docs must still need no credentials.
  testApp = await startTestApp({ API_KEY: apiKey });
});

afterAll(async () => {
  await testApp?.close();
});

function operations(): { key: string; method: string; path: string; operation: Operation }[] {
  return Object.entries(document.paths).flatMap(([path, item]) => Object.entries(item)
    .filter(([method]) => httpMethods.includes(method))
    .map(([method, operation]) => ({ key: `${method.toUpperCase()} ${path}`, method, path, operation })));
}

/** The value a local `$ref` (`#/a/b`) points at, or undefined. */
function resolvePointer(ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = document;
  for (const token of ref.slice(2).split('/').map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, token)) return undefined;
    node = (node as Json)[token];
  }
  return node;
}

function deref<T>(node: T | { $ref: string }): T {
  const ref = (node as { $ref?: unknown }).$ref;
  return typeof ref === 'string' ? (resolvePointer(ref) as T) : (node as T);
}

function allRefs(node: unknown, found: string[] = []): string[] {
  if (Array.isArray(node)) for (const item of node) allRefs(item, found);
  else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') found.push(value);
      else allRefs(value, found);
    }
  }
  return found;
}

const envelopeRef = '#/components/schemas/ErrorEnvelope';

function isEnvelope(schema: Json | undefined): boolean {
  if (!schema) return false;
  if (schema.$ref === envelopeRef) return true;
  return Array.isArray(schema.allOf) && (schema.allOf as Json[]).some((part) => part.$ref === envelopeRef);
}

describe('docs/openapi.json', () => {
  test('is the document the script generates now (regenerate with `npm run openapi`)', () => {
    expect(readFileSync(openApiFile, 'utf8'), 'docs/openapi.json is stale: run `npm run openapi`').toBe(generated);
  });

  test('is what the running server serves at /docs/json, whatever its configuration', async () => {
    const response = await fetch(`${testApp.baseUrl}/docs/json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual(document);
  });
});

describe('coverage of the specification', () => {
  test('every endpoint of the specification is documented with its method', () => {
    const documented = new Set(operations().map(({ key }) => key));
    for (const key of [...specOperations, ...probeOperations]) expect(documented, key).toContain(key);
  });

  test('every documented operation is one of the specification\'s endpoints or a probe; nothing else leaks in', () => {
    const known = new Set([...specOperations, ...probeOperations, ...callbackOperations, ...addedOperations]);
    for (const { key, path } of operations()) {
      expect(known, key).toContain(key);
      expect(path).not.toMatch(/^\/(docs|admin)(\/|$)/);
    }
    expect(operations()).toHaveLength(specOperations.length + probeOperations.length + callbackOperations.length + addedOperations.length);
  });

  test('path parameters use the {id} form (and {speakerId} under a call) and are declared as path parameters', () => {
    for (const { key, path, operation } of operations()) {
      expect(path, key).not.toContain(':');
      const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
      expect(templated.every((name) => name === 'id' || (name === 'speakerId' && path.startsWith('/api/calls/{id}/speakers/'))), key).toBe(true);
      const declared = (operation.parameters ?? []).map((parameter) => deref(parameter)).filter((parameter) => parameter.in === 'path');
      expect(declared.map((parameter) => parameter.name).sort(), key).toEqual([...templated].sort());
      for (const parameter of declared) {
        expect(parameter.required, key).toBe(true);
        if (parameter.name === 'speakerId') expect((parameter.schema as Json).pattern, key).toBe('^spk_\\d+$');
        else expect((parameter.schema as Json).format, key).toBe('uuid');
      }
    }
  });

  test('each operation carries the tag of its resource', () => {
    const expected: Record<string, string> = {
      'GET /api/health': 'health',
      'POST /api/calls/analyze': 'calls',
      'GET /api/calls/{id}/analysis': 'calls',
      'PATCH /api/actions/{id}': 'actions',
      'DELETE /api/users/me': 'users',
      'GET /api/users/me/stats': 'users',
      'POST /api/users/me/voice-profile': 'voice profile',
      'GET /api/users/me/voice-profile/status': 'voice profile',
      'GET /actuator/prometheus': 'operations',
    };
    const byKey = new Map(operations().map(({ key, operation }) => [key, operation]));
    for (const [key, tag] of Object.entries(expected)) expect(byKey.get(key)?.tags, key).toEqual([tag]);
  });
});

describe('errors', () => {
  test('the envelope is a component whose code enumerates every error code', () => {
    const envelope = document.components.schemas.ErrorEnvelope as { properties: { error: { required: string[]; properties: { code: { enum: string[] } } } } };
    expect(envelope).toBeDefined();
    expect(envelope.properties.error.required).toEqual(['code', 'message']);
    expect(new Set(envelope.properties.error.properties.code.enum)).toEqual(new Set(Object.keys(ErrorCodes)));
  });

  test('every operation documents its errors with the envelope, and /api operations behind the guard their 401', () => {
    for (const { key, path, operation } of operations()) {
      expect(operation.responses.default, key).toBeDefined();
      for (const [status, raw] of Object.entries(operation.responses)) {
        const response = deref(raw);
        if (status !== 'default' && Number(status) < 400) continue;
        // The readiness probe answers 503 with its checks, not an error.
        if (key === 'GET /actuator/health/readiness' && status === '503') continue;
        const schema = (response.content as Record<string, { schema?: Json }> | undefined)?.['application/json']?.schema;
        expect(isEnvelope(schema), `${key} ${status}`).toBe(true);
      }
      if (path.startsWith('/api/') && path !== '/api/health') expect(Object.keys(operation.responses), key).toContain('401');
    }
  });

  test('each documented error status is one the code table uses; the descriptions name the specification\'s codes', () => {
    const described = new Map<string, string>();
    for (const { key, operation } of operations()) {
      for (const [status, raw] of Object.entries(operation.responses)) {
        if (status === 'default' || Number(status) < 400) continue;
        expect(Object.values(ErrorCodes).some((entry) => entry.status === Number(status)), `${key} ${status}`).toBe(true);
        if ('$ref' in raw) described.set(status, deref(raw).description as string);
      }
    }
    for (const [code, status] of Object.entries(specErrorCodes)) {
      expect(ErrorCodes[code as keyof typeof ErrorCodes]?.status, code).toBe(status);
      expect(described.get(String(status)), code).toContain(`\`${code}\``);
    }
  });

  test('the specification\'s error statuses are documented where it names them', () => {
    const byKey = new Map(operations().map(({ key, operation }) => [key, Object.keys(operation.responses)]));
    expect(byKey.get('POST /api/calls/analyze')).toEqual(expect.arrayContaining(['202', '400', '401', '413', '415']));
    expect(byKey.get('GET /api/calls/{id}')).toEqual(expect.arrayContaining(['200', '404']));
    expect(byKey.get('GET /api/calls/{id}/transcript')).toEqual(expect.arrayContaining(['200', '404', '422']));
    expect(byKey.get('DELETE /api/calls/{id}')).toEqual(expect.arrayContaining(['204', '404', '409']));
    expect(byKey.get('PATCH /api/actions/{id}')).toEqual(expect.arrayContaining(['200', '400', '404']));
    expect(byKey.get('POST /api/users/me/voice-profile')).toEqual(expect.arrayContaining(['201', '400', '404', '413', '415', '502']));
    expect(byKey.get('GET /api/health')).toEqual(expect.arrayContaining(['200', '503']));
  });
});

describe('security and common headers', () => {
  test('the three schemes are declared', () => {
    const schemes = document.components.securitySchemes;
    expect(schemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
    expect(schemes.apiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
    expect(schemes.localUser).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-Local-User-Id' });
  });

  test('/api operations need an identity (and the API key when the server has one); the probes and the provider\'s signed callback need none', () => {
    for (const { key, path, operation } of operations()) {
      if (path.startsWith('/api/') && path !== '/api/health' && !callbackOperations.includes(key)) {
        expect(operation.security, key).toEqual(expect.arrayContaining([{ bearerAuth: [], apiKey: [] }, { localUser: [], apiKey: [] }, { bearerAuth: [] }, { localUser: [] }]));
        for (const requirement of operation.security!) expect(Object.keys(requirement).length, key).toBeGreaterThan(0);
      } else if (key !== 'GET /actuator/prometheus') {
        expect(operation.security, key).toBeUndefined();
      }
    }
    expect((document as unknown as Json).security).toBeUndefined();
  });

  test('mutating operations take Idempotency-Key; every operation X-Request-Id, which every response echoes', () => {
    for (const { key, method, operation } of operations()) {
      const headers = (operation.parameters ?? []).map((parameter) => deref(parameter)).filter((parameter) => parameter.in === 'header').map((parameter) => parameter.name);
      expect(headers, key).toContain('X-Request-Id');
      // The provider's callback is deduplicated by its webhook-id instead.
      if (['post', 'patch', 'delete'].includes(method) && key.startsWith(`${method.toUpperCase()} /api/`) && !callbackOperations.includes(key)) expect(headers, key).toContain('Idempotency-Key');
      for (const [status, raw] of Object.entries(operation.responses)) {
        expect(Object.keys((deref(raw).headers ?? {}) as Json), `${key} ${status}`).toContain('X-Request-Id');
      }
    }
  });
});

describe('uploads', () => {
  function multipartSchema(key: string): { schema: Json & { required: string[]; properties: Record<string, Json> }; encoding?: Record<string, Json> } {
    const operation = operations().find((entry) => entry.key === key)!.operation;
    const content = (operation.requestBody as { content: Record<string, ReturnType<typeof multipartSchema>> }).content;
    expect(Object.keys(content)).toEqual(['multipart/form-data']);
    return content['multipart/form-data']!;
  }

  test('POST /api/calls/analyze takes multipart/form-data: the file, the metadata JSON part, flat fields', () => {
    const { schema, encoding } = multipartSchema('POST /api/calls/analyze');
    expect(schema.required).toEqual(['file']);
    expect(schema.properties.file).toMatchObject({ type: 'string', format: 'binary' });
    expect(schema.properties.metadata).toEqual({ $ref: '#/components/schemas/CallMetadata' });
    expect(encoding?.metadata).toEqual({ contentType: 'application/json' });
    for (const flat of ['title', 'fileName', 'contactName', 'direction', 'durationSeconds']) expect(schema.properties, flat).toHaveProperty(flat);
    expect(Object.keys((document.components.schemas.CallMetadata as { properties: Json }).properties)).toEqual(
      ['title', 'contactName', 'contactId', 'phoneNumber', 'organization', 'direction', 'recordedAt', 'durationSeconds'],
    );
  });

  test('POST /api/users/me/voice-profile takes multipart/form-data: the sample and the consent', () => {
    const { schema } = multipartSchema('POST /api/users/me/voice-profile');
    expect(schema.required).toEqual(['file', 'consentAccepted']);
    expect(schema.properties.file).toMatchObject({ type: 'string', format: 'binary' });
    expect(schema.properties.consentAccepted).toMatchObject({ type: 'boolean' });
  });
});

describe('structure', () => {
  test('OpenAPI 3.1 with info, a relative server, declared tags, paths and operations with responses', () => {
    const packageJson = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(document.openapi).toMatch(/^3\.1\.\d+$/);
    expect(document.info).toMatchObject({ title: 'Callscope API', version: packageJson.version });
    expect(document.info.description).toMatch(/on premises/);
    expect(document.servers).toEqual([expect.objectContaining({ url: '/' })]);
    const tagNames = new Set((document.tags ?? []).map((tag) => tag.name));
    expect(operations().length).toBeGreaterThan(0);
    const operationIds = new Set<string>();
    for (const { key, path, operation } of operations()) {
      expect(path, key).toMatch(/^\//);
      expect(operation.operationId, key).toMatch(/^[A-Za-z][A-Za-z0-9]*$/);
      expect(operationIds.has(operation.operationId!), `duplicate operationId ${operation.operationId}`).toBe(false);
      operationIds.add(operation.operationId!);
      expect(typeof operation.summary, key).toBe('string');
      for (const tag of operation.tags ?? []) expect(tagNames, key).toContain(tag);
      expect(Object.keys(operation.responses).length, key).toBeGreaterThan(0);
      for (const [status, raw] of Object.entries(operation.responses)) {
        expect(status, key).toMatch(/^([1-5]\d\d|[1-5]XX|default)$/);
        expect(typeof deref(raw).description, `${key} ${status}`).toBe('string');
      }
      for (const requirement of operation.security ?? []) {
        for (const scheme of Object.keys(requirement)) expect(document.components.securitySchemes, key).toHaveProperty(scheme);
      }
    }
  });

  test('every $ref resolves inside the document, and no schema keeps an $id', () => {
    const refs = allRefs(document);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) expect(resolvePointer(ref), ref).toBeDefined();
    expect(generated).not.toMatch(/"\$id"|"def-\d+"|x-callscope-component/);
  });

  test('every component schema is used', () => {
    const used = new Set(allRefs(document).filter((ref) => ref.startsWith('#/components/schemas/')).map((ref) => ref.slice('#/components/schemas/'.length)));
    for (const name of Object.keys(document.components.schemas)) expect(used, name).toContain(name);
  });
});

describe('/docs', () => {
  test('serves the viewer without credentials, loading only assets of this server', async () => {
    const response = await fetch(`${testApp.baseUrl}/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('content-security-policy')).toMatch(/default-src 'self'/);
    const html = await response.text();
    const references = [...html.matchAll(/\b(?:src|href)\s*=\s*["']([^"']+)["']/gi)].map((match) => match[1]!);
    expect(references.length).toBeGreaterThan(0);
    expect(html).not.toMatch(/https?:\/\//i);
    for (const reference of references) {
      expect(reference, reference).not.toMatch(/^([a-z][a-z0-9+.-]*:|\/\/)/i);
      const asset = await fetch(new URL(reference, `${testApp.baseUrl}/docs`));
      expect(asset.status, reference).toBe(200);
      await asset.arrayBuffer();
    }
  });

  test('the viewer\'s scripts point at the local document and no external validator', async () => {
    const initializer = await (await fetch(`${testApp.baseUrl}/docs/static/swagger-initializer.js`)).text();
    expect(initializer).toContain("resolveUrl('./json')");
    expect(initializer).toMatch(/validatorUrl: null/);
    // Its only URL is in a comment (a Stack Overflow link); no code loads anything from elsewhere.
    expect(initializer.replace(/^\s*\/\/.*$/gm, '')).not.toMatch(/https?:\/\//);
  });

  test('the /api guard still applies: the documentation opens nothing', async () => {
    expect((await fetch(`${testApp.baseUrl}/api/users/me`)).status).toBe(401);
    expect((await fetch(`${testApp.baseUrl}/api/health`)).status).toBe(200);
  });
});
