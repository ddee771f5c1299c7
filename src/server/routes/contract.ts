/**
 * What each route answers and who may call it, by `METHOD /path` as Fastify registers it: the
 * responses, the access, a summary. Applied to each route as it is registered (plugins/
 * apiContract.ts), merged under the route's own schema (its body and params validation stay
 * where the handler is), so the OpenAPI document, the response serialisers and the types of
 * src/shared/api all come from these schemas. A route missing here and without its own response
 * schemas fails the route walk (tests/server/api-contract.test.ts).
 */
import type { FastifySchema } from 'fastify';
import {
  emailConfirmedSchema,
  passkeyCreationOptionsSchema,
  passkeySummarySchema,
  profileSchema,
  sessionListSchema,
  sessionsEndedSchema,
} from '../../shared/api/account';
import {
  applicationConflictSchema,
  applicationFilePartsSchema,
  applicationFileResultSchema,
  applicationResponseSchema,
  saveApplicationResultSchema,
} from '../../shared/api/applications';
import {
  configResponseSchema,
  linkCheckSchema,
  recoveryCodesSchema,
  twoFactorEnrolmentSchema,
  twoFactorStateSchema,
} from '../../shared/api/auth';
import { apiErrorBodySchema, emptyObjectSchema } from '../../shared/api/http';
import { formDocumentSchema, formListSchema } from '../../shared/api/forms';
import { registrationOverviewSchema } from '../../shared/api/registration';

/** Security requirements a route's schema names (the CSRF header is added where it applies). */
export const access = {
  /** Anyone; no session needed. */
  public: { security: [] },
  /** A signed-in user's session cookie (401 without one). */
  signedIn: { security: [{ sessionCookie: [] }] },
  /** Staff only: the session of a user with isNorthstarClearingStaff (401 signed out, 403 else). */
  staffOnly: { security: [{ sessionCookie: [] }], 'x-staff-only': true },
} as const;

/** A body that is not JSON (a PDF, a ZIP, text): the document names its media type. */
const binaryResponse = (mediaType: string, description: string) => ({
  description,
  content: { [mediaType]: { schema: { type: 'string', contentMediaType: mediaType } } },
});

/** An answer without a body (101, 204, 302, 304). */
const emptyResponse = (description: string) => ({ description, type: 'null' }) as const;

const ok = (description: string) => ({ ...emptyObjectSchema, description });

/** The parts of the person form as the snake-case form-data calls name them (access §3). */
const personParts = {
  first_name: { type: 'string' },
  last_name: { type: 'string' },
  phone_number: { type: 'string', description: 'International (+12125550142).' },
  photo_id: {
    type: 'string',
    contentMediaType: 'application/octet-stream',
    description: 'A government photo ID: PDF, JPEG, PNG, WebP or HEIC.',
  },
} as const;

/** A route that is not the API (pages, assets): hidden from the document, said why. */
export const notApi = (why: string): FastifySchema => ({ hide: true, 'x-not-api': why });

/** Answers 404 for any path under an API prefix that no route matches. */
const unmatched: FastifySchema = {
  hide: true,
  response: { 404: { ...apiErrorBodySchema, description: 'No such call' } },
};

/** The staff console's refusals are pages (it is a browser's page, not a JSON client's). */
const consolePage = {
  ...access.staffOnly,
  response: {
    302: emptyResponse('Signed out: sent to the sign-in page'),
    '4xx': binaryResponse('text/html', 'Refused (403 for anyone but staff) or not found'),
  },
};

const applicationParams = {
  type: 'object',
  properties: {
    formId: { type: 'string', description: 'The form id (`individual`, `business`).' },
  },
  required: ['formId'],
} as const;

/**
 * What the answers of an application and a registration are: those of the form `GET forms/{formId}`
 * serves, validated against its schema (the document's `answers` cannot say which form's).
 */
