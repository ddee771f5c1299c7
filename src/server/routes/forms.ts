/**
 * GET forms and GET forms/{formId} (issue 40 §1): the registration forms a signed-in account may
 * answer, and one of them whole, with an ETag (304 to If-None-Match). What they say is
 * `applications/servedForms.ts`'s.
 */
import type { FastifyInstance } from 'fastify';
import type { FormList } from '../../shared/api/forms';
import { formSummary, registrationForms, servedForm } from '../applications/servedForms';
import { sendEncodedAnswer } from '../conditionalGet';

export async function registerFormRoutes(app: FastifyInstance): Promise<void> {
  app.get('/forms', async (request): Promise<FormList> => {
    await request.requireUserId();
    return { forms: registrationForms(app).map(formSummary) };
  });

  app.get<{ Params: { formId: string } }>(
    '/forms/:formId',
    // Sent as kept, compressed once (sendEncodedAnswer), as the statement is.
    { compress: false },
    async (request, reply) => {
      await request.requireUserId();
      const answer = await servedForm(app, request.params.formId);
      // The same for every account, but only to one signed in: no shared cache keeps it.
      reply.header('cache-control', 'private, no-cache');
      return sendEncodedAnswer(request, reply, answer);
    },
  );
}
