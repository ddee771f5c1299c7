/**
 * The OpenAPI document's named schemas (issue 40 §2): each schema below is written once, under
 * `components.schemas`, and every place a route's schemas use it (a response, a request body, a
 * property of another) becomes a `$ref` to it, so a generated client has one named type per
 * shape. The routes keep their schemas whole (Fastify validates and serialises with them, and
 * json-schema-to-ts types them); only the document is folded, by deep equality, once per build.
 */
import {
  adminClearingFirmSchema,
  adminDecisionResultSchema,
  adminOrganizationSchema,
  adminRegistrationSummarySchema,
  adminStatementSchema,
  adminUserDetailSchema,
  adminUserSummarySchema,
} from '../shared/api/admin';
import { profileSchema, sessionListSchema } from '../shared/api/account';
import {
  applicationConflictSchema,
  applicationFileResultSchema,
  applicationResponseSchema,
  applicationViewSchema,
  saveApplicationResultSchema,
} from '../shared/api/applications';
import {
  authCheckSchema,
  signinResultSchema,
  twoFactorStateSchema,
  userDetailsSchema,
  userSchema,
  userSettingsSchema,
} from '../shared/api/auth';
import { formDocumentSchema, formListSchema, formSummarySchema } from '../shared/api/forms';
import {
  apiErrorBodySchema,
  CSRF_COOKIE,
  CSRF_HEADER,
  SESSION_COOKIE,
  UUID_PATTERN,
} from '../shared/api/http';
import { registrationOverviewSchema } from '../shared/api/registration';
import { statementResponseSchema, statementSchema } from '../shared/api/statement';

/** Each named schema of the document, by its component name. */
const NAMED_SCHEMAS: Record<string, object> = {
  Error: apiErrorBodySchema,
  User: userSchema,
  UserDetails: userDetailsSchema,
  UserSettings: userSettingsSchema,
  SignInResult: signinResultSchema,
  SignInState: authCheckSchema,
  TwoFactorState: twoFactorStateSchema,
  Profile: profileSchema,
  SessionList: sessionListSchema,
  FormSummary: formSummarySchema,
  FormList: formListSchema,
  Form: formDocumentSchema,
  Application: applicationViewSchema,
  ApplicationResponse: applicationResponseSchema,
  SaveApplicationResult: saveApplicationResultSchema,
  ApplicationConflict: applicationConflictSchema,
  ApplicationFile: applicationFileResultSchema,
  Registration: registrationOverviewSchema,
  Statement: statementSchema,
  StatementResponse: statementResponseSchema,
  AdminUserSummary: adminUserSummarySchema,
  AdminUserDetail: adminUserDetailSchema,
  AdminOrganization: adminOrganizationSchema,
  AdminRegistrationSummary: adminRegistrationSummarySchema,
  AdminDecisionResult: adminDecisionResultSchema,
  AdminClearingFirm: adminClearingFirmSchema,
  AdminStatement: adminStatementSchema,
};

type Json = Record<string, unknown>;

/**
 * Examples of named schemas whose module another change owns (src/shared/api/http.ts): given
 * here, for the document only.
 */
const DOCUMENT_EXAMPLES: Record<string, unknown[]> = {
  Error: [
    {
      errorMessage: 'Your session check failed. Reload the page and try again.',
      code: 'csrf_missing',
    },
    {
      errorMessage: 'Please correct the highlighted answers.',
      code: 'validation_failed',
      errors: { '/lastName': 'Required' },
    },
  ],
};

/**
 * A schema's identity: its JSON with keys sorted, its own description and examples aside, and
 * `const: x` read as `enum: [x]` (as @fastify/swagger writes it).
 */
function fingerprint(schema: unknown): string {
  const sorted = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(sorted);
    if (typeof value !== 'object' || value === null) return value;
    const { const: only, ...rest } = value as Json;
    const object: Json = 'const' in value ? { ...rest, enum: [only] } : rest;
    return Object.fromEntries(
      Object.keys(object)
        .sort()
        .map((key) => [key, sorted(object[key])]),
    );
  };
  const { description: _description, examples: _examples, ...rest } = schema as Json;
  return JSON.stringify(sorted(rest));
}

/**
 * The document with every occurrence of a named schema replaced by a `$ref`, and the named
 * schemas (each folded the same way inside) added under `components.schemas`. A named schema the
 * routes never use is left out.
 */
