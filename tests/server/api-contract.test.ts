import fs from 'node:fs';
import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { FastifyInstance } from 'fastify';
import { OPENAPI_FILE, openapiDocumentText } from '../../src/server/openapiDocument';
import { API_REFERENCE_PATH, OPENAPI_PATH } from '../../src/server/plugins/apiContract';
import { API_ERROR_CODES } from '../../src/shared/api/http';
import type { Answers } from '../../src/shared/forms/model/schemaTypes';
import { toPayloadJson } from '../../src/shared/forms/payload/payload';
import { createTestApp, testAppForBlock } from './testApp';
import { freshClient, signedIn } from './authHelpers';

interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  responses: Record<string, Answer>;
  parameters?: (
    | { in: string; name: string; required?: boolean; schema: JsonSchema; $ref?: undefined }
    | { $ref: string; in?: undefined; name?: undefined; schema?: undefined }
  )[];
  requestBody?: { content: Record<string, Media> };
  security?: Record<string, string[]>[];
  'x-staff-only'?: boolean;
  'x-websocket'?: object;
}
interface Media {
  schema: JsonSchema;
  example?: unknown;
  examples?: Record<string, { value: unknown }>;
}
interface Answer {
  description?: string;
  content?: Record<string, Media>;
  headers?: Record<string, { $ref?: string }>;
}
interface JsonSchema {
  $ref?: string;
  examples?: unknown[];
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minimum?: number;
  items?: JsonSchema;
}
type Document = {
  paths: Record<string, Record<string, Operation>>;
  components?: {
    schemas?: Record<string, JsonSchema>;
    headers?: Record<string, object>;
    parameters?: Record<string, { name: string; in: string }>;
  };
};

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

function operations(document: Document) {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => ({
      path,
      method,
      operation: item[method]!,
    })),
  );
}

/** The routes the app registered, with the schema each carries. */
function routesOf(app: FastifyInstance) {
  return app.routeTable
    .filter((entry) => entry.method !== 'HEAD')
    .map((entry) => ({
      method: entry.method,
      url: entry.url,
      schema: (entry.schema ?? {}) as Record<string, unknown>,
    }));
}

