import type { FastifyInstance } from 'fastify';
import { matchesIfNoneMatch } from '../conditionalGet';
import { readStatementAccess } from '../db/statements';
import { forbidden, notFound, unauthorized } from '../errors';
import { statementResponseSchema } from '../../shared/api/statement';

/** Answered when an organisation has no statement yet: the home page then shows its banner. */
const NO_STATEMENT_MESSAGE = 'No statement is available yet.';

/**
 * GET customer/{organizationId}/statement (DECISIONS): the newest statement of the caller's own
 * organisation, by its id or clearing id. Staff may read any; customers only their own, and only
 * once approved (§6: the statement is shown only to approved customers). A conditional request
 * (`If-None-Match`, as a browser's reload sends) whose ETag is current answers 304, once the
 * caller is known to be allowed: the check comes first, always.
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
        response: {
          200: statementResponseSchema,
          304: { type: 'null', description: 'not modified (If-None-Match matched the ETag)' },
        },
      },
    },
    async (request, reply) => {
      // The session, the caller and the organisation in one query; the statement from memory.
      const idHash = request.sessionIdHash();
      if (!idHash) throw unauthorized();
      const read = await readStatementAccess(app.db, idHash, request.params.organizationId);
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
      const statement = await app.statementCache.current(read.organizationId);
      if (!statement) throw notFound(NO_STATEMENT_MESSAGE);
      // One person's data: no shared cache keeps it; the browser asks again on each load.
      reply.header('cache-control', 'private, no-cache').header('etag', statement.etag);
      if (matchesIfNoneMatch(request.headers['if-none-match'], statement.etag)) {
        return reply.code(304).send();
      }
      // The stored JSON as it is (validated when loaded; the type below is its shape).
      return reply.type('application/json; charset=utf-8').send(statement.body);
    },
  );
}
