import type { FastifyInstance, FastifyRequest } from 'fastify';
import type {
  AdminClearingFirm,
  AdminDecisionResult,
  AdminStatement,
  KycApprovalRequest,
  KycChangesRequest,
  LoadStatementRequest,
  ParticipantApprovalRequest,
  ReviewStatus,
  VerificationEmailRequest,
} from '../../shared/api/admin';
import { firm } from '../../shared/config/firm';
import {
  decideParticipant,
  decideRegistration,
  loadStatement,
  requestChanges,
  resendVerificationEmail,
  type Actor,
  type ReviewDeps,
} from '../admin/review';
import { UUID_PATTERN } from '../auth/apiSchemas';
import { getUserDetail, listOrganizations, listRegistrations, listUsers } from '../db/adminQueries';
import { recordAuditEvent } from '../audit/recordAuditEvent';
import { findOrganization, latestStatement } from '../db/statements';
import { findUserRowById } from '../db/users';
import { forbidden, notFound, unauthorized } from '../errors';
import { statementSchema } from '../statements/validateStatement';

/** The clearing id prefix of this firm's organisations (`NCF-100001`). */
const CLEARING_FIRM_ID = 'NCF';

const staffOf = new WeakMap<FastifyRequest, string>();

const uuid = { type: 'string', pattern: UUID_PATTERN } as const;
const reason = { type: 'string', maxLength: 2000 } as const;
const nullableString = { type: ['string', 'null'] } as const;
const status = {
  type: 'string',
  enum: ['pending', 'changes_requested', 'resubmitted', 'approved', 'rejected'],
} as const;
const body = (properties: Record<string, object>, required: string[]) => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});

const userSummary = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    email: { type: 'string' },
    isNorthstarClearingStaff: { type: 'boolean' },
    emailVerified: { type: 'boolean' },
    approved: { type: 'boolean' },
    firstName: nullableString,
    lastName: nullableString,
    organizationId: nullableString,
    clearingOrgId: nullableString,
    createdAt: { type: 'string' },
  },
} as const;

const registrationSummary = {
  type: 'object',
  properties: {
    registrationId: { type: 'string' },
    userId: { type: 'string' },
    email: { type: 'string' },
    firstName: nullableString,
    lastName: nullableString,
    organizationId: { type: 'string' },
    organizationName: { type: 'string' },
    clearingOrgId: { type: 'string' },
    formId: { type: 'string' },
    schemaHash: { type: 'string' },
    status: { type: 'string' },
    submittedAt: { type: 'string' },
    reviewedAt: nullableString,
    reviewedBy: nullableString,
    reason: nullableString,
  },
} as const;

const decisionResult = { type: 'object', properties: { status: { type: 'string' } } } as const;

/**
 * The staff calls under /exchange/api/admin (spec §7.4). Every call is for staff only (401 signed
 * out, 403 anyone else, checked before the input so a stranger learns nothing from validation),
 * validated by its schema, and audited: who (the staff id), what (method, route, parameters,
 * status) and when (the audit row's time). Effects write their own audit rows too.
 */
