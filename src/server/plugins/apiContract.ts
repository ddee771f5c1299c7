/**
 * The API's one description: every route's schemas (params, query, body, each response) become
 * the OpenAPI 3.1 document (@fastify/swagger), served at /exchange/api/openapi.json, written to
 * docs/openapi.json by `npm run openapi`, and drawn as a browsable reference in development only.
 * Registered before the routes: its onRoute hooks see each one as it is added.
 */
import fp from 'fastify-plugin';
import swagger, { type SwaggerTransform } from '@fastify/swagger';
import type { FastifyInstance, RouteOptions } from 'fastify';
import {
  apiErrorBodySchema,
  type ApiErrorCode,
  CSRF_COOKIE,
  defaultErrorCode,
  cookieName,
  CSRF_HEADER,
  SESSION_COOKIE,
} from '../../shared/api/http';
import { marketClientMessageSchema, marketServerMessageSchema } from '../../shared/api/market';
import { access, contractOf, notApi } from '../routes/contract';
import {
  foldNamedSchemas,
  OPENAPI_HEADERS,
  OPENAPI_PARAMETERS,
  withExamples,
  withSharedHeaders,
} from '../openapiComponents';
import { openapiWebhooks } from '../webhooks/openapiWebhooks';
import { csrfProtected } from './csrf';

declare module 'fastify' {
  interface FastifySchema {
    /** Only staff may call it (401 signed out, 403 anyone else); the document says so. */
    'x-staff-only'?: boolean;
    /** A multipart/form-data body: its parts, for the document only (the route reads them itself). */
    multipart?: object;
    /** A WebSocket route: the messages each side sends. */
    'x-websocket'?: object;
    /** Not the API (a page, a file for the browser): why; hidden from the document. */
    'x-not-api'?: string;
    /** It starts a session (its cookies set) or ends one (cleared); the document says so. */
    'x-session'?: 'starts' | 'ends';
  }
}

/** The document's address (also where the reference page reads it). */
export const OPENAPI_PATH = '/exchange/api/openapi.json';
/** The browsable reference, in development only. */
export const API_REFERENCE_PATH = '/exchange/api/reference';

/**
 * Every route with response schemas also answers its refusals in the one error shape
 * (`{ errorMessage, code }`, 4xx and 5xx), unless it declares a code of its own (a 409 with more):
 * the serialisers' ranges. The document lists each status instead (openapiRefusals.ts).
 */
function withContract(route: RouteOptions): void {
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  const contract = contractOf(methods[0]!, route.url);
  if (contract) {
    // The route's own schema (its validation) wins; the responses of both are kept.
    const own = route.schema ?? {};
    route.schema = {
      ...contract,
      ...own,
      response: { ...(contract.response as object), ...(own.response as object) },
    };
  }
  const response = route.schema?.response as Record<string, unknown> | undefined;
  if (!response) return;
  for (const range of ['4xx', '5xx']) {
    if (!(range in response)) response[range] = { ...apiErrorBodySchema, description: 'Refused' };
  }
  // A success its route does not describe is said with the operation's summary (the document
  // would say "Default Response"). A copy: a response schema may be shared by several routes.
  const summary = typeof route.schema?.summary === 'string' ? route.schema.summary : undefined;
  for (const [status, schema] of Object.entries(response)) {
    const reason = SUCCESS_REASONS[status];
    if (!reason || !summary || typeof schema !== 'object' || schema === null) continue;
    if (typeof (schema as { description?: unknown }).description === 'string') continue;
    response[status] = { ...schema, description: `${reason}: ${summary}` };
  }
}

/** The reason phrase a success without its own description is said with. */
const SUCCESS_REASONS: Partial<Record<string, string>> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No content',
  206: 'Partial content',
};

/**
 * A shared schema as the document writes it (JSON Schema 2020-12, OpenAPI 3.1): a draft-07 tuple
 * (`items: [...]`, which the route validators and json-schema-to-ts read) becomes `prefixItems`.
 */