describe('the API contract', () => {
  const t = testAppForBlock();

  it('every registered route has response schemas, unless it is a page or file for the browser', () => {
    const missing: string[] = [];
    const misplaced: string[] = [];
    for (const route of routesOf(t.app)) {
      const notApi = route.schema['x-not-api'];
      const response = (route.schema.response ?? {}) as Record<string, unknown>;
      // Each answer it gives: a success, or (a catch-all under an API prefix) only its 404.
      const answers = Object.keys(response).filter((code) => !/^[45]xx$/.test(code));
      if (notApi) {
        // A page may hide from the document; an API path may not, the reference page apart.
        const underApi = /^\/(exchange|clearing)\/api\//.test(route.url);
        if (underApi && !route.url.startsWith(API_REFERENCE_PATH)) misplaced.push(route.url);
        continue;
      }
      if (answers.length === 0 || !('4xx' in response || '404' in response)) {
        missing.push(`${route.method} ${route.url}`);
      }
    }
    expect(missing).toEqual([]);
    expect(misplaced).toEqual([]);
    // The walk saw the API (not an empty table).
    expect(routesOf(t.app).length).toBeGreaterThan(60);
  });

  it('the served document is a valid OpenAPI 3.1 document', async () => {
    const response = await t.app.inject({ method: 'GET', url: OPENAPI_PATH });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toBe('3.1.0');
    const result = await new Validator().validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('every operation has a lowerCamelCase operationId of its own, a summary, a description and described tags', () => {
    const document = t.app.swagger() as unknown as Document & {
      servers?: { url: string }[];
      tags?: { name: string; description?: string }[];
    };
    const described = new Set(
      (document.tags ?? []).filter((tag) => tag.description).map((tag) => tag.name),
    );
    const problems: string[] = [];
    const ids = new Map<string, string>();
    for (const { path, method, operation } of operations(document)) {
      const name = `${method} ${path}`;
      const id = operation.operationId;
      if (!id || !/^[a-z][a-zA-Z0-9]*$/.test(id)) problems.push(`${name}: operationId ${id}`);
      else if (ids.has(id)) problems.push(`${name}: operationId ${id} also ${ids.get(id)}`);
      else ids.set(id, name);
      if (!operation.summary?.trim()) problems.push(`${name}: no summary`);
      if (!operation.description?.trim()) problems.push(`${name}: no description`);
      if (!operation.tags?.length) problems.push(`${name}: no tag`);
      for (const tag of operation.tags ?? []) {
        if (!described.has(tag)) problems.push(`${name}: tag ${tag} is not described`);
      }
    }
    expect(problems).toEqual([]);
    expect(ids.size).toBeGreaterThan(60);
    expect(document.servers?.length).toBeGreaterThan(0);
  });

  it('every timestamp of the document (a string property named at or …At) says format: date-time', () => {
    const untyped: string[] = [];
    const walk = (value: unknown, where: string): void => {
      if (Array.isArray(value)) return value.forEach((item, i) => walk(item, `${where}/${i}`));
      if (typeof value !== 'object' || value === null) return;
      const properties = (value as { properties?: Record<string, JsonSchema> }).properties;
      for (const [name, schema] of Object.entries(properties ?? {})) {
        const types = [schema.type].flat();
        if (/^(at|[a-z]+At)$/.test(name) && types.includes('string') && !schema.format) {
          untyped.push(`${where}/properties/${name}`);
        }
      }
      for (const [key, inner] of Object.entries(value)) walk(inner, `${where}/${key}`);
    };
    walk(t.app.swagger(), '#');
    expect(untyped).toEqual([]);
  });

  it('names in one style: camelCase properties, snake_case enum values, the spec’s own words aside', () => {
    // The wire names the specification fixes (docs/api.md, "Statuses… and names").
    const specProperties = new Set([
      ...['recaptcha_site_key', 'access_token', 'password_text', 'first_name', 'last_name'],
      ...['phone_number', 'photo_id', 'user_id', 'organization_id', 'ack_id'],
      ...['product_codes', 'taker_side'],
    ]);
    const specValues = new Set([
      ...['TwoFactorRequired', 'AuthComplete', 'Authenticated', 'NotAuthenticated', 'Clearing'],
      ...['Administrator', 'Trader', 'Viewer', 'Bid', 'Ask', 'Buy', 'Sell', 'Long', 'Short'],
      ...['Open', 'Close'],
    ]);
    const camelCase = /^[a-z][a-zA-Z0-9]*$/;
    // A submission's file parts: `document.<answer key>`, `document.signature.<section>`.
    const documentPart = /^document(\.[a-z][a-zA-Z0-9]*)+$/;
    // snake_case; an event type `<object>.<snake_case>`; a scope `<object>:<action>`; the
    // schemas' own `x-file` kinds (`image-or-pdf`), which compliance staff write.
    const ownValue = /^([a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*|[a-z]+:[a-z]+|image-or-pdf)$/;
    const astray: string[] = [];
    const walk = (value: unknown, where: string): void => {
      if (Array.isArray(value)) return value.forEach((item, i) => walk(item, `${where}/${i}`));
      if (typeof value !== 'object' || value === null) return;
      const schema = value as JsonSchema;
      if (typeof schema.properties === 'object' && !Array.isArray(schema.properties)) {
        for (const name of Object.keys(schema.properties)) {
          const fine = camelCase.test(name) || documentPart.test(name) || specProperties.has(name);
          if (!fine) astray.push(`${where}/properties/${name}`);
        }
      }
      for (const item of [...(Array.isArray(schema.enum) ? schema.enum : []), schema.const]) {
        if (typeof item === 'string' && !ownValue.test(item) && !specValues.has(item)) {
          astray.push(`${where}: ${item}`);
        }
      }
      for (const [key, inner] of Object.entries(value)) {
        if (key !== 'examples' && key !== 'example') walk(inner, `${where}/${key}`);
      }
    };
    walk(t.app.swagger(), '#');
    expect(astray).toEqual([]);
  });

  it('every operation lists each refusal as its own status, in the Error shape, naming its codes', () => {
    const document = t.app.swagger() as unknown as Document;
    const codes = Object.keys(API_ERROR_CODES);
    const problems: string[] = [];
    let specific = 0;
    for (const { path, method, operation } of operations(document)) {
      const name = `${method} ${path}`;
      const statuses = Object.keys(operation.responses);
      if (statuses.some((status) => /^4XX$/i.test(status))) problems.push(`${name}: a 4XX range`);
      const refusals = statuses.filter((status) => /^4\d\d$/.test(status));
      if (refusals.length === 0) problems.push(`${name}: no specific 4xx status`);
      else specific += 1;
      for (const status of refusals) {
        const answer = operation.responses[status]!;
        const json = answer.content?.['application/json'];
        // The console's pages answer their refusals as HTML; every other refusal is the Error body.
        if (json && !JSON.stringify(json.schema).includes('#/components/schemas/Error')) {
          problems.push(`${name} ${status}: not the Error component`);
        }
        if (json && !codes.some((code) => answer.description?.includes(`\`${code}\``))) {
          problems.push(`${name} ${status}: names no code (${answer.description})`);
        }
      }
      const failure = operation.responses['5XX'] as Answer | undefined;
      if (failure && !failure.description?.includes('`internal_error`')) {
        problems.push(`${name}: a 5XX that does not say what it is`);
      }
      // What the operation declares implies its refusals (plugins/apiContract.ts).
      const security = operation.security ?? [];
      const needs = (status: string, why: boolean, what: string) => {
        if (why && !statuses.includes(status)) problems.push(`${name}: ${what} but no ${status}`);
      };
      const staffPage = statuses.includes('302');
      needs('400', Boolean(operation.requestBody), 'a body');
      needs(
        '401',
        !staffPage && security.some((r) => 'sessionCookie' in r || 'apiCredential' in r),
        'a session or credential',
      );
      needs(
        '403',
        security.some((r) => 'csrfHeader' in r),
        'the CSRF check',
      );
      needs('403', Boolean(operation['x-staff-only']), 'staff only');
      needs('404', /\{[^}]+\}/.test(path), 'a path parameter');
      needs('413', Boolean(operation.requestBody), 'a body');
    }
    expect(problems).toEqual([]);
    expect(specific).toBeGreaterThan(70);
  });

  it('names the headers each answer carries, once under components, and the request headers it reads', () => {
    const document = t.app.swagger() as unknown as Document;
    const problems: string[] = [];
    const headerRefs = (answer: Answer | undefined) =>
      Object.values(answer?.headers ?? {}).map((header) => header.$ref ?? 'inline');
    const parameterRefs = (operation: Operation) =>
      (operation.parameters ?? []).map((parameter) => parameter.$ref ?? parameter.name);
    for (const { path, method, operation } of operations(document)) {
      const name = `${method} ${path}`;
      const answers = Object.entries(operation.responses);
      for (const [status, answer] of answers) {
        for (const ref of headerRefs(answer)) {
          if (!ref.startsWith('#/components/headers/')) problems.push(`${name} ${status}: ${ref}`);
        }
      }
      const limited = answers.some(
        ([status, answer]) =>
          status.startsWith('2') &&
          headerRefs(answer).includes('#/components/headers/XRateLimitLimit'),
      );
      if (limited) {
        const refs = headerRefs(operation.responses['429']);
        if (!refs.includes('#/components/headers/RetryAfter')) {
          problems.push(`${name}: rate-limited without a 429 with Retry-After`);
        }
      }
      const etag = headerRefs(operation.responses['200']).includes('#/components/headers/ETag');
      const conditional = '304' in operation.responses;
      if (etag !== conditional) problems.push(`${name}: an ETag without a 304, or the reverse`);
      if (
        conditional &&
        !parameterRefs(operation).includes('#/components/parameters/IfNoneMatch')
      ) {
        problems.push(`${name}: a 304 without If-None-Match`);
      }
      for (const parameter of parameterRefs(operation)) {
        if (/^(if-none-match|idempotency-key)$/i.test(String(parameter))) {
          problems.push(`${name}: ${parameter} written out, not a $ref`);
        }
      }
    }
    expect(problems).toEqual([]);
    const byId = new Map(operations(document).map((entry) => [entry.operation.operationId, entry]));
    // The routes known to be limited, conditional, idempotent and to set the session's cookies.
    for (const id of ['signIn', 'signUp', 'requestPasswordReset', 'getLeiRecord']) {
      const { operation } = byId.get(id)!;
      expect(headerRefs(operation.responses['429']), id).toContain(
        '#/components/headers/RetryAfter',
      );
    }
    for (const id of ['getStatement', 'getForm', 'listDisclosures', 'getDisclosureDocument']) {
      const { operation } = byId.get(id)!;
      expect(parameterRefs(operation), id).toContain('#/components/parameters/IfNoneMatch');
      expect(operation.responses['304'], id).toBeDefined();
    }
    for (const id of ['saveApplicationResult', 'uploadApplicationFile', 'decideRegistration']) {
      const entry = byId.get(id);
      if (entry) {
        expect(parameterRefs(entry.operation), id).toContain(
          '#/components/parameters/IdempotencyKey',
        );
      }
    }
    expect(headerRefs(byId.get('signIn')!.operation.responses['200'])).toContain(
      '#/components/headers/SetCookieSession',
    );
    expect(headerRefs(byId.get('signOut')!.operation.responses['200'])).toContain(
      '#/components/headers/SetCookieSignedOut',
    );
    // Each component named is defined, and each defined one is used.
    const text = JSON.stringify(document.paths);
    for (const kind of ['headers', 'parameters'] as const) {
      for (const key of Object.keys(document.components?.[kind] ?? {})) {
        expect(text, `${kind}/${key}`).toContain(`"#/components/${kind}/${key}"`);
      }
    }
  });

  it('every request body and every 2xx JSON answer has an example, and every example is valid', () => {
    const document = t.app.swagger() as unknown as Document;
    const schemas = document.components?.schemas ?? {};
    // Formats checked too (an example's uuid, date-time and email are real ones).
    const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
    const missing: string[] = [];
    const invalid: string[] = [];
    let checked = 0;
    const check = (where: string, schema: object, example: unknown) => {
      // A schema's $refs name the document's components: compiled beside them.
      const validate = ajv.compile({ ...schema, components: document.components });
      checked += 1;
      if (!validate(example)) invalid.push(`${where}: ${ajv.errorsText(validate.errors)}`);
    };
    const hasExample = (media: Media) => {
      if (media.example !== undefined || media.examples !== undefined) return true;
      if (media.schema.examples?.length) return true;
      const named = media.schema.$ref?.split('/').pop();
      return Boolean(named && schemas[named]?.examples?.length);
    };
    const mediaExamples = (where: string, media: Media) => {
      if (media.example !== undefined) check(where, media.schema, media.example);
      for (const [key, { value }] of Object.entries(media.examples ?? {})) {
        check(`${where} ${key}`, media.schema, value);
      }
    };
    for (const { path, method, operation } of operations(document)) {
      const name = `${method} ${path}`;
      for (const [type, media] of Object.entries(operation.requestBody?.content ?? {})) {
        if (!hasExample(media)) missing.push(`${name} body ${type}`);
        mediaExamples(`${name} body ${type}`, media);
      }
      for (const [status, answer] of Object.entries(operation.responses)) {
        const json = answer.content?.['application/json'];
        if (!json) continue;
        if (status.startsWith('2') && !hasExample(json)) missing.push(`${name} ${status}`);
        mediaExamples(`${name} ${status}`, json);
      }
    }
    // Every schema's own `examples`, wherever it stands (components, bodies, answers).
    const walk = (value: unknown, where: string): void => {
      if (Array.isArray(value)) return value.forEach((item, i) => walk(item, `${where}/${i}`));
      if (typeof value !== 'object' || value === null) return;
      const schema = value as JsonSchema;
      if (
        Array.isArray(schema.examples) &&
        ('type' in schema || '$ref' in schema || 'properties' in schema || 'anyOf' in schema)
      ) {
        schema.examples.forEach((example, i) => check(`${where}/examples/${i}`, schema, example));
      }
      for (const [key, inner] of Object.entries(value)) walk(inner, `${where}/${key}`);
    };
    walk(document.paths, '#/paths');
    walk(document.components?.schemas, '#/components/schemas');
    expect(missing).toEqual([]);
    expect(invalid).toEqual([]);
    expect(checked).toBeGreaterThan(60);
  });

  it("describes each submission's payload parts as the serializer writes them (each form's example)", () => {
    const document = t.app.swagger() as unknown as Document;
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    const checked: string[] = [];
    for (const form of t.app.forms.values()) {
      const operation = Object.entries(document.paths).find(([url]) =>
        url.endsWith(`/registration/${form.id}`),
      )?.[1]?.post;
      if (!operation) continue;
      const described = operation.requestBody!.content['multipart/form-data']!.schema.properties!;
      const { parts } = toPayloadJson(form, form.example as Answers);
      for (const [name, part] of Object.entries(parts)) {
        const schema = (described[name] as { contentSchema?: object } | undefined)?.contentSchema;
        expect(schema, `${form.id}: part ${name} has no contentSchema`).toBeDefined();
        const valid = ajv.validate(schema!, part);
        expect(valid, `${form.id} ${name}: ${ajv.errorsText(ajv.errors)}`).toBe(true);
        checked.push(`${form.id}.${name}`);
      }
    }
    expect(checked).toEqual(expect.arrayContaining(['individual.individualInfo']));
    expect(checked.some((part) => part.startsWith('business.'))).toBe(true);
  });

  it('the committed docs/openapi.json is the document the routes give (npm run openapi)', () => {
    const committed = fs.readFileSync(OPENAPI_FILE, 'utf8');
    expect(committed, 'docs/openapi.json is stale: run `npm run openapi`').toBe(
      openapiDocumentText(t.app),
    );
  });

  it('the document names the session cookie, the CSRF header and the staff-only routes', () => {
    const document = t.app.swagger() as unknown as Document & {
      components: { securitySchemes: Record<string, { in: string; name: string }> };
    };
    expect(document.components.securitySchemes.sessionCookie).toMatchObject({
      in: 'cookie',
      name: 'clearing_session',
    });
    expect(document.components.securitySchemes.csrfHeader).toMatchObject({
      in: 'header',
      name: 'x-csrf-token',
    });
    const ops = operations(document);
    const staff = ops.filter(({ operation }) => operation['x-staff-only']);
    expect(staff.map(({ path }) => path)).toContain('/exchange/api/admin/users');
    // Every state-changing API call asks for the CSRF header; no read does.
    for (const { path, method, operation } of ops) {
      const csrf = (operation.security ?? []).some((requirement) => 'csrfHeader' in requirement);
      expect(csrf, `${method} ${path}`).toBe(method !== 'get');
    }
  });

  it('every route the document marks staff-only refuses a customer and a stranger', async () => {
    const customer = await signedIn(t);
    const stranger = freshClient(t.app);
    const staffOnly = operations(t.app.swagger() as unknown as Document).filter(
      ({ operation }) => operation['x-staff-only'],
    );
    expect(staffOnly.length).toBeGreaterThanOrEqual(12);
    for (const { path, method, operation } of staffOnly) {
      const url = exampleUrl(path, operation);
      const body = exampleBody(operation);
      const verb = method.toUpperCase() as 'GET';
      const asCustomer = await customer.client.request(verb, url, body);
      expect(asCustomer.statusCode, `${method} ${url} as a customer`).toBe(403);
      const asStranger = await stranger.request(verb, url, body);
      expect([401, 302], `${method} ${url} signed out`).toContain(asStranger.statusCode);
    }
  });

  it('answers the 401 and the 403 csrf_missing each operation lists', async () => {
    const document = t.app.swagger() as unknown as Document;
    const wrong: string[] = [];
    let unauthorized = 0;
    let csrf = 0;
    for (const { path, method, operation } of operations(document)) {
      if (operation['x-websocket']) continue;
      const url = exampleUrl(path, operation);
      const verb = method.toUpperCase() as 'GET';
      if ('401' in operation.responses) {
        // Signed out, from an address of its own (no rate limit of another call counts).
        // The document's own example body, so a valid request meets the session check.
        const body = documentedBody(document, operation) ?? exampleBody(operation);
        const answer = await freshClient(t.app).request(verb, url, body);
        if (answer.statusCode !== 401)
          wrong.push(`${method} ${url} signed out: ${answer.statusCode}`);
        unauthorized += 1;
      }
      const csrfListed = operation.responses['403']?.description?.includes('`csrf_missing`');
      if (csrfListed) {
        const answer = await t.app.inject({
          method: verb,
          url,
          headers: { 'content-type': 'application/json' },
          payload: '{}',
        });
        if (answer.json().code !== 'csrf_missing') {
          wrong.push(`${method} ${url} without the CSRF header: ${answer.statusCode}`);
        }
        csrf += 1;
      }
    }
    expect(wrong).toEqual([]);
    expect(unauthorized).toBeGreaterThan(40);
    expect(csrf).toBeGreaterThan(30);
  });

  it('answers each documented call, built from its schema, as the document says', async () => {
    const document = t.app.swagger() as unknown as Document;
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
    const customer = await signedIn(t);
    const checked: string[] = [];
    let refusals = 0;
    for (const { path, method, operation } of operations(document)) {
      // The stream answers an upgrade only (tests/server/stream.test.ts); form data is built
      // by the tests of those calls; a sign-out would end the session the walk uses.
      if (operation['x-websocket'] || path.endsWith('/auth/signout')) continue;
      if (operation.requestBody?.content['multipart/form-data']) continue;
      const url = exampleUrl(path, operation);
      const response = await customer.client.request(
        method.toUpperCase() as 'GET',
        url,
        exampleBody(operation),
      );
      const code = String(response.statusCode);
      const documented = operation.responses[code] ?? operation.responses[`${code[0]}XX`];
      expect(
        documented,
        `${method} ${url} answered ${code}, which it does not document`,
      ).toBeDefined();
      const media = response.headers['content-type']?.toString().split(';')[0] ?? '';
      const schema = documented?.content?.[media]?.schema;
      if (media === 'application/json') {
        expect(schema, `${method} ${url} ${code} has a JSON schema`).toBeDefined();
        // Its $refs name the document's components: compiled beside them.
        const validate = ajv.compile({ ...schema, components: document.components });
        expect(
          validate(response.json()),
          `${method} ${url} ${code}: ${ajv.errorsText(validate.errors)}`,
        ).toBe(true);
      }
      if (response.statusCode >= 400 && media === 'application/json') {
        // Every refusal carries a code of the documented list (issue 40 §3).
        expect(Object.keys(API_ERROR_CODES), `${method} ${url} ${code}`).toContain(
          response.json().code,
        );
        refusals += 1;
      }
      // A header the answer carries is one the document names.
      const names = (status: string) =>
        Object.keys(operation.responses[status]?.headers ?? {}).map((header) =>
          header.toLowerCase(),
        );
      if (response.headers.etag && response.statusCode === 200) {
        expect(names('200'), `${method} ${url}: its ETag`).toContain('etag');
        expect(operation.responses['304'], `${method} ${url}: its 304`).toBeDefined();
      }
      if (response.headers['x-ratelimit-limit'] && response.statusCode < 300) {
        expect(names(code), `${method} ${url}: its rate limit`).toContain('x-ratelimit-limit');
        expect(names('429'), `${method} ${url}: its 429`).toContain('retry-after');
      }
      if (response.headers['retry-after']) {
        expect(names(code), `${method} ${url} ${code}: Retry-After`).toContain('retry-after');
      }
      checked.push(`${method} ${path} ${code}`);
    }
    expect(checked.length).toBeGreaterThan(40);
    expect(refusals).toBeGreaterThan(20);
  });

  it('a response schema keeps out a field the route does not declare', async () => {
    const user = await signedIn(t);
    // A new column, and a key slipped into the stored details: neither reaches the answer.
    await t.pool.query(`alter table users add column if not exists internal_note text`);
    await t.pool.query(
      `update users set internal_note = 'staff eyes only',
              details = '{"firstName":"Ada","lastName":"Lovelace","phoneNumber":"+12125550142","approved":false,"ssn":"123-45-6789"}'
        where id = $1`,
      [user.id],
    );
    for (const url of ['/exchange/api/web/user', '/exchange/api/web/user/settings']) {
      const response = await user.client.get(url);
      expect(response.statusCode).toBe(200);
      expect(response.json().details).toEqual({
        firstName: 'Ada',
        lastName: 'Lovelace',
        phoneNumber: '+12125550142',
        approved: false,
      });
      expect(response.body).not.toContain('123-45-6789');
      expect(response.body).not.toContain('staff eyes only');
    }
    // The sign-in's answer picks its branch (TwoFactorRequired or AuthComplete) by validating
    // it: an undeclared key in the user's details must not trip the choice into a 500.
    const again = await freshClient(t.app).post('/exchange/api/web/auth/signin', {
      email: user.email,
      password: user.password,
    });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ authStatus: 'AuthComplete', user: { id: user.id } });
    expect(again.json().user.details).not.toHaveProperty('ssn');
    expect(again.body).not.toContain('staff eyes only');
  });
});