const ANSWERS_OF_THE_FORM =
  '`answers` are the answers to the form `GET /exchange/api/web/forms/{formId}` serves, keyed ' +
  'as its `schema` names them, and are validated against that schema (a save checks their ' +
  'shape: an object whose keys the form knows; the submission checks them whole, as the portal ' +
  'does, and answers 422 with `errors` by JSON pointer). Files go by ' +
  '`POST applications/{formId}/files`, at the pointers the form lists under `uploads`.';

const formIdParams = {
  type: 'object',
  properties: {
    formId: { type: 'string', description: 'A registration form id from `GET forms`.' },
  },
  required: ['formId'],
} as const;

/** The applications calls, which answer under /exchange/api/web and /exchange/api alike. */
const applicationRoutes = (prefix: string): Record<string, FastifySchema> => ({
  [`GET ${prefix}/applications/:formId`]: {
    ...access.signedIn,
    summary: "The signed-in user's application of a form (null before the first save)",
    params: applicationParams,
    response: { 200: applicationResponseSchema },
  },
  [`PUT ${prefix}/applications/:formId`]: {
    ...access.signedIn,
    summary: 'Saves the answers (and the step) of an application',
    description: ANSWERS_OF_THE_FORM,
    params: applicationParams,
    response: {
      200: saveApplicationResultSchema,
      409: {
        description: 'A stale baseRevision (with the stored application), or no longer open',
        anyOf: [applicationConflictSchema, apiErrorBodySchema],
      },
    },
  },
  [`POST ${prefix}/applications/:formId/files`]: {
    ...access.signedIn,
    summary: 'Uploads the file of one file question (checked by content)',
    params: applicationParams,
    multipart: applicationFilePartsSchema,
    response: { 200: applicationFileResultSchema },
  },
  [`DELETE ${prefix}/applications/:formId/files`]: {
    ...access.signedIn,
    summary: 'Removes the file of one file question',
    params: applicationParams,
    querystring: {
      type: 'object',
      properties: { pointer: { type: 'string', description: 'The file question’s pointer.' } },
    },
    response: { 204: emptyResponse('Removed (or there was none)') },
  },
});

const web = '/exchange/api/web';