function asDocumentSchema(schema: object): never {
  const convert = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(convert);
    if (typeof value !== 'object' || value === null) return value;
    const entries = Object.entries(value).map(([key, inner]) => [key, convert(inner)] as const);
    const copy: Record<string, unknown> = Object.fromEntries(entries);
    if (Array.isArray(copy.items)) {
      copy.prefixItems = copy.items;
      copy.items = copy.additionalItems ?? {};
      delete copy.additionalItems;
    }
    return copy;
  };
  // JSON Schema literals of this repository; @fastify/swagger's option type is a union of the
  // 3.0, 3.1 and 3.2 schema objects that no one literal satisfies, so the type is left to it.
  return convert(schema) as never;
}

/** The document's tags, one per area of the API, each described once. */
const TAGS: Record<string, string> = {
  auth: 'Signing up, in and out; verification, reset and invitation links.',
  user: 'The signed-in user: details, settings, two-factor sign-in, sessions, passkeys.',
  forms: 'The registration forms, served whole so another app can draw them.',
  applications: "An applicant's saved answers and files before submission.",
  registration: 'Submitting a registration and following its review.',
  'esign-consent': 'The consent to sign electronically.',
  lei: 'Legal entities from the LEI registry.',
  statements: "An organisation's clearing statement.",
  webhooks:
    "An organisation's webhook endpoints and deliveries; the events posted are under `webhooks`.",
  disclosures: 'The published regulatory disclosures.',
  documents: 'Published PDFs: disclosures, terms, consent forms.',
  admin: 'Staff only: users, organisations, registrations under review, statements.',
  operations: 'Health, readiness, metrics, the browser configuration and this document.',
};

/** The area a path belongs to, as the document's tag (`auth`, `user`, `admin`, …). */
function tagOf(url: string): string {
  const match = /^\/(?:exchange|clearing)\/api\/(?:web\/)?([^/]+)/.exec(url);
  const area = match?.[1];
  if (area === 'customer') return 'statements';
  if (area === 'lei-records') return 'lei';
  if (area === 'config' || area === 'openapi.json') return 'operations';
  if (area) return area;
  if (url.startsWith('/clearing/admin')) return 'admin';
  if (url.startsWith('/clearing/disclosures') || url.startsWith('/assets/')) return 'documents';
  return 'operations';
}

/** Who may call an operation and what it must send, as its description says it. */
function accessOf(
  schema: { security?: readonly object[]; 'x-staff-only'?: boolean },
  csrf: boolean,
) {
  const security = schema.security ?? [];
  const sentences = [
    schema['x-staff-only']
      ? 'Staff only: 401 signed out, 403 for anyone else.'
      : security.some((requirement) => 'sessionCookie' in requirement)
        ? 'Needs a signed-in session (the session cookie); 401 without one.'
        : 'Public: no session needed.',
  ];
  const credential = security.find((requirement) => 'apiCredential' in requirement) as
    { apiCredential: string[] } | undefined;
  if (credential) {
    sentences.push(
      `Or an API credential (\`Authorization: Bearer\`) with the scope ` +
        `\`${credential.apiCredential.join(' ')}\`: no cookie, no CSRF header.`,
    );
  }
  if (csrf) {
    sentences.push(
      `State-changing: send the \`${CSRF_HEADER}\` header equal to the \`${CSRF_COOKIE}\` cookie ` +
        '(403 `csrf_missing` without it).',
    );
  }
  return sentences.join(' ');
}

/**
 * Adds the CSRF header to the security of every state-changing route the CSRF check guards, and
 * writes each refusal the route answers as its own status (openapiRefusals.ts) with the headers
 * it sends.
 */