export function foldNamedSchemas<T extends object>(openapi: T): T {
  const document = openapi as { components?: Json; paths?: Json };
  const byFingerprint = new Map(
    Object.entries(NAMED_SCHEMAS).map(([name, schema]) => [fingerprint(schema), name]),
  );
  const used = new Map<string, unknown>();
  const fold = (value: unknown, root: boolean): unknown => {
    if (Array.isArray(value)) return value.map((item) => fold(item, false));
    if (typeof value !== 'object' || value === null) return value;
    const name = root ? undefined : byFingerprint.get(fingerprint(value));
    if (name) {
      if (!used.has(name)) used.set(name, value);
      const { description } = value as Json;
      const ref = { $ref: `#/components/schemas/${name}` };
      return typeof description === 'string' ? { ...ref, description } : ref;
    }
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [key, fold(inner, false)]),
    );
  };
  const paths = fold(document.paths, true) as Json;
  const components: Json = {};
  // A named schema's own body may use others (User inside SignInResult): fold it too, until no
  // new name turns up.
  for (let done = 0; done < used.size;) {
    const names = [...used.keys()].slice(done);
    done = used.size;
    for (const name of names) {
      const { description: _description, ...schema } = used.get(name) as Json;
      components[name] = fold(schema, true);
    }
  }
  const existing = (document.components?.schemas ?? {}) as Json;
  const sortedComponents = Object.fromEntries(
    Object.keys(components)
      .sort()
      .map((name) => [name, components[name]]),
  );
  return {
    ...document,
    paths,
    components: { ...document.components, schemas: { ...existing, ...sortedComponents } },
  } as T;
}

/**
 * The headers the document names once (issue 40 §2), each answer carrying one `$ref`s it:
 * plugins/apiContract.ts marks where (`x-shared-header`), and withSharedHeaders puts the `$ref`.
 */
export const OPENAPI_HEADERS = {
  SetCookieSession: {
    description:
      `Sets the session cookie \`${SESSION_COOKIE}\` (HttpOnly, SameSite=Lax) and a new ` +
      `\`${CSRF_COOKIE}\` (readable by the page, SameSite=Strict) bound to the new session: echo ` +
      `its value in the \`${CSRF_HEADER}\` header of every state-changing call. Over https both are ` +
      `named with the \`__Host-\` prefix (Secure, Path=/). Only when the sign-in completes ` +
      '(`AuthComplete`); a `TwoFactorRequired` answer sets no session.',
    schema: { type: 'string' },
  },
  SetCookieSignedOut: {
    description:
      `Clears the session cookie \`${SESSION_COOKIE}\` and sets a new \`${CSRF_COOKIE}\` bound to ` +
      'no session (the old one no longer passes).',
    schema: { type: 'string' },
  },
  ETag: {
    description:
      'A strong tag of this answer (each content encoding has its own): send it back in ' +
      'If-None-Match and an unchanged answer comes back as 304 with no body.',
    schema: { type: 'string' },
  },
  XRateLimitLimit: {
    description: 'The calls this route takes per window (a minute) from this address.',
    schema: { type: 'integer', minimum: 0 },
  },
  XRateLimitRemaining: {
    description: 'The calls left in the current window.',
    schema: { type: 'integer', minimum: 0 },
  },
  XRateLimitReset: {
    description: 'Seconds until the window ends and the count starts again.',
    schema: { type: 'integer', minimum: 0 },
  },
  RetryAfter: {
    description: 'Seconds to wait before trying again.',
    schema: { type: 'integer', minimum: 1 },
  },
  IdempotentReplayed: {
    description:
      '`true` when this is the stored first answer to the same Idempotency-Key (nothing ran again).',
    schema: { type: 'string', const: 'true' },
  },
} as const;

/** The request headers the document names once. */
export const OPENAPI_PARAMETERS = {
  IfNoneMatch: {
    name: 'If-None-Match',
    in: 'header',
    required: false,
    description:
      'The ETag of the answer held: when it still matches, the answer is 304 with no body.',
    schema: { type: 'string' },
  },
  IdempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description:
      'Optional, a new one (a UUID) per request: sent again with the same body within 24 hours, ' +
      'the first answer comes back (`Idempotent-Replayed: true`) and nothing runs twice; with ' +
      'another body, 422; while the first is still running, 409.',
    schema: { type: 'string', pattern: '^[\\x21-\\x7e]{1,255}$' },
  },
} as const;

