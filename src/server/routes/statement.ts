import type { FastifyInstance } from 'fastify';
import { sendEncodedAnswer, whenAvailable, type EncodedAnswer } from '../conditionalGet';
import type { SessionAccess } from '../auth/liveSessions';
import { findOrganization } from '../db/statements';
import { isUuid } from '../../shared/api/http';
import { forbidden, notFound, unauthorized } from '../errors';
import { statementResponseSchema } from '../../shared/api/statement';

/** Answered when an organisation has no statement yet: the home page then shows its banner. */
const NO_STATEMENT_MESSAGE = 'No statement is available yet.';

/**
 * GET customer/{organizationId}/statement (docs/decisions.md, Paths): the newest statement of the
 * caller's own organisation, by its id or clearing id. Staff may read any; customers only their
 * own, and only once approved (§6: the statement is shown only to approved customers). A
 * conditional request (`If-None-Match`, as a browser's reload sends) whose ETag is current answers
 * 304, once the caller is known to be allowed: the check comes first, always.
 */
export async function registerStatementRoutes(app: FastifyInstance): Promise<void> {
  app.get<{ Params: { organizationId: string } }>(
    '/customer/:organizationId/statement',
    {
      // The answer goes compressed as it is kept (sendEncodedAnswer): the compress plugin's
      // hooks would only look at it and pass it on.
      compress: false,
      decompress: false,
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
    (request, reply) => {
      // The session from this instance's memory (auth/liveSessions.ts), the statement too: a
      // reload answered from both runs in one tick, with no promise.
      const idHash = request.sessionIdHash();
      const credential = request.apiCredential;
      // A partner's credential acts as its organisation's Administrator, never as staff.
      const access = credential
        ? { ...credential, isStaff: false }
        : idHash
          ? app.liveSessions.access(idHash)
          : null;
      if (!access) throw unauthorized();
      return whenAvailable(access, (caller) => {
        if (!caller) throw unauthorized();
        const asked = request.params.organizationId;
        if (caller.isStaff) {
          return findOrganization(app.db, asked).then((found) => {
            if (!found) throw notFound('No such organization.');
            return whenAvailable(app.statementCache.current(found.id), send);
          });
        }
        // Someone else's organisation, existing or not, answers the same 403.
        if (!caller.organizationId || !namesOrganization(asked, caller)) {
          throw forbidden('You can only view the statement of your own organization.');
        }
        if (!caller.approved) {
          throw forbidden('Your application is awaiting review.');
        }
        return whenAvailable(app.statementCache.current(caller.organizationId), send);
      });

      function send(statement: EncodedAnswer | null) {
        if (!statement) throw notFound(NO_STATEMENT_MESSAGE);
        // One person's data: no shared cache keeps it; the browser asks again on each load.
        reply.header('cache-control', 'private, no-cache');
        // The stored JSON as it is (validated when loaded; the type below is its shape).
        return sendEncodedAnswer(request, reply, statement);
      }
    },
  );
}

/** Whether `asked` (an organisation's id or clearing id, as the URL gives it) is the caller's own. */
function namesOrganization(asked: string, caller: SessionAccess): boolean {
  // Not a type guard here: a string that is no UUID is still a string (a clearing id).
  const byId: boolean = isUuid(asked);
  if (byId) return asked.toLowerCase() === caller.organizationId;
  return (
    caller.clearingOrgId !== null && asked.toUpperCase() === caller.clearingOrgId.toUpperCase()
  );
}