const transform: SwaggerTransform = ({ schema, url, route }) => {
  if (!schema) return { schema, url };
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  const guarded = methods.some((method) => csrfProtected(method, url));
  const { multipart, 'x-session': session, ...rest } = schema;
  // An API credential's call needs no CSRF header (plugins/apiCredentials.ts): no cookie sends it.
  const security = (rest.security ?? []).map((requirement) =>
    guarded && !('apiCredential' in requirement) ? { ...requirement, csrfHeader: [] } : requirement,
  );
  const own = typeof rest.description === 'string' ? `${rest.description}\n\n` : '';
  const described = {
    ...rest,
    description: `${own}${accessOf(rest, guarded)}`,
    tags: rest.tags ?? [tagOf(url)],
    security: guarded && security.length === 0 ? [{ csrfHeader: [] }] : security,
    ...(multipart ? { body: multipart, consumes: ['multipart/form-data'] } : {}),
    ...documentedAnswers({
      schema: { ...rest, multipart },
      url,
      guarded,
      session,
      rateLimit: (route.config as { rateLimit?: { max?: unknown } } | undefined)?.rateLimit,
    }),
  };
  return { schema: described, url };
};

export const apiContractPlugin = fp(
  async (app: FastifyInstance, options: { referencePage: boolean }) => {
    app.addHook('onRoute', withContract);
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Northstar Clearing member portal API',
          version: '1',
          description:
            'Every route of the portal, generated from the routes’ own schemas (docs/api.md says ' +
            'how to call it). ' +
            `State-changing calls echo the \`${CSRF_COOKIE}\` cookie in the \`${CSRF_HEADER}\` header. ` +
            'Routes marked `x-staff-only` answer 401 signed out and 403 to anyone but staff. ' +
            'Every refusal answers its own status with the `Error` body, `{ errorMessage, code }`; ' +
            'each operation lists the statuses it answers and the `code` values of each.\n\n' +
            STATUS_VOCABULARY,
        },
        servers: [
          {
            url: '{origin}',
            description: "The portal's origin: its PUBLIC_URL.",
            variables: {
              origin: {
                default: 'http://localhost:8080',
                description: 'The scheme, host and port the portal answers at (no trailing slash).',
              },
            },
          },
        ],
        tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
        // The events posted to a partner's endpoints (issue 40 §5).
        webhooks: openapiWebhooks(),
        components: {
          securitySchemes: {
            sessionCookie: {
              type: 'apiKey',
              in: 'cookie',
              name: SESSION_COOKIE,
              description:
                'The session, set by POST auth/signin (HttpOnly, SameSite=Lax). Over https (an https ' +
                `PUBLIC_URL) it is named \`${cookieName(SESSION_COOKIE, true)}\` (Secure, Path=/, no ` +
                'Domain), and a cookie of the plain name is ignored.',
            },
            apiCredential: {
              type: 'http',
              scheme: 'bearer',
              description:
                "An organisation's API credential (issue 40 §4), made by its Administrator on the " +
                'Profile page: `Authorization: Bearer <secret>`, no cookie and no CSRF header. Each ' +
                'operation that takes one names the scope it needs (`applications:write`, ' +
                '`registrations:read`, `statements:read`): 403 `scope_missing` without it. Every ' +
                'other operation answers a credential 403 `credential_not_accepted` (never the ' +
                'session instead), and on any operation a Bearer value that is no credential answers ' +
                '401 `credential_invalid`, a revoked one 401 `credential_revoked`.',
            },
            csrfHeader: {
              type: 'apiKey',
              in: 'header',
              name: CSRF_HEADER,
              description:
                `Must equal the \`${CSRF_COOKIE}\` cookie (double submit; over https the cookie is ` +
                `named \`${cookieName(CSRF_COOKIE, true)}\` and a plain-named one is ignored); a ` +
                'cross-site Origin is refused. The cookie comes with the answer to any request ' +
                'that lacks one bound to its session (a first GET, such as `GET config`), and a ' +
                'new one with every sign-in and sign-out (their Set-Cookie).',
            },
          },
          schemas: {
            MarketClientMessage: asDocumentSchema(marketClientMessageSchema),
            MarketServerMessage: asDocumentSchema(marketServerMessageSchema),
          },
          headers: OPENAPI_HEADERS,
          parameters: OPENAPI_PARAMETERS,
        },
      },
      transform,
      // Shared shapes named once, referenced by $ref (openapiComponents.ts).
      transformObject: (documentObject) =>
        'openapiObject' in documentObject
          ? withExamples(withSharedHeaders(foldNamedSchemas(documentObject.openapiObject)))
          : documentObject.swaggerObject,
    });
    app.get(
      OPENAPI_PATH,
      {
        schema: {
          ...access.public,
          operationId: 'getOpenApiDocument',
          summary: 'This document (OpenAPI 3.1)',
          response: { 200: { type: 'object', additionalProperties: true } },
        },
      },
      async () => app.swagger(),
    );
    if (options.referencePage) {
      // Development only: the reference page's code is loaded only when it is drawn.
      const { default: swaggerUi } = await import('@fastify/swagger-ui');
      await app.register(async (reference) => {
        reference.addHook('onRoute', (route) => {
          route.schema = { ...route.schema, ...notApi('the API reference page (development)') };
        });
        await reference.register(swaggerUi, { routePrefix: API_REFERENCE_PATH });
      });
    }
  },
  { name: 'api-contract' },
);

