import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  adminClearingFirmSchema,
  adminDecisionResultSchema,
  adminOrganizationSchema,
  adminRegistrationSummarySchema,
  adminStatementSchema,
  adminUserDetailSchema,
  adminUserSummarySchema,
  kycApprovalRequestSchema,
  kycChangesRequestSchema,
  loadStatementRequestSchema,
  participantApprovalRequestSchema,
  verificationEmailRequestSchema,
  type AdminClearingFirm,
  type AdminDecisionResult,
  type AdminStatement,
  type KycApprovalRequest,
  type KycChangesRequest,
  type LoadStatementRequest,
  type ParticipantApprovalRequest,
  type VerificationEmailRequest,
} from '../../shared/api/admin';
import { registrationStatusSchema, type RegistrationStatus } from '../../shared/api/statuses';
import { UUID_PATTERN, emptyObjectSchema } from '../../shared/api/http';
import { firm } from '../../shared/config/firm';
import {
  decideParticipant,
  decideRegistration,
  loadStatement,
  requestChanges,
  resendVerificationEmail,
  type Actor,
} from '../admin/review';
import {
  countOrganizations,
  getUserDetail,
  listOrganizations,
  listRegistrations,
  listUsers,
  type Keyed,
} from '../db/adminQueries';
import { decodeCursor, pageOf, type CursorShape } from '../pagination';
import { cursorQueryProperties, pageSchema } from '../../shared/api/pagination';
import { recordAuditEvent } from '../audit/recordAuditEvent';
import { findOrganization, latestStatement } from '../db/statements';
import {
  lookUpStaffRequestUser,
  requestUserOf,
  reviewDepsOf,
  staffOf,
} from '../admin/staffRequest';
import { forbidden, notFound, unauthorized } from '../errors';

/**
 * The cursors of the staff lists (pagination.ts): a user's creation time in microseconds and id;
 * a registration's place in the queue, its group, signed time and id (db/adminQueries.ts).
 */
const USERS_CURSOR: CursorShape = { list: 'admin-users', parts: ['int', 'uuid'] };
const REGISTRATIONS_CURSOR: CursorShape = {
  list: 'admin-registrations',
  parts: ['int', 'int', 'uuid'],
};
const keyOf = <Item>(row: Keyed<Item>) => row.key;
const itemOf = <Item>(row: Keyed<Item>) => row.item;

/** The clearing id prefix of this firm's organisations (`NCF-100001`). */
const CLEARING_FIRM_ID = 'NCF';

const uuid = { type: 'string', pattern: UUID_PATTERN } as const;
const body = (properties: Record<string, object>, required: string[]) => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});

/**
 * The staff calls under /exchange/api/admin (spec §7.4). Every call is for staff only (401 signed
 * out, 403 anyone else, checked before the input so a stranger learns nothing from validation),
 * validated by its schema, and audited: who (the staff id), what (method, route, parameters,
 * status) and when (the audit row's time). Effects write their own audit rows too.
 */
export async function registerAdminRoutes(app: FastifyInstance): Promise<void> {
  app.addHook('onRequest', async (request) => {
    const user = await lookUpStaffRequestUser(app, request);
    if (!user) throw unauthorized();
    if (!user.isStaff) throw forbidden('This is for staff only.');
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const actorUserId = requestUserOf(request)?.id;
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
    userId: staffOf(request)!.id,
    via: 'api',
  });

  app.get<{ Querystring: { search?: string; cursor?: string; limit?: number } }>(
    '/users',
    {
      schema: {
        querystring: {
          type: 'object',
          properties: {
            search: { type: 'string', maxLength: 200 },
            ...cursorQueryProperties(100),
          },
          additionalProperties: false,
        },
        response: { 200: pageSchema(adminUserSummarySchema, 'Users, newest first: one page') },
      },
    },
    async (request) => {
      const limit = request.query.limit ?? 100;
      const rows = await listUsers(app.db, {
        search: request.query.search,
        limit: limit + 1,
        after: decodeCursor(USERS_CURSOR, request.query.cursor),
      });
      return pageOf(rows, limit, USERS_CURSOR, keyOf, itemOf);
    },
  );

  app.get<{ Params: { userId: string } }>(
    '/user/:userId',
    {
      schema: {
        params: body({ userId: uuid }, ['userId']),
        response: { 200: adminUserDetailSchema },
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
        response: { 200: { type: 'array', items: adminOrganizationSchema } },
      },
    },
    async () => listOrganizations(app.db),
  );

  app.get<{ Querystring: { status?: RegistrationStatus; cursor?: string; limit?: number } }>(
    '/onboarding/organizations',
    {
      schema: {
        querystring: {
          type: 'object',
          properties: { status: registrationStatusSchema, ...cursorQueryProperties(100) },
          additionalProperties: false,
        },
        response: {
          200: pageSchema(
            adminRegistrationSummarySchema,
            'Registrations, those awaiting a decision first (oldest first), then the decided ' +
              '(newest first): one page',
          ),
        },
      },
    },
    async (request) => {
      const limit = request.query.limit ?? 100;
      const rows = await listRegistrations(app.db, {
        status: request.query.status,
        limit: limit + 1,
        after: decodeCursor(REGISTRATIONS_CURSOR, request.query.cursor),
      });
      return pageOf(rows, limit, REGISTRATIONS_CURSOR, keyOf, itemOf);
    },
  );

  app.post<{ Body: KycApprovalRequest }>(
    '/onboarding/kyc-approval',
    {
      schema: {
        body: kycApprovalRequestSchema,
        response: { 200: adminDecisionResultSchema },
      },
    },
    async (request): Promise<AdminDecisionResult> => {
      const { status: decided } = await decideRegistration(
        reviewDepsOf(app, request),
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
        body: kycChangesRequestSchema,
        response: { 200: adminDecisionResultSchema },
      },
    },
    async (request): Promise<AdminDecisionResult> => {
      const { status: decided } = await requestChanges(
        reviewDepsOf(app, request),
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
        body: participantApprovalRequestSchema,
        response: { 200: adminDecisionResultSchema },
      },
    },
    async (request): Promise<AdminDecisionResult> =>
      decideParticipant(app.db, request.body, actor(request)),
  );

  app.post<{ Body: VerificationEmailRequest }>(
    '/onboarding/verification-email',
    {
      schema: {
        body: verificationEmailRequestSchema,
        response: { 200: emptyObjectSchema },
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
        response: { 200: { type: 'array', items: adminClearingFirmSchema } },
      },
    },
    async (): Promise<AdminClearingFirm[]> => {
      // The standalone portal clears for one firm: the one its configuration names.
      const organizationCount = await countOrganizations(app.db);
      return [
        {
          clearingFirmId: CLEARING_FIRM_ID,
          name: firm.displayName,
          supportEmail: firm.supportEmail,
          supportPhone: firm.supportPhone,
          organizationCount,
        },
      ];
    },
  );

  const organizationParams = body(
    { organizationId: { type: 'string', minLength: 1, maxLength: 64 } },
    ['organizationId'],
  );
  const organizationOf = async (idOrClearingId: string) => {
    const organization = await findOrganization(app.db, idOrClearingId);
    if (!organization) throw notFound('No such organization.');
    return organization;
  };

  app.get<{ Params: { organizationId: string } }>(
    '/statements/:organizationId',
    { schema: { params: organizationParams, response: { 200: adminStatementSchema } } },
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
        body: loadStatementRequestSchema,
        response: { 200: adminStatementSchema },
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