const OPERATION_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Each operation of the document's paths. */
function operationsOf(document: { paths?: Json }): Json[] {
  return Object.values(document.paths ?? {}).flatMap((item) =>
    OPERATION_METHODS.map((method) => (item as Json)[method] as Json | undefined).filter(
      (operation): operation is Json => operation !== undefined,
    ),
  );
}

/** The header parameters named by a component, by their lower-case name. */
const PARAMETER_BY_NAME = new Map(
  Object.entries(OPENAPI_PARAMETERS).map(([key, parameter]) => [parameter.name.toLowerCase(), key]),
);

/** The document with each shared header and header parameter a `$ref` to its component. */
export function withSharedHeaders<T extends object>(openapi: T): T {
  for (const operation of operationsOf(openapi as { paths?: Json })) {
    const parameters = operation.parameters as Json[] | undefined;
    if (parameters) {
      operation.parameters = parameters.map((parameter) => {
        const key =
          parameter.in === 'header' && PARAMETER_BY_NAME.get(String(parameter.name).toLowerCase());
        return key ? { $ref: `#/components/parameters/${key}` } : parameter;
      });
    }
    for (const answer of Object.values((operation.responses ?? {}) as Json)) {
      const headers = (answer as Json).headers as Record<string, Json> | undefined;
      if (!headers) continue;
      for (const [name, header] of Object.entries(headers)) {
        const shared = (header.schema as Json | undefined)?.['x-shared-header'];
        if (typeof shared === 'string') headers[name] = { $ref: `#/components/headers/${shared}` };
      }
    }
  }
  return openapi;
}

/** Sample strings by format, and by property name where the name says what it holds. */
const SAMPLE_FORMATS: Record<string, string> = {
  email: 'ada.lovelace@example.com',
  uuid: '3f2b6c1e-8d4a-4f7b-9c2e-5a1d0b7e6f43',
  'date-time': '2026-05-14T09:30:00.000Z',
  date: '2026-05-14',
  uri: 'https://partner.example.com/northstar/events',
};
/** Sample strings of the patterns the shared schemas use (a decimal, an ISO day, a digest…). */
const SAMPLE_PATTERNS: Record<string, string> = {
  [UUID_PATTERN]: '3f2b6c1e-8d4a-4f7b-9c2e-5a1d0b7e6f43',
  '^-?(0|[1-9][0-9]*)(\\.[0-9]+)?$': '1250.50',
  '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{1,9})?Z$':
    '2026-05-14T09:30:00Z',
  '^[0-9]{4}-[0-9]{2}-[0-9]{2}$': '2026-05-14',
  '^[A-Z]{3,5}$': 'USD',
  '^[0-9a-f]{64}$': '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
  '^whsec_[A-Za-z0-9_-]{43}$': 'whsec_Q2xlYXJpbmdNZW1iZXJQb3J0YWxFeGFtcGxlU2Vjcm0',
  '^t=\\d+,v1=[0-9a-f]{64}$':
    't=1778751000,v1=9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
};
const SAMPLE_NAMES: Record<string, string> = {
  email: 'ada.lovelace@example.com',
  newEmail: 'ada@lovelace.example.com',
  password: 'correct horse battery staple',
  currentPassword: 'correct horse battery staple',
  newPassword: 'a longer passphrase of mine',
  firstName: 'Ada',
  lastName: 'Lovelace',
  phoneNumber: '+12125550142',
  first_name: 'Ada',
  last_name: 'Lovelace',
  phone_number: '+12125550142',
  password_text: 'correct horse battery staple',
  access_token: 'Gx4q9c1mZk2WbT0vHn8sYp',
  recaptchaToken: '03AFcWeA6example-captcha-answer',
  recoveryCode: 'k7pq-3xwz',
  errorMessage: 'Please sign in to view that content.',
  lei: '5493001KJTIIGC8Y1R12',
  formId: 'individual',
  token: 'Gx4q9c1mZk2WbT0vHn8sYp',
  schemaHash: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
  title: 'Individual registration',
  prompt: 'First name',
  note: 'Please give your legal first name as on your photo ID.',
  reason: 'The photo ID does not show the name given.',
  totpCode: '492039',
  name: 'Northstar example',
};