type Json = Record<string, unknown>;

/** A status's reason as the document writes it: the `code` a program reads, and why. */
const because = (code: ApiErrorCode, reason: string) => `\`${code}\`: ${reason}`;

/** The 5xx every route may answer; no route answers one on purpose. */
const FAILURE =
  'Unexpected failure: 500 `internal_error` (its `incidentId` names the server’s log line), or 503 ' +
  '`unavailable` while the database (or the LEI registry) is away for a moment, with Retry-After';

/** Whether a params or query schema can refuse a value (a bare string never fails). */
function refuses(schema: unknown, path: boolean): boolean {
  if (typeof schema !== 'object' || schema === null) return false;
  const { properties, required } = schema as { properties?: Json; required?: string[] };
  if (!path && (required?.length ?? 0) > 0) return true;
  const limits = [
    'pattern',
    'format',
    'enum',
    'const',
    'minLength',
    'maxLength',
    'minimum',
    'maximum',
  ];
  return Object.values(properties ?? {}).some((property) => {
    const { type, ...rest } = property as Json;
    return (type !== undefined && type !== 'string') || limits.some((limit) => limit in rest);
  });
}

/** A header of the document's components (openapiComponents.ts puts the `$ref` in its place). */
const sharedHeader = (name: string) => ({ 'x-shared-header': name });

/**
 * What the document says a route answers (issue 40 §2): each refusal as its own status, derived
 * from what the route declares (its body, query and params, its security, the CSRF check, its
 * path's parameters, its rate limit, the Idempotency-Key it takes) beside the refusals it
 * declares itself (contract.ts: 409, 422…), each naming its `code` values; and the headers those
 * answers carry (Set-Cookie, ETag, the rate limit's, Idempotent-Replayed) and the request headers
 * it reads (If-None-Match, Idempotency-Key). The serialisers keep their 4xx/5xx ranges.
 */
