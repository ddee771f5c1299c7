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

/**
 * A refusal the route itself answers beyond those its declarations imply (plugins/apiContract.ts
 * adds 400, 401, 403, 404, 413, 415, 429 from the schema, the security and the rate limit), in
 * the one error shape; the description names its `code` values and why.
 */
export const refused = (description: string) => ({ ...apiErrorBodySchema, description });

/** The parts of the person form as the snake-case form-data calls name them (access §3). */
const personParts = {
  first_name: { type: 'string' },
  last_name: { type: 'string' },
  phone_number: { type: 'string', description: 'International (+12125550142).' },
  // Raw bytes: OpenAPI 3.1 says a binary part by its media type alone (a generated client then
  // takes a Blob for it, not a string).
  photo_id: {
    contentMediaType: 'application/octet-stream',
    description: 'A government photo ID: PDF, JPEG, PNG, WebP or HEIC.',
    examples: ['(the file’s bytes)'],
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

/** A change to an application that no longer takes it (applications/applicationService.ts). */
const APPLICATION_LOCKED = refused(
  '`changes_locked`: submitted, or no longer waiting for changes; `change_not_requested`: a ' +
    'file the change request did not ask for',
);

/**
 * The applications calls, which answer under /exchange/api/web and /exchange/api alike (the
 * applications contract of issue 17 named the latter): the /exchange/api copies are the same
 * handlers, marked deprecated, with operation ids ending in `UnderExchangeApi`.
 */
const applicationRoutes = (prefix: string, alias = false): Record<string, FastifySchema> => {
  const id = (name: string) => (alias ? `${name}UnderExchangeApi` : name);
  const deprecated = alias ? { deprecated: true } : {};
  return {
    [`GET ${prefix}/applications/:formId`]: {
      operationId: id('getApplication'),
      ...deprecated,
      ...access.signedIn,
      summary: "The signed-in user's application of a form (null before the first save)",
      params: applicationParams,
      response: { 200: applicationResponseSchema },
    },
    [`PUT ${prefix}/applications/:formId`]: {
      operationId: id('saveApplication'),
      ...deprecated,
      ...access.signedIn,
      summary: 'Saves the answers (and the step) of an application',
      description: ANSWERS_OF_THE_FORM,
      params: applicationParams,
      response: {
        200: saveApplicationResultSchema,
        409: {
          description:
            '`stale_revision`: a stale baseRevision (the answer is the stored application); ' +
            '`changes_locked`: submitted, or no longer waiting for changes; ' +
            '`change_not_requested`: an answer the change request did not ask for',
          anyOf: [applicationConflictSchema, apiErrorBodySchema],
        },
      },
    },
    [`POST ${prefix}/applications/:formId/files`]: {
      operationId: id('uploadApplicationFile'),
      ...deprecated,
      ...access.signedIn,
      summary: 'Uploads the file of one file question (checked by content)',
      params: applicationParams,
      multipart: applicationFilePartsSchema,
      response: { 200: applicationFileResultSchema, 409: APPLICATION_LOCKED },
    },
    [`DELETE ${prefix}/applications/:formId/files`]: {
      operationId: id('deleteApplicationFile'),
      ...deprecated,
      ...access.signedIn,
      summary: 'Removes the file of one file question',
      params: applicationParams,
      querystring: {
        type: 'object',
        properties: { pointer: { type: 'string', description: 'The file question’s pointer.' } },
      },
      response: {
        204: emptyResponse('Removed (or there was none)'),
        400: refused('`invalid_request`: no pointer, or no file question at it'),
        409: APPLICATION_LOCKED,
      },
    },
  };
};

const web = '/exchange/api/web';

/** The two calls the specification has answer under /clearing/api/web as well (decisions, Paths). */
const UNDER_CLEARING = (same: string) =>
  `The same call as \`${same}\`, which the specification also names under /clearing/api/web ` +
  '(the same handler and answer).';

/** The staff calls under /exchange/api/admin, each with its operation id and summary. */
const staffCalls = (
  calls: Record<string, [operationId: string, summary: string, refusals?: Record<number, object>]>,
) =>
  Object.fromEntries(
    Object.entries(calls).map(([key, [operationId, summary, refusals]]) => {
      const [method, path] = key.split(' ');
      const response = refusals ? { response: refusals } : {};
      return [`${method} /exchange/api/admin${path}`, { operationId, summary, ...response }];
    }),
  ) as Record<string, FastifySchema>;

/** The review calls name a registration or an organisation in their body (admin/review.ts). */
const reviewRefusals = (what: string, conflict: string) => ({
  404: refused(`\`not_found\`: no such ${what}`),
  409: refused(`\`conflict\`: ${conflict}`),
});

const ROUTE_CONTRACTS: Record<string, FastifySchema> = {
  // Operations.
  'GET /healthz': {
    operationId: 'getLiveness',
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
    operationId: 'getReadiness',
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
    operationId: 'getMetrics',
    ...access.public,
    tags: ['operations'],
    summary: 'Prometheus metrics (only the addresses METRICS_ALLOW names)',
    response: {
      200: binaryResponse('text/plain', 'Prometheus text exposition format'),
      403: refused('`forbidden`: an address METRICS_ALLOW does not name'),
    },
  },
  [`GET ${web}/config`]: {
    operationId: 'getConfig',
    ...access.public,
    summary: "The browser's configuration (the captcha's site key)",
    response: { 200: configResponseSchema },
  },

  // Auth (access §7).
  [`GET ${web}/auth/signin`]: {
    operationId: 'getSignInState',
    ...access.public,
    summary: 'Whether this browser is signed in',
  },
  ['GET /clearing/api/web/auth/signin']: {
    operationId: 'getSignInStateUnderClearing',
    ...access.public,
    summary: 'Whether this browser is signed in',
    description: UNDER_CLEARING('GET /exchange/api/web/auth/signin'),
  },
  [`POST ${web}/auth/signup`]: {
    operationId: 'signUp',
    ...access.public,
    summary: 'Signs up (mails a verification link; answers the same for a known email)',
    response: { 200: ok('Received') },
  },
  [`POST ${web}/auth/verify-email`]: {
    operationId: 'verifyEmail',
    ...access.public,
    summary: 'Verifies the email from the mailed link and sets the password',
    response: { 200: ok('Verified') },
  },
  [`POST ${web}/auth/verify-email/check`]: {
    operationId: 'checkVerificationLink',
    ...access.public,
    summary:
      'Whether a verification link can still set the password (uses nothing; one answer for any dead link)',
    response: { 200: linkCheckSchema },
  },
  [`POST ${web}/auth/signin`]: {
    operationId: 'signIn',
    ...access.public,
    summary: 'Signs in (then a second factor: a code, a recovery code or a passkey)',
    'x-session': 'starts',
    response: {
      401: refused(
        '`invalid_credentials`: the email and password, the code or the recovery code do not match',
      ),
      403: refused(
        '`signin_locked`: too many failed sign-ins for this account; ' +
          '`second_factor_required`: a second factor is needed (`errors.secondFactor` lists which)',
      ),
    },
  },
  [`POST ${web}/auth/signin/passkey`]: {
    operationId: 'signInWithPasskey',
    ...access.public,
    summary: "Answers the sign-in's second step with a passkey",
    'x-session': 'starts',
    response: {
      401: refused('`invalid_credentials`: the passkey does not answer the challenge'),
      403: refused('`signin_locked`: too many failed second factors for this account'),
    },
  },
  [`POST ${web}/auth/signout`]: {
    operationId: 'signOut',
    ...access.public,
    summary: 'Signs out (ends the session on the server)',
    'x-session': 'ends',
    response: { 200: ok('Signed out') },
  },
  [`POST ${web}/auth/password/reset/request`]: {
    operationId: 'requestPasswordReset',
    ...access.public,
    summary: 'Mails a password reset link (answers the same for an unknown email)',
    response: { 200: ok('Received') },
  },
  [`POST ${web}/auth/password/reset`]: {
    operationId: 'resetPassword',
    ...access.public,
    summary: 'Sets a new password from the mailed link',
    response: { 200: ok('Password set') },
  },
  [`POST ${web}/auth/invite/accept`]: {
    operationId: 'acceptInvitation',
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
    operationId: 'confirmEmailChange',
    ...access.public,
    summary: 'Confirms a new email address from the mailed link',
    response: {
      200: emailConfirmedSchema,
      409: refused('`conflict`: the new address now belongs to another account'),
    },
  },

  // The signed-in user (access §3).
  [`GET ${web}/user`]: {
    operationId: 'getUser',
    ...access.signedIn,
    summary: 'The signed-in user',
  },
  ['GET /clearing/api/web/user']: {
    operationId: 'getUserUnderClearing',
    ...access.signedIn,
    summary: 'The signed-in user',
    description: UNDER_CLEARING('GET /exchange/api/web/user'),
  },
  [`GET ${web}/user/2fa/state`]: {
    operationId: 'getTwoFactorState',
    ...access.signedIn,
    summary: 'Whether two-factor sign-in is on',
    response: { 200: twoFactorStateSchema },
  },
  [`POST ${web}/user/2fa`]: {
    operationId: 'startTwoFactorEnrolment',
    ...access.signedIn,
    summary: 'Starts authenticator-app enrolment: the secret and its otpauth URL',
    response: {
      200: twoFactorEnrolmentSchema,
      409: refused('`conflict`: two-factor sign-in is already on'),
    },
  },
  [`PATCH ${web}/user/2fa`]: {
    operationId: 'confirmTwoFactorEnrolment',
    ...access.signedIn,
    summary: 'Confirms enrolment with a code from the app; answers ten recovery codes, shown once',
    response: {
      200: twoFactorStateSchema,
      409: refused('`conflict`: two-factor sign-in is already on'),
    },
  },
  [`POST ${web}/user/2fa/recovery-codes`]: {
    operationId: 'renewRecoveryCodes',
    ...access.signedIn,
    summary: 'A new set of ten recovery codes, shown once; the old set stops working',
    response: {
      200: recoveryCodesSchema,
      409: refused('`conflict`: two-factor sign-in is off (recovery codes stand in for it)'),
    },
  },
  [`DELETE ${web}/user/2fa`]: {
    operationId: 'turnOffTwoFactor',
    ...access.signedIn,
    summary: 'Turns two-factor sign-in off (the password again)',
    response: { 200: twoFactorStateSchema },
  },
  [`GET ${web}/user/settings`]: {
    operationId: 'getUserSettings',
    ...access.signedIn,
    summary: "The user's settings",
  },
  [`POST ${web}/user/settings`]: {
    operationId: 'changeUserSetting',
    ...access.signedIn,
    summary: 'Changes a setting, by tag (form data)',
    response: {
      403: refused(
        '`forbidden`: only an Administrator of the organisation may invite or set roles, the ' +
          'organisation is not approved yet, or the person is not a member',
      ),
      409: refused('`conflict`: add_kyc when the details are already on file'),
      429: refused(
        '`rate_limited`: too many invitations (10 an hour per user, 50 a day per organisation); ' +
          'wait as long as Retry-After says',
      ),
    },
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
    operationId: 'submitRegistrationUser',
    ...access.signedIn,
    summary: "The user's own details (the business wizard's first step, form data)",
    response: { 409: refused('`conflict`: the details are already approved') },
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
    operationId: 'getProfile',
    ...access.signedIn,
    summary: 'Who the user is and how they sign in',
    response: { 200: profileSchema },
  },
  [`GET ${web}/user/sessions`]: {
    operationId: 'listSessions',
    ...access.signedIn,
    summary: "The user's live sessions",
    response: { 200: sessionListSchema },
  },
  [`DELETE ${web}/user/sessions/:id`]: {
    operationId: 'endSession',
    ...access.signedIn,
    summary: 'Ends one session (the password again)',
    response: { 200: sessionsEndedSchema },
  },
  [`POST ${web}/user/sessions/end-others`]: {
    operationId: 'endOtherSessions',
    ...access.signedIn,
    summary: 'Ends every other session (the password again)',
    response: { 200: sessionsEndedSchema },
  },
  [`POST ${web}/user/password`]: {
    operationId: 'changePassword',
    ...access.signedIn,
    summary: 'Changes the password',
    response: { 200: sessionsEndedSchema },
  },
  [`POST ${web}/user/passkeys/options`]: {
    operationId: 'getPasskeyCreationOptions',
    ...access.signedIn,
    summary: 'Options for making a passkey (the password again)',
    response: { 200: passkeyCreationOptionsSchema },
  },
  [`POST ${web}/user/reauth/passkey-options`]: {
    operationId: 'getReauthenticationPasskeyOptions',
    ...access.signedIn,
    summary: 'A passkey challenge confirming a sensitive change (two-factor on)',
    // The WebAuthn library's request options, passed through whole.
    response: { 200: { type: 'object', additionalProperties: true } },
  },
  [`POST ${web}/user/passkeys`]: {
    operationId: 'addPasskey',
    ...access.signedIn,
    summary: 'Adds the passkey the browser made',
    response: { 200: passkeySummarySchema },
  },
  [`DELETE ${web}/user/passkeys/:id`]: {
    operationId: 'removePasskey',
    ...access.signedIn,
    summary: 'Removes a passkey (the password again)',
    response: { 200: ok('Removed') },
  },
  [`POST ${web}/user/email`]: {
    operationId: 'requestEmailChange',
    ...access.signedIn,
    summary: 'Asks to change the email (a link is mailed to the new address)',
    response: { 200: ok('Link sent') },
  },

  // Registrations and applications (issue 17).
  // The registration forms served (issue 40 §1).
  [`GET ${web}/forms`]: {
    operationId: 'listForms',
    ...access.signedIn,
    summary: 'The registration forms the account may answer',
    response: { 200: formListSchema },
  },
  [`GET ${web}/forms/:formId`]: {
    operationId: 'getForm',
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
    operationId: 'getRegistration',
    ...access.signedIn,
    summary: "The signed-in user's registration and its review",
    response: { 200: registrationOverviewSchema },
  },
  ...applicationRoutes(web),
  ...applicationRoutes('/exchange/api', true),
  [`GET ${web}/esign-consent`]: {
    operationId: 'getEsignConsent',
    ...access.signedIn,
    summary: 'The e-sign consent in force and whether the user gave it',
  },
  [`POST ${web}/esign-consent`]: {
    operationId: 'giveEsignConsent',
    ...access.signedIn,
    summary: 'Gives the e-sign consent to the version shown',
    response: { 409: refused('`conflict`: the consent’s wording changed since it was shown') },
  },
  [`GET ${web}/lei-records/:lei`]: {
    operationId: 'getLeiRecord',
    ...access.signedIn,
    summary: 'What the LEI registry says of a legal entity',
    params: {
      type: 'object',
      properties: { lei: { type: 'string', description: 'ISO 17442, 20 characters.' } },
      required: ['lei'],
    },
    response: {
      400: refused(
        '`validation_failed`: not an LEI (20 letters and digits whose ISO 17442 check digits pass)',
      ),
      404: refused('`not_found`: no legal entity is registered under this LEI'),
    },
  },
  [`GET ${web}/customer/:organizationId/statement`]: {
    operationId: 'getStatement',
    ...access.signedIn,
    summary: "The newest statement of the caller's organisation (staff: any)",
    response: {
      403: refused(
        "`forbidden`: another organisation's statement, or the caller's application is awaiting review",
      ),
    },
  },
  [`GET ${web}/stream`]: {
    operationId: 'openMarketStream',
    ...access.signedIn,
    summary: 'The live market stream (WebSocket)',
    description:
      'Upgrade to a WebSocket. The client sends MarketClientMessage (subscribe, unsubscribe); ' +
      'the server sends MarketServerMessage. See x-websocket.',
    'x-websocket': {
      clientMessages: { $ref: '#/components/schemas/MarketClientMessage' },
      serverMessages: { $ref: '#/components/schemas/MarketServerMessage' },
    },
    response: {
      101: emptyResponse('Switching protocols: the stream is open'),
      429: refused('`rate_limited`: too many market streams open for this user'),
    },
  },

  // The staff calls (spec §7.4; routes/admin.ts holds their schemas): staff only, audited.
  ...staffCalls({
    'GET /users': ['listUsers', 'Users, searched by name or email (staff)'],
    'GET /user/:userId': ['getUserAsStaff', 'One user whole: details, roles, organisation (staff)'],
    'GET /organizations': ['listOrganizations', 'Every organisation (staff)'],
    'GET /onboarding/organizations': [
      'listRegistrations',
      'Registrations waiting for review or decided, by status (staff)',
    ],
    'POST /onboarding/kyc-approval': [
      'decideRegistration',
      'Approves or rejects a registration (staff)',
      reviewRefusals('registration', 'the registration is already decided'),
    ],
    'POST /onboarding/kyc-changes-request': [
      'requestRegistrationChanges',
      'Asks the applicant to change named answers of a registration (staff)',
      reviewRefusals('registration', 'the registration is already decided or waiting for changes'),
    ],
    'POST /onboarding/participant-approval': [
      'decideParticipant',
      'Approves or rejects an organisation as a clearing participant (staff)',
      reviewRefusals('organisation', 'its KYC review is not approved yet, or already decided'),
    ],
    'POST /onboarding/verification-email': [
      'resendVerificationEmail',
      'Mails a user a new email verification link (staff)',
      reviewRefusals('user', 'the email is already verified'),
    ],
    'GET /clearing-firms': [
      'listClearingFirms',
      'The clearing firm this portal clears for (staff)',
    ],
    'GET /statements/:organizationId': [
      'getStatementAsStaff',
      "An organisation's newest statement as loaded (staff)",
    ],
    'PUT /statements/:organizationId': [
      'loadStatement',
      "Loads an organisation's statement, replacing the one in force (staff)",
      {
        422: refused('`validation_failed`: the statement is not valid; `errors` names each fault'),
      },
    ],
  }),

  // Public disclosures (business §6).
  ['GET /clearing/api/web/disclosures']: {
    operationId: 'listDisclosures',
    ...access.public,
    summary: 'The published regulatory disclosures',
  },
  ['GET /clearing/disclosures/:category/:file']: {
    operationId: 'getDisclosureDocument',
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
    operationId: 'getRegistrationDocument',
    ...consolePage,
    summary: 'A document of a registration (staff)',
    response: {
      ...consolePage.response,
      200: binaryResponse('application/octet-stream', 'The document (PDF or image)'),
    },
  },
  ['GET /clearing/admin/registrations/:id/evidence.zip']: {
    operationId: 'getEvidencePackage',
    ...consolePage,
    summary: "A registration's signature evidence package (staff)",
    response: {
      ...consolePage.response,
      200: binaryResponse('application/zip', 'The evidence package'),
    },
  },

  // Published legal documents (a static folder; the e-sign consent among them).
  ['GET /assets/pdfs/*']: {
    operationId: 'getPublishedDocument',
    ...access.public,
    tags: ['documents'],
    summary: 'A published legal document (terms of service, disclosures, consent forms)',
    hide: false,
    response: {
      200: binaryResponse('application/pdf', 'The document'),
      404: refused('`not_found`: no published document of that name'),
      304: emptyResponse('Not modified since the ETag given in If-None-Match'),
    },
  },

  // Development only (hidden: the document describes what production serves).
  ['GET /dev/outbox']: {
    operationId: 'listDevOutbox',
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
