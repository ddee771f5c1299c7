/**
 * An organisation's API credentials, managed by its Administrators on the Profile page (issue 40
 * §4): list, create (the password again, and a second factor when the account has one, as every
 * sensitive change asks: auth/secondFactor.ts confirmIdentity), revoke. Each is audited. The
 * secret is in the creation's answer only; the database keeps its hash.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  apiCredentialListSchema,
  apiCredentialSchema,
  createApiCredentialBody,
  createdApiCredentialSchema,
  type ApiCredential,
  type ApiCredentialList,
  type CreateApiCredentialBody,
  type CreatedApiCredential,
} from '../../shared/api/apiCredentials';
import { apiErrorBodySchema, UUID_PATTERN } from '../../shared/api/http';
import { recordAuditEvent } from '../audit/recordAuditEvent';
import { newApiSecret } from '../auth/apiCredentials';
import { administeredOrganization } from '../auth/organizationAdmin';
import { perMinute, RATE_LIMITS } from '../auth/routeHelpers';
import { confirmIdentity } from '../auth/secondFactor';
import { insertApiCredential, listApiCredentials, revokeApiCredential } from '../db/apiCredentials';
import { hashToken } from '../db/opaqueTokens';
import { withTransaction } from '../db/transaction';
import { findUserRowById, type UserRow } from '../db/users';
import { notFound, unauthorized } from '../errors';

const refused = (description: string) => ({ ...apiErrorBodySchema, description });
const security = [{ sessionCookie: [] }];
const tags = ['user'];

export async function registerApiCredentialRoutes(app: FastifyInstance): Promise<void> {
  const currentRow = async (request: FastifyRequest): Promise<UserRow> => {
    const row = await findUserRowById(app.db, await request.requireUserId());
    if (!row) throw unauthorized();
    return row;
  };

  app.get(
    '/user/api-credentials',
    {
      schema: {
        operationId: 'listApiCredentials',
        summary: "The organisation's API credentials (Administrators)",
        description:
          'Every credential of the caller’s organisation, newest first, revoked ones included, ' +
          'with its scopes and last use. Never the secret.',
        tags,
        security,
        response: {
          200: apiCredentialListSchema,
          401: refused('Signed out'),
          403: refused('Not an Administrator of an organisation'),
        },
      },
    },
    async (request): Promise<ApiCredentialList> => {
      const organizationId = await administeredOrganization(app.db, await currentRow(request));
      return { credentials: await listApiCredentials(app.db, organizationId) };
    },
  );

  app.post<{ Body: CreateApiCredentialBody }>(
    '/user/api-credentials',
    {
      config: perMinute(RATE_LIMITS.reauth),
      schema: {
        operationId: 'createApiCredential',
        summary: 'Makes an API credential for the organisation (Administrators)',
        description:
          'The password again, and a current second factor when the account has one (a code, a ' +
          'recovery code or a passkey’s answer), as every sensitive change asks. The answer ' +
          'carries the secret, this once: send it as `Authorization: Bearer <secret>`.',
        tags,
        security,
        body: createApiCredentialBody,
        response: {
          201: createdApiCredentialSchema,
          400: refused('A wrong password or second factor, or a body the schema refuses'),
          401: refused('Signed out'),
          403: refused(
            'Not an Administrator of an organisation, or a second factor is needed ' +
              '(`errors.secondFactor` names the kinds)',
          ),
          429: refused('Too many attempts; Retry-After says when to try again'),
        },
      },
    },
    async (request, reply): Promise<CreatedApiCredential> => {
      const row = await currentRow(request);
      const organizationId = await administeredOrganization(app.db, row);
      await confirmIdentity(app, row, request.body, request);
      const { secret, secretStart } = newApiSecret();
      const credential = await withTransaction(app.db, async (client) => {
        const stored = await insertApiCredential(client, {
          organizationId,
          createdBy: row.id,
          name: request.body.name.trim(),
          scopes: request.body.scopes,
          secretHash: hashToken(secret),
          secretStart,
        });
        await recordAuditEvent(client, {
          action: 'api-credential.created',
          actorUserId: row.id,
          detail: { credentialId: stored.id, organizationId, scopes: stored.scopes },
        });
        return stored;
      });
      // Never kept by a cache: the secret is in it.
      void reply.code(201).header('cache-control', 'no-store');
      return { credential, secret };
    },
  );

  app.delete<{ Params: { id: string } }>(
    '/user/api-credentials/:id',
    {
      schema: {
        operationId: 'revokeApiCredential',
        summary: 'Revokes an API credential (Administrators)',
        description:
          'At once on every instance: the next call with it answers 401. Revoking it again ' +
          'changes nothing.',
        tags,
        security,
        params: {
          type: 'object',
          properties: { id: { type: 'string', pattern: UUID_PATTERN } },
          required: ['id'],
        },
        response: {
          200: apiCredentialSchema,
          401: refused('Signed out'),
          403: refused('Not an Administrator of an organisation'),
          404: refused('The organisation has no such credential'),
        },
      },
    },
    async (request): Promise<ApiCredential> => {
      const row = await currentRow(request);
      const organizationId = await administeredOrganization(app.db, row);
      return withTransaction(app.db, async (client) => {
        const revoked = await revokeApiCredential(
          client,
          organizationId,
          request.params.id,
          row.id,
        );
        if (!revoked) throw notFound('Your organisation has no such API credential.');
        await recordAuditEvent(client, {
          action: 'api-credential.revoked',
          actorUserId: row.id,
          detail: { credentialId: revoked.id, organizationId },
        });
        return revoked;
      });
    },
  );
}