function documentedAnswers(input: {
  schema: Json;
  url: string;
  guarded: boolean;
  session: 'starts' | 'ends' | undefined;
  rateLimit: { max?: unknown } | undefined;
}): { response?: Json; headers?: Json } {
  const { schema, url, guarded, session, rateLimit } = input;
  const declared = schema.response as Json | undefined;
  if (!declared) return {};
  const reasons = new Map<number, string[]>();
  const add = (status: number, ...why: string[]) =>
    reasons.set(status, [...(reasons.get(status) ?? []), ...why]);
  const security = (schema.security ?? []) as Json[];
  const signedIn = security.some((requirement) => 'sessionCookie' in requirement);
  const credential = security.find((requirement) => 'apiCredential' in requirement) as
    { apiCredential: string[] } | undefined;
  const requestHeaders = (schema.headers ?? {}) as { properties?: Json };
  const idempotent = 'idempotency-key' in (requestHeaders.properties ?? {});
  const multipart = schema.multipart !== undefined;
  const body = schema.body !== undefined && !multipart;

  if (body) {
    add(400, because('invalid_request', 'the body is not JSON'));
    add(400, because('validation_failed', 'a field of the body is refused; `errors` names it'));
  }
  if (multipart) {
    add(400, because('validation_failed', 'a part is missing or refused; `errors` names it'));
    add(400, because('upload_refused', 'a file refused for what it holds'));
  }
  if (refuses(schema.querystring, false)) {
    add(400, because('validation_failed', 'a query parameter is refused'));
  }
  if (refuses(schema.params, true)) add(400, because('validation_failed', 'a malformed path'));
  // plugins/inputGuard.ts refuses it on every route, before any handler (the console's pages
  // aside: their refusals are pages).
  const pages = declared['4xx'] !== undefined && 'content' in (declared['4xx'] as Json);
  if (!pages) {
    add(
      400,
      because(
        'validation_failed',
        'text that can never be stored (a NUL byte) in the path, query or body',
      ),
    );
  }
  if (idempotent) {
    add(
      400,
      because('invalid_request', 'an Idempotency-Key that is not 1 to 255 printable characters'),
    );
  }
  // The console's pages send a signed-out browser to the sign-in page (302) instead.
  if ((signedIn || credential) && !('302' in declared)) {
    add(401, because('unauthorized', 'no session, or it has ended'));
  }
  if (credential) {
    add(401, because('credential_invalid', 'an Authorization: Bearer value that is no credential'));
    add(
      401,
      because(
        'credential_revoked',
        'a revoked credential, or its maker no longer an Administrator',
      ),
    );
  }
  if (guarded) {
    add(
      403,
      because(
        'csrf_missing',
        `no \`${CSRF_HEADER}\` header equal to the \`${CSRF_COOKIE}\` cookie`,
      ),
    );
    add(403, because('cross_site', "another site's Origin"));
  }
  if (schema['x-staff-only']) add(403, because('forbidden', 'signed in, but not staff'));
  if (credential) {
    add(
      403,
      because(
        'scope_missing',
        `a credential without the scope \`${credential.apiCredential.join(' ')}\``,
      ),
    );
  }
  if (/\/:[^/]/.test(url))
    add(404, because('not_found', 'nothing by that name (or not yours to see)'));
  if (idempotent) {
    add(409, because('conflict', 'a request with this Idempotency-Key is still running'));
    add(
      422,
      because(
        'validation_failed',
        'this Idempotency-Key was used with another request in the last 24 hours',
      ),
    );
  }
  if (body || multipart) {
    add(
      413,
      because(
        'payload_too_large',
        multipart ? 'a file or a field is too large' : 'the body is too large',
      ),
    );
    add(
      415,
      because(
        'unsupported_media_type',
        multipart
          ? 'not multipart/form-data'
          : 'a content type the call does not read (send application/json)',
      ),
    );
  }
  if (rateLimit) {
    add(
      429,
      because(
        'rate_limited',
        `more than ${String(rateLimit.max)} calls a minute from this address; wait as long as Retry-After says`,
      ),
    );
  }

  const { '4xx': range, '5xx': failure, ...answers } = declared;
  // The console's pages answer their refusals as HTML: each status keeps the range's media type.
  const shape = pages ? (range as Json) : apiErrorBodySchema;
  const response: Json = { ...answers };
  // A refusal a route declares without naming its code answers its status's (errors.ts).
  for (const [status, answer] of Object.entries(answers)) {
    const { description } = answer as Json;
    const code = defaultErrorCode(Number(status));
    if (/^4\d\d$/.test(status) && typeof description === 'string' && !description.includes('`')) {
      response[status] = { ...(answer as Json), description: because(code, description) };
    }
  }
  for (const status of [...reasons.keys()].sort()) {
    const own = response[status] as Json | undefined;
    const description = [own?.description, ...reasons.get(status)!].filter(Boolean).join('; ');
    response[status] = { ...(own ?? shape), description };
  }
  if (failure) response['5xx'] = { ...(failure as Json), description: FAILURE };

  // The headers each answer carries.
  const withHeaders = (status: string, headers: Json) => {
    const answer = response[status] as Json | undefined;
    if (answer)
      response[status] = { ...answer, headers: { ...(answer.headers as Json), ...headers } };
  };
  const limitHeaders = {
    'X-RateLimit-Limit': sharedHeader('XRateLimitLimit'),
    'X-RateLimit-Remaining': sharedHeader('XRateLimitRemaining'),
    'X-RateLimit-Reset': sharedHeader('XRateLimitReset'),
  };
  const successes = Object.keys(response).filter((status) => /^2/.test(status));
  for (const status of successes) {
    if (rateLimit) withHeaders(status, limitHeaders);
    if (idempotent)
      withHeaders(status, { 'Idempotent-Replayed': sharedHeader('IdempotentReplayed') });
    if (session) {
      withHeaders(status, {
        'Set-Cookie': sharedHeader(
          session === 'starts' ? 'SetCookieSession' : 'SetCookieSignedOut',
        ),
      });
    }
  }
  // A 429 of a rate limit, or of a limit whose refusal says it sends Retry-After.
  const tooMany = response['429'] as Json | undefined;
  if (rateLimit) withHeaders('429', { ...limitHeaders, 'Retry-After': sharedHeader('RetryAfter') });
  else if (String(tooMany?.description).includes('Retry-After')) {
    withHeaders('429', { 'Retry-After': sharedHeader('RetryAfter') });
  }
  if (idempotent) withHeaders('409', { 'Retry-After': sharedHeader('RetryAfter') });
  // A conditional GET: its 200 has an ETag, and If-None-Match naming it answers 304.
  const conditional = '304' in response;
  if (conditional) {
    withHeaders('200', { ETag: sharedHeader('ETag') });
    withHeaders('304', { ETag: sharedHeader('ETag') });
  }
  const headers = conditional
    ? {
        ...requestHeaders,
        type: 'object',
        properties: { ...requestHeaders.properties, 'if-none-match': sharedHeader('IfNoneMatch') },
      }
    : undefined;
  return { response, ...(headers ? { headers } : {}) };
}