/**
 * An example a schema accepts, from its own `examples` where it has them, else made from its
 * keywords (a format's or a name's sample, the first of an enum, each property): so every body
 * and answer has one, and the test validates each against its schema.
 */
function sampleOf(schema: unknown, components: Json, name = '', depth = 0): unknown {
  if (typeof schema !== 'object' || schema === null || depth > 12) return null;
  const s = schema as Json;
  if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0];
  if (s.example !== undefined) return s.example;
  if (typeof s.$ref === 'string') {
    const target = components[s.$ref.split('/').pop()!];
    return sampleOf(target, components, name, depth + 1);
  }
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum)) return s.enum.find((value) => value !== null) ?? s.enum[0];
  if (s.default !== undefined) return s.default;
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    if (Array.isArray(s[key])) return sampleOf(s[key][0], components, name, depth + 1);
  }
  const types = [s.type].flat();
  const type = types.find((t) => t !== 'null') ?? types[0];
  switch (type) {
    case 'object': {
      // The required properties (a body's other fields are often alternatives: a code or a
      // passkey), or every one where none is required.
      const properties = (s.properties ?? {}) as Json;
      const required = Array.isArray(s.required) ? (s.required as string[]) : [];
      const named = required.length > 0 ? required.filter((key) => key in properties) : null;
      return Object.fromEntries(
        Object.entries(properties)
          .filter(([key]) => !named || named.includes(key))
          .map(([key, inner]) => [key, sampleOf(inner, components, key, depth + 1)]),
      );
    }
    case 'array': {
      if (Array.isArray(s.prefixItems)) {
        return s.prefixItems.map((item) => sampleOf(item, components, name, depth + 1));
      }
      const count = Math.max(1, Number(s.minItems ?? 1));
      if (s.items === undefined || Number(s.maxItems ?? 1) === 0) return [];
      return Array.from({ length: count }, () => sampleOf(s.items, components, name, depth + 1));
    }
    case 'integer':
    case 'number':
      return typeof s.minimum === 'number' ? s.minimum : 1;
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'string': {
      const text =
        SAMPLE_FORMATS[String(s.format)] ??
        SAMPLE_PATTERNS[String(s.pattern)] ??
        SAMPLE_NAMES[name] ??
        (s.contentMediaType ? '(the file’s bytes)' : undefined) ??
        (/(^id|Id)$/.test(name) ? SAMPLE_FORMATS.uuid : undefined) ??
        (/(url|Url)$/.test(name) ? SAMPLE_FORMATS.uri : undefined) ??
        (/^(path|pointer)$/.test(name) ? '/firstName' : undefined) ??
        (name ? `${name} sample` : 'sample');
      const min = Number(s.minLength ?? 0);
      return text.length >= min ? text : text.padEnd(min, 'x');
    }
    default:
      return {};
  }
}

/**
 * The document with an example for every request body and every 2xx JSON answer (issue 40 §2): a
 * named schema carries its `examples` (its own, or one made by sampleOf) once for every use; a
 * body or answer of its own gets its media type's `example`.
 */
export function withExamples<T extends object>(openapi: T): T {
  const document = openapi as { paths?: Json; components?: { schemas?: Record<string, Json> } };
  const components = document.components?.schemas ?? {};
  for (const [name, schema] of Object.entries(components)) {
    const own = DOCUMENT_EXAMPLES[name] ?? (NAMED_SCHEMAS[name] as Json | undefined)?.examples;
    if (schema.examples === undefined) {
      components[name] = { ...schema, examples: own ?? [sampleOf(schema, components)] };
    }
  }
  const exampled = (media: Json) => {
    const schema = media.schema as Json | undefined;
    if (!schema || media.example !== undefined || media.examples !== undefined) return;
    if (Array.isArray(schema.examples)) return;
    if (typeof schema.$ref === 'string') return; // the component's examples serve it
    media.example = sampleOf(schema, components);
  };
  for (const operation of operationsOf(document)) {
    const body = operation.requestBody as { content?: Record<string, Json> } | undefined;
    for (const media of Object.values(body?.content ?? {})) exampled(media);
    for (const [status, answer] of Object.entries((operation.responses ?? {}) as Json)) {
      if (!status.startsWith('2')) continue;
      const json = ((answer as Json).content as Record<string, Json> | undefined)?.[
        'application/json'
      ];
      if (json) exampled(json);
    }
  }
  return openapi;
}
