import type { FastifyInstance } from 'fastify';
import { readStatementFor } from '../db/statements';
import { forbidden, notFound, unauthorized } from '../errors';
import { statementResponseSchema } from '../statements/validateStatement';

/** Answered when an organisation has no statement yet: the home page then shows its banner. */
const NO_STATEMENT_MESSAGE = 'No statement is available yet.';

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
    async (request, reply) => {
      // The session, the caller, the organisation and its statement in one query.
      const idHash = request.sessionIdHash();
      if (!idHash) throw unauthorized();
      const read = await readStatementFor(app.db, idHash, request.params.organizationId);
      await request.sessionFound(read.userId, read.sessionStale);
      if (!read.userId) throw unauthorized();
      if (!read.isStaff) {
        // Someone else's organisation, existing or not, answers the same 403.
        if (!read.organizationId || read.organizationId !== read.callerOrganizationId) {
          throw forbidden('You can only view the statement of your own organization.');
        }
        if (!read.approved) {
          throw forbidden('Your application is awaiting review.');
        }
      }
      if (!read.organizationId) throw notFound('No such organization.');
      if (!read.statementJson) throw notFound(NO_STATEMENT_MESSAGE);
      // The stored JSON as it is (validated when loaded; the type below is its shape).
      return reply.type('application/json; charset=utf-8').send(read.statementJson);
    },
  );
}