/**
 * The one status vocabulary of an application and its registration (docs/api.md says the same),
 * in the document's description.
 */
const STATUS_VOCABULARY =
  "**Statuses.** An application (`Application.status`, the applicant's saved answers) is " +
  '`draft` (being answered; saves are taken), `submitted` (sent as a registration; its answers ' +
  'are locked, 409 `changes_locked`) or `changes_requested` (staff asked for changes: only the ' +
  'named answers may change, 409 `change_not_requested` for others, until it is submitted ' +
  "again). A registration's review (`Registration.status`, each `history[].status`, the staff " +
  "calls' `status`, `registrationStatus`, a webhook event's `status` and the signed-in user's " +
  "`review.status`) is `submitted` (waiting for review: the same moment as the application's), " +
  "`changes_requested` (the same moment as the application's), `resubmitted` (submitted again " +
  'after a change request, waiting for review), `approved` or `rejected` (both final). An ' +
  "organisation's admission as a clearing participant (`participantStatus`), decided after its " +
  'registration is approved, is `pending`, `approved` or `rejected`.\n\n**Names.** Properties ' +
  'are camelCase; enum values and `code`s the portal names itself are snake_case. Where the ' +
  'specification fixes a wire name it is kept as it is: `authStatus` ' +
  '`TwoFactorRequired`/`AuthComplete`, the sign-in state `Authenticated`/`NotAuthenticated`, ' +
  "`authOrigin` `Clearing`, the user's `details.approved` flag (true once the registration is " +
  'approved) and `roles`, the snake_case fields of the calls it specifies (`access_token`, ' +
  "`recaptcha_site_key`, `first_name`, …) and the statement's words (`taker_side`, `Bid`/`Ask`, " +
  '…); docs/api.md lists them.';
