import type { FastifyInstance } from 'fastify';
import { userSchema, type User } from '../../shared/api/auth';
import {
  ANSWER_PARTS,
  personFileRules,
  personFormOf,
  readPerson,
  withPhotoFieldError,
} from '../auth/personFields';
import { recordAuditEvent } from '../audit/recordAuditEvent';
import { insertUserDocument } from '../db/documents';
import { withTransaction } from '../db/transaction';
import { findUserRowById, setUserDetails, toUser, type UserRow } from '../db/users';
import { ClientError } from '../errors';
import { discardForm, readMultipartForm } from '../storage/multipartForm';

/**
 * POST registration/user (form data firstName, lastName, phoneNumber, photoId): the signed-in
 * user's own details, pending review, checked with the person form (the business wizard's user
 * step: same rules, same messages). Answers the updated user.
 */
export function registerRegistrationUserRoutes(
  app: FastifyInstance,
  currentRow: (request: { requireUserId(): Promise<string> }) => Promise<UserRow>,
): void {
  const personForm = personFormOf(app.forms);
  const files = personFileRules(personForm, ANSWER_PARTS);
  app.post(
    '/registration/user',
    { schema: { response: { 200: userSchema } } },
    async (request): Promise<User> => {
      const row = await currentRow(request);
      if (row.details?.approved) {
        throw new ClientError(
          409,
          'Your details are already approved. Please contact support to change them.',
        );
      }
      const form = await readMultipartForm(request, {
        dataDir: app.config.dataDir,
        files,
      }).catch((error: unknown) => {
        throw withPhotoFieldError(error, personForm, ANSWER_PARTS);
      });
      try {
        const { details: person, photo } = readPerson(personForm, form, ANSWER_PARTS);
        await withTransaction(app.db, async (client) => {
          await setUserDetails(client, row.id, {
            firstName: person.firstName!,
            lastName: person.lastName!,
            phoneNumber: person.phoneNumber!,
            approved: false,
          });
          await insertUserDocument(client, row.id, 'photo-id', photo!);
          await recordAuditEvent(client, { action: 'registration.user', actorUserId: row.id });
        });
      } catch (error) {
        await discardForm(app.config.dataDir, form);
        throw error;
      }
      return toUser((await findUserRowById(app.db, row.id))!);
    },
  );
}
