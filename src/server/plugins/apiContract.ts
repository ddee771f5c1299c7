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
  CSRF_COOKIE,
  cookieName,
  CSRF_HEADER,
  SESSION_COOKIE,
} from '../../shared/api/http';
import { marketClientMessageSchema, marketServerMessageSchema } from '../../shared/api/market';
import { access, contractOf, notApi } from '../routes/contract';
import { foldNamedSchemas } from '../openapiComponents';
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
  }
}

/** The document's address (also where the reference page reads it). */
export const OPENAPI_PATH = '/exchange/api/openapi.json';
/** The browsable reference, in development only. */
export const API_REFERENCE_PATH = '/exchange/api/reference';

/**
 * Every route with response schemas also answers its refusals in the one error shape
 * (`{ errorMessage }`, 4xx and 5xx), unless it declares a code of its own (a 409 with more).
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
}

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

/** Adds the CSRF header to the security of every state-changing route the CSRF check guards. */
const transform: SwaggerTransform = ({ schema, url, route }) => {
  if (!schema) return { schema, url };
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  const guarded = methods.some((method) => csrfProtected(method, url));
  const { multipart, ...rest } = schema;
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
            'Every refusal answers 4xx or 5xx with `{ errorMessage }`.',
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
                '`registrations:read`, `statements:read`); any other answers 403 to a credential, ' +
                'and an unknown or revoked one answers 401.',
            },
            csrfHeader: {
              type: 'apiKey',
              in: 'header',
              name: CSRF_HEADER,
              description:
                `Must equal the \`${CSRF_COOKIE}\` cookie (double submit; over https the cookie is ` +
                `named \`${cookieName(CSRF_COOKIE, true)}\` and a plain-named one is ignored); a ` +
                'cross-site Origin is refused.',
            },
          },
          schemas: {
            MarketClientMessage: asDocumentSchema(marketClientMessageSchema),
            MarketServerMessage: asDocumentSchema(marketServerMessageSchema),
          },
        },
      },
      transform,
      // Shared shapes named once, referenced by $ref (openapiComponents.ts).
      transformObject: (documentObject) =>
        'openapiObject' in documentObject
          ? foldNamedSchemas(documentObject.openapiObject)
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
