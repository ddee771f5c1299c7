import type { FastifyInstance } from 'fastify';
import type { User } from '../../shared/api/auth';
import { userSchema } from '../auth/apiSchemas';
import { readPersonFields } from '../auth/personFields';
import { recordAuditEvent } from '../audit/recordAuditEvent';
import { insertUserDocument } from '../db/documents';
import { withTransaction } from '../db/transaction';
import { findUserRowById, setUserDetails, toUser, type UserRow } from '../db/users';
import { badRequest, ClientError } from '../errors';
import { discardForm, readMultipartForm } from '../storage/multipartForm';

/**
 * POST registration/user (form data firstName, lastName, phoneNumber, photoId): the signed-in
 * user's own details, pending review. Answers the updated user.
 */
export function registerRegistrationUserRoutes(
  app: FastifyInstance,
  currentRow: (request: { requireUserId(): Promise<string> }) => Promise<UserRow>,
): void {
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
        files: { photoId: { accept: 'image', label: 'photo ID' } },
      });
      try {
        const person = readPersonFields(
          form,
          { firstName: 'firstName', lastName: 'lastName', phoneNumber: 'phoneNumber' },
          { required: true },
        );
        const photo = form.files.get('photoId');
        if (!photo) throw badRequest('Please attach a photo ID.', { photoId: 'Required' });
        await withTransaction(app.db, async (client) => {
          await setUserDetails(client, row.id, {
            firstName: person.firstName!,
            lastName: person.lastName!,
            phoneNumber: person.phoneNumber!,
            approved: false,
          });
          await insertUserDocument(client, row.id, 'photo-id', photo);
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
