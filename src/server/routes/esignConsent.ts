import type { FastifyInstance } from 'fastify';
import {
  esignConsentRequestSchema,
  esignConsentStateSchema,
  type EsignConsentRequest,
  type EsignConsentState,
} from '../../shared/api/esignConsent';
import { recordAuditEvent } from '../audit/recordAuditEvent';
import { withTransaction } from '../db/transaction';
import { ClientError } from '../errors';
import {
  currentEsignConsentVersion,
  esignConsentWording,
  insertEsignConsent,
} from '../signatures/esignConsents';
import { findEsignConsent, type EsignConsent } from '../db/esignConsents';

const stateSchema = esignConsentStateSchema;

const given = (consent: EsignConsent | null) =>
  consent ? { id: consent.id, givenAt: consent.givenAt.toISOString() } : null;

/**
 * GET esign-consent: the version in force and whether the signed-in user has consented to it (the
 * page asks before the first signature only when not). POST esign-consent: the user confirms the
 * version the dialog showed; stored with time, IP and user agent, audited. A version that is no
 * longer the published one is refused (409): the page shows the consent again.
 */
export async function registerEsignConsentRoutes(app: FastifyInstance): Promise<void> {
  app.get('/esign-consent', { schema: { response: { 200: stateSchema } } }, async (request) => {
    const userId = await request.requireUserId();
    const version = currentEsignConsentVersion();
    const consent = await findEsignConsent(app.db, userId, version.sha256);
    return {
      version: version.sha256,
      document: version.documentUrl,
      consent: given(consent),
    } satisfies EsignConsentState;
  });

  app.post<{ Body: EsignConsentRequest }>(
    '/esign-consent',
    {
      schema: {
        body: esignConsentRequestSchema,
        response: { 200: stateSchema, 201: stateSchema },
      },
    },
    async (request, reply) => {
      const userId = await request.requireUserId();
      const version = currentEsignConsentVersion();
      if (request.body.version !== version.sha256) {
        throw new ClientError(409, esignConsentWording().changedMessage);
      }
      const { consent, created } = await withTransaction(app.db, async (db) => {
        const outcome = await insertEsignConsent(db, {
          userId,
          version,
          ip: request.ip,
          userAgent: request.headers['user-agent'],
        });
        if (outcome.created) {
          await recordAuditEvent(db, {
            action: 'esign.consented',
            actorUserId: userId,
            detail: { consentId: outcome.consent.id, version: version.sha256 },
          });
        }
        return outcome;
      });
      return reply.code(created ? 201 : 200).send({
        version: version.sha256,
        document: version.documentUrl,
        consent: given(consent),
      } satisfies EsignConsentState);
    },
  );
}