export async function registerAdminRoutes(app: FastifyInstance): Promise<void> {
  app.addHook('onRequest', async (request) => {
    const userId = await request.sessionUserId();
    if (!userId) throw unauthorized();
    const user = await findUserRowById(app.db, userId);
    if (!user) throw unauthorized();
    staffOf.set(request, userId);
    if (!user.is_staff) throw forbidden('This is for staff only.');
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const actorUserId = staffOf.get(request);
    if (actorUserId === undefined) return payload; // signed out: nobody to name
    const params = (request.params ?? {}) as Record<string, string>;
    await recordAuditEvent(app.db, {
      action: 'admin.api',
      actorUserId,
      detail: {
        method: request.method,
        route: request.routeOptions.url ?? request.url.split('?')[0]!,
        status: reply.statusCode,
        ...Object.fromEntries(Object.entries(params).map(([key, value]) => [key, String(value)])),
      },
    }).catch((error: unknown) => request.log.error({ err: error }, 'admin audit failed'));
    return payload;
  });

  const actor = (request: FastifyRequest): Actor => ({
    userId: staffOf.get(request)!,
    via: 'api',
  });
  const reviewDeps = (request: FastifyRequest): ReviewDeps => ({
    pool: app.db,
    mailer: app.mailer,
    publicUrl: app.config.publicUrl,
    onMailError: (error) => request.log.error({ err: error }, 'applicant email failed'),
    forms: app.forms,
    fieldKeys: app.fieldKeys,
  });

  app.get<{ Querystring: { search?: string; limit?: number; offset?: number } }>(
    '/users',
    {
      schema: {
        querystring: {
          type: 'object',
          properties: {
            search: { type: 'string', maxLength: 200 },
            limit: { type: 'integer', minimum: 1, maximum: 500, default: 100 },
            // Bounded: PostgreSQL's bigint refuses 1e20, and no list is a billion long.
            offset: { type: 'integer', minimum: 0, maximum: 1_000_000_000, default: 0 },
          },
          additionalProperties: false,
        },
        response: { 200: { type: 'array', items: userSummary } },
      },
    },
    async (request) =>
      listUsers(app.db, {
        search: request.query.search,
        limit: request.query.limit ?? 100,
        offset: request.query.offset ?? 0,
      }),
  );

  app.get<{ Params: { userId: string } }>(
    '/user/:userId',
    {
      schema: {
        params: body({ userId: uuid }, ['userId']),
        response: {
          200: {
            type: 'object',
            properties: {
              ...userSummary.properties,
              details: {
                type: ['object', 'null'],
                properties: {
                  firstName: { type: 'string' },
                  lastName: { type: 'string' },
                  phoneNumber: { type: 'string' },
                  approved: { type: 'boolean' },
                },
              },
              roles: { type: 'array', items: { type: 'string' } },
              twoFactorEnabled: { type: 'boolean' },
              organizationName: nullableString,
              registration: { anyOf: [{ type: 'null' }, registrationSummary] },
            },
          },
        },
      },
    },
    async (request) => {
      const user = await getUserDetail(app.db, request.params.userId);
      if (!user) throw notFound('No such user.');
      return user;
    },
  );

  app.get(
    '/organizations',
    {
      schema: {
        response: {
          200: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                id: { type: 'string' },
                name: { type: 'string' },
                clearingOrgId: { type: 'string' },
                kind: { type: 'string' },
                createdAt: { type: 'string' },
                memberCount: { type: 'integer' },
                registrationStatus: nullableString,
                participantStatus: { type: 'string' },
                latestStatementAsOf: nullableString,
              },
            },
          },
        },
      },
    },
    async () => listOrganizations(app.db),
  );

  app.get<{ Querystring: { status?: ReviewStatus } }>(
    '/onboarding/organizations',
    {
      schema: {
        querystring: {
          type: 'object',
          properties: { status },
          additionalProperties: false,
        },
        response: { 200: { type: 'array', items: registrationSummary } },
      },
    },
    async (request) => listRegistrations(app.db, { status: request.query.status }),
  );

  app.post<{ Body: KycApprovalRequest }>(
    '/onboarding/kyc-approval',
    {
      schema: {
        body: body({ registrationId: uuid, approved: { type: 'boolean' }, reason }, [
          'registrationId',
          'approved',
        ]),
        response: { 200: decisionResult },
      },
    },
    async (request): Promise<AdminDecisionResult> => {
      const { status: decided } = await decideRegistration(
        reviewDeps(request),
        request.body,
        actor(request),
      );
      return { status: decided };
    },
  );

  app.post<{ Body: KycChangesRequest }>(
    '/onboarding/kyc-changes-request',
    {
      schema: {
        body: body(
          {
            registrationId: uuid,
            note: reason,
            fields: {
              type: 'array',
              maxItems: 200,
              items: body({ path: { type: 'string', maxLength: 1000 }, note: reason }, [
                'path',
                'note',
              ]),
            },
          },
          ['registrationId'],
        ),
        response: { 200: decisionResult },
      },
    },
    async (request): Promise<AdminDecisionResult> => {
      const { status: decided } = await requestChanges(
        reviewDeps(request),
        request.body,
        actor(request),
      );
      return { status: decided };
    },
  );

  app.post<{ Body: ParticipantApprovalRequest }>(
    '/onboarding/participant-approval',
    {
      schema: {
        body: body({ organizationId: uuid, approved: { type: 'boolean' }, reason }, [
          'organizationId',
          'approved',
        ]),
        response: { 200: decisionResult },
      },
    },
    async (request): Promise<AdminDecisionResult> =>
      decideParticipant(app.db, request.body, actor(request)),
  );

  app.post<{ Body: VerificationEmailRequest }>(
    '/onboarding/verification-email',
    {
      schema: {
        body: body({ userId: uuid }, ['userId']),
        response: { 200: { type: 'object', properties: {} } },
      },
    },
    async (request) => {
      await resendVerificationEmail(
        { pool: app.db, mailer: app.mailer, publicUrl: app.config.publicUrl },
        request.body.userId,
        actor(request),
      );
      return {};
    },
  );

  app.get(
    '/clearing-firms',
    {
      schema: {
        response: {
          200: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                clearingFirmId: { type: 'string' },
                name: { type: 'string' },
                supportEmail: { type: 'string' },
                supportPhone: { type: 'string' },
                organizationCount: { type: 'integer' },
              },
            },
          },
        },
      },
    },
    async (): Promise<AdminClearingFirm[]> => {
      // The standalone portal clears for one firm: the one its configuration names.
      const count = await app.db.query<{ n: number }>(
        'select count(*)::int as n from organizations',
      );
      return [
        {
          clearingFirmId: CLEARING_FIRM_ID,
          name: firm.displayName,
          supportEmail: firm.supportEmail,
          supportPhone: firm.supportPhone,
          organizationCount: count.rows[0]!.n,
        },
      ];
    },
  );

  const organizationParams = body(
    { organizationId: { type: 'string', minLength: 1, maxLength: 64 } },
    ['organizationId'],
  );
  const adminStatement = {
    type: 'object',
    properties: {
      organizationId: { type: 'string' },
      asOf: { type: 'string' },
      loadedAt: { type: 'string' },
      loadedBy: nullableString,
      statement: statementSchema,
    },
  } as const;

  const organizationOf = async (idOrClearingId: string) => {
    const organization = await findOrganization(app.db, idOrClearingId);
    if (!organization) throw notFound('No such organization.');
    return organization;
  };

  app.get<{ Params: { organizationId: string } }>(
    '/statements/:organizationId',
    { schema: { params: organizationParams, response: { 200: adminStatement } } },
    async (request): Promise<AdminStatement> => {
      const organization = await organizationOf(request.params.organizationId);
      const stored = await latestStatement(app.db, organization.id);
      if (!stored) throw notFound('No statement is loaded for this organization.');
      return stored;
    },
  );

  app.put<{ Params: { organizationId: string }; Body: LoadStatementRequest }>(
    '/statements/:organizationId',
    {
      // A statement with a year of trades is larger than the default 1 MiB.
      bodyLimit: 20 * 1024 * 1024,
      schema: {
        params: organizationParams,
        body: {
          type: 'object',
          properties: {
            asOf: { type: 'string', pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' },
            // Checked by validateStatement, whose messages name each wrong field.
            statement: { type: 'object' },
          },
          required: ['statement'],
          additionalProperties: false,
        },
        response: { 200: adminStatement },
      },
    },
    async (request): Promise<AdminStatement> => {
      const organization = await organizationOf(request.params.organizationId);
      const stored = await loadStatement(
        app.db,
        {
          organizationId: organization.id,
          statement: request.body.statement,
          asOf: request.body.asOf,
        },
        actor(request),
      );
      // This instance serves it at once; the others on the trigger's notification.
      app.statementCache.invalidate(organization.id);
      return stored;
    },
  );
}
