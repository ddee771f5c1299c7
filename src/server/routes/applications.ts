/**
 * The applicant's working copy of a registration form, over HTTP (issue 17): GET and PUT
 * `applications/:formId` read and save the caller's own application, POST and DELETE
 * `applications/:formId/files` put and remove the file of one question. What each does is the
 * service's (`applications/applicationService.ts`); this module maps it to requests and answers.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type {
  ApplicationConflict,
  ApplicationFileResult,
  ApplicationResponse,
  SaveApplicationRequest,
  SaveApplicationResult,
} from '../../shared/api/applications';
import {
  APPLICATION_BODY_LIMIT,
  STALE_REVISION_MESSAGE,
  applicationForm,
  readApplication,
  removeApplicationFile,
  saveApplication,
  uploadApplicationFile,
} from '../applications/applicationService';
import { readMultipartForm, registerMultipartReader } from '../storage/multipartForm';

type Params = { formId: string };

const saveBodySchema = {
  type: 'object',
  required: ['answers', 'baseRevision'],
  properties: {
    // Any answers object (the form's schema judges them): said open, so a generated client types
    // it as an object of answers, not as an empty one.
    answers: { type: 'object', additionalProperties: true },
    baseRevision: { type: 'integer', minimum: 0 },
    step: { type: ['integer', 'null'], minimum: 0, maximum: 1000 },
  },
} as const;

export async function registerApplicationRoutes(app: FastifyInstance): Promise<void> {
  await registerMultipartReader(app);
  const userOf = async (request: FastifyRequest) => request.requireUserId();

  app.get<{ Params: Params }>(
    '/applications/:formId',
    async (request): Promise<ApplicationResponse> => {
      const userId = await userOf(request);
      return readApplication(app, userId, applicationForm(app, request.params.formId));
    },
  );

  app.put<{ Params: Params; Body: SaveApplicationRequest }>(
    '/applications/:formId',
    { bodyLimit: APPLICATION_BODY_LIMIT, schema: { body: saveBodySchema } },
    async (request, reply): Promise<SaveApplicationResult | ApplicationConflict> => {
      const userId = await userOf(request);
      const form = applicationForm(app, request.params.formId);
      const outcome = await saveApplication(app, userId, form, request.body);
      if ('conflict' in outcome) {
        return reply.code(409).send({
          errorMessage: STALE_REVISION_MESSAGE,
          code: 'stale_revision',
          application: outcome.conflict,
        } satisfies ApplicationConflict);
      }
      return {
        revision: outcome.saved.revision,
        savedAt: outcome.saved.updatedAt.toISOString(),
      };
    },
  );

  app.post<{ Params: Params }>(
    '/applications/:formId/files',
    async (request): Promise<ApplicationFileResult> => {
      const userId = await userOf(request);
      const form = applicationForm(app, request.params.formId);
      return uploadApplicationFile(app, userId, form, (files) =>
        readMultipartForm(request, { dataDir: app.config.dataDir, files }),
      );
    },
  );

  app.delete<{ Params: Params; Querystring: { pointer?: string } }>(
    '/applications/:formId/files',
    async (request, reply) => {
      const userId = await userOf(request);
      const form = applicationForm(app, request.params.formId);
      const pointer = typeof request.query.pointer === 'string' ? request.query.pointer : undefined;
      await removeApplicationFile(app, userId, form, pointer);
      return reply.code(204).send();
    },
  );
}