const ROUTE_CONTRACTS: Record<string, FastifySchema> = {
  // Operations.
  'GET /healthz': {
    ...access.public,
    tags: ['operations'],
    summary: 'Liveness',
    response: {
      200: {
        type: 'object',
        properties: { status: { const: 'ok' } },
        required: ['status'],
        additionalProperties: false,
      },
    },
  },
  'GET /readyz': {
    ...access.public,
    tags: ['operations'],
    summary: 'Readiness: the database answers',
    response: {
      200: {
        type: 'object',
        properties: { status: { const: 'ready' } },
        required: ['status'],
        additionalProperties: false,
      },
    },
  },
  'GET /metrics': {
    ...access.public,
    tags: ['operations'],
    summary: 'Prometheus metrics (only the addresses METRICS_ALLOW names)',
    response: { 200: binaryResponse('text/plain', 'Prometheus text exposition format') },
  },
  [`GET ${web}/config`]: {
    ...access.public,
    summary: "The browser's configuration (the captcha's site key)",
    response: { 200: configResponseSchema },
  },

  // Auth (access §7).
  [`GET ${web}/auth/signin`]: { ...access.public, summary: 'Whether this browser is signed in' },
  ['GET /clearing/api/web/auth/signin']: {
    ...access.public,
    summary: 'Whether this browser is signed in',
  },
  [`POST ${web}/auth/signup`]: {
    ...access.public,
    summary: 'Signs up (mails a verification link; answers the same for a known email)',
    response: { 200: ok('Received') },
  },
  [`POST ${web}/auth/verify-email`]: {
    ...access.public,
    summary: 'Verifies the email from the mailed link and sets the password',
    response: { 200: ok('Verified') },
  },
  [`POST ${web}/auth/verify-email/check`]: {
    ...access.public,
    summary:
      'Whether a verification link can still set the password (uses nothing; one answer for any dead link)',
    response: { 200: linkCheckSchema },
  },
  [`POST ${web}/auth/signin`]: {
    ...access.public,
    summary: 'Signs in (then a second factor: a code, a recovery code or a passkey)',
  },
  [`POST ${web}/auth/signin/passkey`]: {
    ...access.public,
    summary: "Answers the sign-in's second step with a passkey",
  },
  [`POST ${web}/auth/signout`]: {
    ...access.public,
    summary: 'Signs out (ends the session on the server)',
    response: { 200: ok('Signed out') },
  },
  [`POST ${web}/auth/password/reset/request`]: {
    ...access.public,
    summary: 'Mails a password reset link (answers the same for an unknown email)',
    response: { 200: ok('Received') },
  },
  [`POST ${web}/auth/password/reset`]: {
    ...access.public,
    summary: 'Sets a new password from the mailed link',
    response: { 200: ok('Password set') },
  },
  [`POST ${web}/auth/invite/accept`]: {
    ...access.public,
    summary: 'Accepts an invitation: password and details (form data)',
    multipart: {
      type: 'object',
      properties: {
        access_token: { type: 'string' },
        organization_id: { type: 'string', format: 'uuid' },
        email: { type: 'string' },
        password_text: { type: 'string' },
        ...personParts,
        role: {
          type: 'array',
          items: { type: 'string', enum: ['Administrator', 'Trader', 'Viewer'] },
          description: 'Repeatable; none takes every invited role.',
        },
      },
      required: [
        'access_token',
        'organization_id',
        'email',
        'password_text',
        'first_name',
        'last_name',
        'phone_number',
        'photo_id',
      ],
    },
    response: { 200: ok('Accepted') },
  },
  [`POST ${web}/auth/email/confirm`]: {
    ...access.public,
    summary: 'Confirms a new email address from the mailed link',
    response: { 200: emailConfirmedSchema },
  },

  // The signed-in user (access §3).
  [`GET ${web}/user`]: { ...access.signedIn, summary: 'The signed-in user' },
  ['GET /clearing/api/web/user']: { ...access.signedIn, summary: 'The signed-in user' },
  [`GET ${web}/user/2fa/state`]: {
    ...access.signedIn,
    summary: 'Whether two-factor sign-in is on',
    response: { 200: twoFactorStateSchema },
  },
  [`POST ${web}/user/2fa`]: {
    ...access.signedIn,
    summary: 'Starts authenticator-app enrolment: the secret and its otpauth URL',
    response: { 200: twoFactorEnrolmentSchema },
  },
  [`PATCH ${web}/user/2fa`]: {
    ...access.signedIn,
    summary: 'Confirms enrolment with a code from the app; answers ten recovery codes, shown once',
    response: { 200: twoFactorStateSchema },
  },
  [`POST ${web}/user/2fa/recovery-codes`]: {
    ...access.signedIn,
    summary: 'A new set of ten recovery codes, shown once; the old set stops working',
    response: { 200: recoveryCodesSchema },
  },
  [`DELETE ${web}/user/2fa`]: {
    ...access.signedIn,
    summary: 'Turns two-factor sign-in off (the password again)',
    response: { 200: twoFactorStateSchema },
  },
  [`GET ${web}/user/settings`]: { ...access.signedIn, summary: "The user's settings" },
  [`POST ${web}/user/settings`]: {
    ...access.signedIn,
    summary: 'Changes a setting, by tag (form data)',
    multipart: {
      type: 'object',
      properties: {
        tag: {
          type: 'string',
          enum: ['add_kyc', 'modify_kyc', 'invite_user', 'set_roles', 'mark_tutorial_complete'],
        },
        ...personParts,
        email: { type: 'string', description: 'invite_user: whom to invite.' },
        user_id: { type: 'string', format: 'uuid', description: 'set_roles: whose roles.' },
        role: {
          type: 'array',
          items: { type: 'string', enum: ['Administrator', 'Trader', 'Viewer'] },
          description: 'invite_user and set_roles; repeatable.',
        },
      },
      required: ['tag'],
    },
  },
  [`POST ${web}/registration/user`]: {
    ...access.signedIn,
    summary: "The user's own details (the business wizard's first step, form data)",
    multipart: {
      type: 'object',
      properties: {
        firstName: personParts.first_name,
        lastName: personParts.last_name,
        phoneNumber: personParts.phone_number,
        photoId: personParts.photo_id,
      },
      required: ['firstName', 'lastName', 'phoneNumber', 'photoId'],
    },
  },

  // The profile page (docs/decisions.md, The profile page).
  [`GET ${web}/user/profile`]: {
    ...access.signedIn,
    summary: 'Who the user is and how they sign in',
    response: { 200: profileSchema },
  },
  [`GET ${web}/user/sessions`]: {
    ...access.signedIn,
    summary: "The user's live sessions",
    response: { 200: sessionListSchema },
  },
  [`DELETE ${web}/user/sessions/:id`]: {
    ...access.signedIn,
    summary: 'Ends one session (the password again)',
    response: { 200: sessionsEndedSchema },
  },
  [`POST ${web}/user/sessions/end-others`]: {
    ...access.signedIn,
    summary: 'Ends every other session (the password again)',
    response: { 200: sessionsEndedSchema },
  },
  [`POST ${web}/user/password`]: {
    ...access.signedIn,
    summary: 'Changes the password',
    response: { 200: sessionsEndedSchema },
  },
  [`POST ${web}/user/passkeys/options`]: {
    ...access.signedIn,
    summary: 'Options for making a passkey (the password again)',
    response: { 200: passkeyCreationOptionsSchema },
  },
  [`POST ${web}/user/reauth/passkey-options`]: {
    ...access.signedIn,
    summary: 'A passkey challenge confirming a sensitive change (two-factor on)',
    // The WebAuthn library's request options, passed through whole.
    response: { 200: { type: 'object', additionalProperties: true } },
  },
  [`POST ${web}/user/passkeys`]: {
    ...access.signedIn,
    summary: 'Adds the passkey the browser made',
    response: { 200: passkeySummarySchema },
  },
  [`DELETE ${web}/user/passkeys/:id`]: {
    ...access.signedIn,
    summary: 'Removes a passkey (the password again)',
    response: { 200: ok('Removed') },
  },
  [`POST ${web}/user/email`]: {
    ...access.signedIn,
    summary: 'Asks to change the email (a link is mailed to the new address)',
    response: { 200: ok('Link sent') },
  },

  // Registrations and applications (issue 17).
  // The registration forms served (issue 40 §1).
  [`GET ${web}/forms`]: {
    ...access.signedIn,
    summary: 'The registration forms the account may answer',
    response: { 200: formListSchema },
  },
  [`GET ${web}/forms/:formId`]: {
    ...access.signedIn,
    summary: 'A registration form whole: its JSON Schema, uiSchema, steps, uploads, agreements',
    description:
      'Draw it with any JSON Schema tool (rjsf takes `schema` and `uiSchema` as they are); the ' +
      'answers `PUT applications/{formId}` saves and `POST registration/{formId}` submits are ' +
      'validated against `schema`. `schemaHash` names this wording: the submission sends it. ' +
      'Answers with an ETag; If-None-Match naming it answers 304.',
    params: formIdParams,
    response: {
      200: formDocumentSchema,
      304: emptyResponse('Not modified since the ETag given in If-None-Match'),
    },
  },
  [`GET ${web}/registration`]: {
    ...access.signedIn,
    summary: "The signed-in user's registration and its review",
    response: { 200: registrationOverviewSchema },
  },
  ...applicationRoutes(web),
  ...applicationRoutes('/exchange/api'),
  [`GET ${web}/esign-consent`]: {
    ...access.signedIn,
    summary: 'The e-sign consent in force and whether the user gave it',
  },
  [`POST ${web}/esign-consent`]: {
    ...access.signedIn,
    summary: 'Gives the e-sign consent to the version shown',
  },
  [`GET ${web}/lei-records/:lei`]: {
    ...access.signedIn,
    summary: 'What the LEI registry says of a legal entity',
    params: {
      type: 'object',
      properties: { lei: { type: 'string', description: 'ISO 17442, 20 characters.' } },
      required: ['lei'],
    },
  },
  [`GET ${web}/customer/:organizationId/statement`]: {
    ...access.signedIn,
    summary: "The newest statement of the caller's organisation (staff: any)",
  },
  [`GET ${web}/stream`]: {
    ...access.signedIn,
    summary: 'The live market stream (WebSocket)',
    description:
      'Upgrade to a WebSocket. The client sends MarketClientMessage (subscribe, unsubscribe); ' +
      'the server sends MarketServerMessage. See x-websocket.',
    'x-websocket': {
      clientMessages: { $ref: '#/components/schemas/MarketClientMessage' },
      serverMessages: { $ref: '#/components/schemas/MarketServerMessage' },
    },
    response: { 101: emptyResponse('Switching protocols: the stream is open') },
  },

  // Public disclosures (business §6).
  ['GET /clearing/api/web/disclosures']: {
    ...access.public,
    summary: 'The published regulatory disclosures',
  },
  ['GET /clearing/disclosures/:category/:file']: {
    ...access.public,
    summary: 'A disclosure document (`latest.pdf` is the newest of its category)',
    params: {
      type: 'object',
      properties: {
        category: {
          type: 'string',
          description:
            'firm-disclosure, daily-segregation, capital-summary, monthly-segregation or ' +
            'audited-financial (any other answers 404).',
        },
        file: { type: 'string', description: '`{period}.pdf` or `latest.pdf`.' },
      },
      required: ['category', 'file'],
    },
    response: {
      200: binaryResponse('application/pdf', 'The document'),
      304: emptyResponse('Not modified since the ETag given in If-None-Match'),
    },
  },

  // The staff console's downloads (the evidence package, a registration's documents).
  ['GET /clearing/admin/documents/:id']: {
    ...consolePage,
    summary: 'A document of a registration (staff)',
    response: {
      ...consolePage.response,
      200: binaryResponse('application/octet-stream', 'The document (PDF or image)'),
    },
  },
  ['GET /clearing/admin/registrations/:id/evidence.zip']: {
    ...consolePage,
    summary: "A registration's signature evidence package (staff)",
    response: {
      ...consolePage.response,
      200: binaryResponse('application/zip', 'The evidence package'),
    },
  },

  // Published legal documents (a static folder; the e-sign consent among them).
  ['GET /assets/pdfs/*']: {
    ...access.public,
    tags: ['documents'],
    summary: 'A published legal document (terms of service, disclosures, consent forms)',
    hide: false,
    response: {
      200: binaryResponse('application/pdf', 'The document'),
      304: emptyResponse('Not modified since the ETag given in If-None-Match'),
    },
  },

  // Development only (hidden: the document describes what production serves).
  ['GET /dev/outbox']: {
    hide: true,
    response: {
      200: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            to: { type: 'string' },
            subject: { type: 'string' },
            text: { type: 'string' },
            links: { type: 'array', items: { type: 'string' } },
          },
          required: ['to', 'subject', 'text', 'links'],
          additionalProperties: false,
        },
      },
    },
  },
};

/** Any method under these answers 404 with the error shape. */
const UNMATCHED_PREFIXES = [
  '/exchange/api/*',
  '/clearing/api/*',
  '/clearing/disclosures/*',
] as const;

export function contractOf(method: string, url: string): FastifySchema | undefined {
  if ((UNMATCHED_PREFIXES as readonly string[]).includes(url)) return unmatched;
  const described = ROUTE_CONTRACTS[`${method} ${url}`];
  // Every staff call (spec §7.4) is staff only: its plugin refuses anyone else first.
  if (url.startsWith('/exchange/api/admin/')) return { ...access.staffOnly, ...described };
  return described;
}
