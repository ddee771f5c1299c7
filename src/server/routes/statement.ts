import type { FastifyInstance } from 'fastify';
import type { StatementResponse } from '../../shared/api/statement';
import { findOrganization, latestStatement } from '../db/statements';
import { findUserRowById } from '../db/users';
import { forbidden, notFound, unauthorized } from '../errors';
import { statementResponseSchema } from '../statements/validateStatement';

/** Answered when an organisation has no statement yet: the home page then shows its banner. */
export const NO_STATEMENT_MESSAGE = 'No statement is available yet.';

/**
 * GET customer/{organizationId}/statement (DECISIONS): the newest statement of the caller's own
 * organisation, by its id or clearing id. Staff may read any; customers only their own, and only
 * once approved (§6: the statement is shown only to approved customers).
 */
export async function registerStatementRoutes(app: FastifyInstance): Promise<void> {
  app.get<{ Params: { organizationId: string } }>(
    '/customer/:organizationId/statement',
    {
      schema: {
        params: {
          type: 'object',
          properties: { organizationId: { type: 'string', minLength: 1, maxLength: 64 } },
          required: ['organizationId'],
        },
        response: { 200: statementResponseSchema },
      },
    },
    async (request): Promise<StatementResponse> => {
      const userId = await request.requireUserId();
      const user = await findUserRowById(app.db, userId);
      if (!user) throw unauthorized();
      const organization = await findOrganization(app.db, request.params.organizationId);
      if (!user.is_staff) {
        // Someone else's organisation, existing or not, answers the same 403.
        if (!organization || organization.id !== user.organization_id) {
          throw forbidden('You can only view the statement of your own organization.');
        }
        if (!user.details?.approved) {
          throw forbidden('Your application is awaiting review.');
        }
      }
      if (!organization) throw notFound('No such organization.');
      const stored = await latestStatement(app.db, organization.id);
      if (!stored) throw notFound(NO_STATEMENT_MESSAGE);
      return { ...stored.statement, asOf: stored.asOf };
    },
  );
}