describe('the API reference page', () => {
  it('is drawn in development', async () => {
    const t = await createTestApp();
    try {
      const response = await t.app.inject({ method: 'GET', url: `${API_REFERENCE_PATH}/` });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toContain('text/html');
      // Under the app's CSP (scripts and styles from 'self' only, no inline script): every
      // script and stylesheet the page names is the portal's own and loads. (Checked drawn in
      // Chromium by hand: the title and every operation render, no CSP violation.)
      const csp = String(response.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain('unsafe-eval');
      expect(response.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
      const assets = [...response.body.matchAll(/(?:src|href)="([^"]+\.(?:js|css))"/g)].map(
        (match) => new URL(match[1]!, `http://portal${API_REFERENCE_PATH}/`),
      );
      expect(assets.length).toBeGreaterThanOrEqual(3);
      for (const asset of assets) {
        expect(asset.host, asset.href).toBe('portal');
        const loaded = await t.app.inject({ method: 'GET', url: asset.pathname });
        expect(loaded.statusCode, asset.pathname).toBe(200);
      }
      // The document the page draws is read from the same origin.
      const initializer = await t.app.inject({
        method: 'GET',
        url: `${API_REFERENCE_PATH}/static/swagger-initializer.js`,
      });
      expect(initializer.statusCode).toBe(200);
      expect(initializer.body).toContain("url: resolveUrl('./json')");
      const drawn = await t.app.inject({ method: 'GET', url: `${API_REFERENCE_PATH}/json` });
      expect(drawn.statusCode).toBe(200);
      expect(drawn.json().openapi).toBe('3.1.0');
    } finally {
      await t.close();
    }
  });

  it('is not served in production, where the document still is', async () => {
    const t = await createTestApp({ production: true });
    try {
      for (const url of [API_REFERENCE_PATH, `${API_REFERENCE_PATH}/`]) {
        const response = await t.app.inject({ method: 'GET', url });
        expect(response.statusCode).toBe(404);
      }
      const document = await t.app.inject({ method: 'GET', url: OPENAPI_PATH });
      expect(document.statusCode).toBe(200);
      expect(openapiDocumentText(t.app)).toBe(fs.readFileSync(OPENAPI_FILE, 'utf8'));
    } finally {
      await t.close();
    }
  });
});

/** A value a schema accepts (the first of an enum, a fresh UUID, a number in range). */
function exampleValue(schema: JsonSchema | undefined): unknown {
  if (!schema) return 'x';
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'integer':
    case 'number':
      return schema.minimum ?? 0;
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object':
      return Object.fromEntries(
        (schema.required ?? []).map((key) => [key, exampleValue(schema.properties?.[key])]),
      );
    default:
      if (schema.format === 'uuid' || schema.pattern?.includes('[0-9a-fA-F]{8}')) {
        return crypto.randomUUID();
      }
      if (schema.pattern === '^[0-9a-f]{64}$') return '0'.repeat(64);
      return 'x';
  }
}

function exampleUrl(path: string, operation: Operation): string {
  let url = path;
  const query: string[] = [];
  for (const parameter of operation.parameters ?? []) {
    const value = String(exampleValue(parameter.schema));
    if (parameter.in === 'path')
      url = url.replace(`{${parameter.name}}`, encodeURIComponent(value));
    if (parameter.in === 'query' && parameter.required) query.push(`${parameter.name}=${value}`);
  }
  url = url.replace(/\{[^}]+\}/g, 'x');
  return query.length > 0 ? `${url}?${query.join('&')}` : url;
}

function exampleBody(operation: Operation): { json?: unknown } {
  const schema = operation.requestBody?.content['application/json']?.schema;
  return schema ? { json: exampleValue(schema) } : {};
}

/** The request body the document gives as its example, if it has a JSON body. */
function documentedBody(document: Document, operation: Operation): { json: unknown } | undefined {
  const media = operation.requestBody?.content['application/json'];
  if (!media) return undefined;
  const named = media.schema.$ref?.split('/').pop();
  const example =
    media.example ??
    media.schema.examples?.[0] ??
    (named ? document.components?.schemas?.[named]?.examples?.[0] : undefined);
  return example === undefined ? undefined : { json: example };
}
