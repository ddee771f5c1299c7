/**
 * A registration's versions as the submission and the staff console use them: answers sealed
 * for their version on the way in, opened on the way out (db/registrationVersions.ts stores them).
 */
import type { CompiledForm } from '../../shared/forms/model/compiledForm';
import type { Answers } from '../../shared/forms/model/schemaTypes';
import { recordFormVersion } from '../db/formVersions';
import {
  findFirstSubmission,
  hasVersions,
  insertVersionRow,
  listVersionRows,
  nextVersionNumber,
  setFirstVersionSubmittedAt,
  versionContext,
  type StoredVersion,
} from '../db/registrationVersions';
import type { Queryable } from '../db/transaction';
import type { FieldKeyRing } from '../fieldEncryption/keyRing';
import {
  openRegistrationAnswers,
  sensitiveAnswerPointers,
} from '../fieldEncryption/registrationSealing';
import { openSealed, sealAt } from '../fieldEncryption/sealedJson';

interface RegistrationVersion extends Omit<StoredVersion, 'sealedAnswers'> {
  /** The answers as submitted, sensitive ones opened. */
  answers: Answers;
}

/**
 * Stores the registration as it now stands (its documents as attached) as its next version:
 * `answers` are the plain answers submitted. Called in the submission's transaction, after the
 * documents are stored. Returns the version number.
 */
export async function insertRegistrationVersion(
  db: Queryable,
  ring: FieldKeyRing,
  entry: { registrationId: string; form: CompiledForm; schemaHash: string; answers: Answers },
): Promise<number> {
  const version = await nextVersionNumber(db, entry.registrationId);
  // The wording it was answered under, kept so the console can show the prompts as asked.
  if (entry.schemaHash === entry.form.hash) await recordFormVersion(db, entry.form);
  const sealed = sealAt(
    ring,
    entry.answers,
    sensitiveAnswerPointers(entry.form, entry.answers),
    versionContext(entry.registrationId, version),
  );
  await insertVersionRow(db, {
    registrationId: entry.registrationId,
    version,
    schemaHash: entry.schemaHash,
    sealedAnswers: sealed,
  });
  return version;
}

/**
 * Makes sure a registration stored before versions were kept has its version 1 (the registration
 * row as first submitted), before a resubmission replaces the row.
 */
export async function ensureFirstVersion(
  db: Queryable,
  ring: FieldKeyRing,
  form: CompiledForm,
  registrationId: string,
): Promise<void> {
  if (await hasVersions(db, registrationId)) return;
  const registration = await findFirstSubmission(db, registrationId);
  if (!registration) return;
  const answers = openRegistrationAnswers(ring, registrationId, registration.answers);
  await insertRegistrationVersion(db, ring, {
    registrationId,
    form,
    schemaHash: registration.schemaHash,
    answers,
  });
  await setFirstVersionSubmittedAt(db, registrationId, registration.submittedAt);
}

/** Every version of a registration, oldest first, answers opened (throws when a key is missing). */
export async function listRegistrationVersions(
  db: Queryable,
  registrationId: string,
  /** The field keys that open sealed answers (`app.fieldKeys`). */
  ring: FieldKeyRing,
): Promise<RegistrationVersion[]> {
  return (await listVersionRows(db, registrationId)).map(({ sealedAnswers, ...version }) => ({
    ...version,
    answers: openSealed(ring, sealedAnswers, versionContext(registrationId, version.version)),
  }));
}
