import { checkLimitMax } from '../db/rateLimits';
import type { FastifyInstance } from 'fastify';
import { leiRecordSchema, type LeiRecord } from '../../shared/api/lei';
import { fieldsInOrder } from '../../shared/forms/walk/schemaWalk';
import { leiProblem } from '../../shared/rules/lei';
import { ClientError } from '../errors';
import { cachedLeiRecord, cacheLeiRecord } from '../db/leiRecords';
import { fetchLeiRecord, RegistryError } from '../lei/registry';

/** Lookups per IP and minute: a person types one LEI, maybe a few; the registry allows ~60. */
const LOOKUPS_PER_MINUTE = 20;

/**
 * The schema's message for each reason an LEI is malformed (the wording lives in schemas/): the
 * first `x-lei` rule of any form's answers (the business form's LEI).
 */
function leiMessages(forms: FastifyInstance['forms']): Record<string, string> {
  for (const form of forms.values()) {
    for (const field of fieldsInOrder(form.schema, form.uiSchema)) {
      const rule = field.schema['x-lei'];
      if (rule && typeof rule === 'object') return rule as Record<string, string>;
    }
  }
  return {};
}

/**
 * GET lei-records/{lei} (docs/decisions.md, Paths): the business wizard's LEI lookup through our
 * server. An LEI whose ISO 17442 check digits fail is refused with the schema's message and never
 * looked up; answers come from the database cache, else from the registry at `LEI_API_URL`.
 */
export async function registerLeiRoutes(app: FastifyInstance): Promise<void> {
  app.get<{ Params: { lei: string } }>(
    '/lei-records/:lei',
    {
      schema: { response: { 200: leiRecordSchema } },
      config: {
        rateLimit: {
          max: checkLimitMax(LOOKUPS_PER_MINUTE),
          timeWindow: '1 minute',
          errorResponseBuilder: () =>
            new ClientError(429, 'Too many LEI lookups. Please wait a minute and try again.'),
        },
      },
    },
    async (request): Promise<LeiRecord> => {
      await request.requireUserId();
      const lei = request.params.lei.trim().toUpperCase();
      const problem = leiProblem(lei);
      if (problem) {
        const message = leiMessages(app.forms)[problem] ?? 'Invalid LEI';
        throw new ClientError(400, message, { '/lei': message });
      }
      let record = await cachedLeiRecord(app.db, lei);
      if (record === undefined) {
        try {
          record = await fetchLeiRecord(app.config.leiApiUrl, lei);
        } catch (error) {
          if (!(error instanceof RegistryError)) throw error;
          request.log.warn(
            { lei, reason: error.reason, detail: error.detail },
            'LEI lookup failed',
          );
          throw error.reason === 'busy'
            ? new ClientError(503, 'The LEI registry is busy. Please try again in a minute.')
            : new ClientError(
                502,
                'The LEI registry could not be reached. Please try again later.',
              );
        }
        await cacheLeiRecord(app.db, lei, record);
      }
      if (!record) throw new ClientError(404, 'No legal entity is registered under this LEI.');
      return record;
    },
  );
}
