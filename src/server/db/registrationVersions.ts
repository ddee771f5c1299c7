/**
 * A registration's history (issue 17): every version submitted (the answers as sent, sealed as
 * registrations are, the schema hash they were answered under, the documents attached with the
 * SHA-256 of their bytes) and every status it took, when and by whom.
 */
import type { CompiledForm } from '../../shared/forms/model/compiledForm';
import type { RegistrationStatus } from '../../shared/api/registration';
import type { Answers } from '../../shared/forms/model/schemaTypes';
import type { FieldKeyRing } from '../fieldEncryption/keyRing';
import {
  openRegistrationAnswers,
  sensitiveAnswerPointers,
} from '../fieldEncryption/registrationSealing';
import { openSealed, sealAt, type SealContext } from '../fieldEncryption/sealedJson';
import { recordFormVersion } from './formVersions';
import type { Queryable } from './transaction';

/** Where a version's sealed answers are bound: this table, the registration and the version. */
export const versionContext = (registrationId: string, version: number): SealContext => ({
  column: 'registration_versions.answers',
  row: `${registrationId}/${version}`,
});

interface VersionDocument {
  name: string;
  type: string;
  size: number;
  sha256: string | null;
  storageName: string;
}

interface RegistrationVersion {
  version: number;
  schemaHash: string;
  submittedAt: string;
  /** The answers as submitted, sensitive ones opened. */
  answers: Answers;
  /** By multipart part (`w8orw9`, `document.termsOfService`): name and SHA-256 of the bytes. */
  documents: Record<string, { name: string; sha256: string | null }>;
}

/** The registration's documents as they stand, with the SHA-256 PostgreSQL computes of the bytes. */
async function currentDocuments(
  db: Queryable,
  registrationId: string,
): Promise<Record<string, VersionDocument>> {
  const rows = await db.query<{
    part: string;
    storage_name: string;
    original_name: string;
    content_type: string;
    size: number;
    sha256: string | null;
  }>(
    `select d.part, d.storage_name, d.original_name, d.content_type, d.size,
            encode(sha256(stored_file_bytes(f.storage_name)), 'hex') as sha256
       from registration_documents d left join stored_files f on f.storage_name = d.storage_name
      where d.registration_id = $1 order by d.part`,
    [registrationId],
  );
  return Object.fromEntries(
    rows.rows.map((row) => [
      row.part,
      {
        name: row.original_name,
        type: row.content_type,
        size: row.size,
        sha256: row.sha256,
        storageName: row.storage_name,
      },
    ]),
  );
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
  const next = await db.query<{ version: number }>(
    `select coalesce(max(version), 0)::int + 1 as version from registration_versions
      where registration_id = $1`,
    [entry.registrationId],
  );
  const version = next.rows[0]!.version;
  // The wording it was answered under, kept so the console can show the prompts as asked.
  if (entry.schemaHash === entry.form.hash) await recordFormVersion(db, entry.form);
  const sealed = sealAt(
    ring,
    entry.answers,
    sensitiveAnswerPointers(entry.form, entry.answers),
    versionContext(entry.registrationId, version),
  );
  await db.query(
    `insert into registration_versions (registration_id, version, schema_hash, answers, documents)
     values ($1, $2, $3, $4, $5)`,
    [
      entry.registrationId,
      version,
      entry.schemaHash,
      JSON.stringify(sealed),
      JSON.stringify(await currentDocuments(db, entry.registrationId)),
    ],
  );
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
  const existing = await db.query(
    'select 1 from registration_versions where registration_id = $1',
    [registrationId],
  );
  if (existing.rowCount) return;
  const row = await db.query<{ schema_hash: string; answers: unknown; submitted_at: Date }>(
    'select schema_hash, answers, submitted_at from registrations where id = $1',
    [registrationId],
  );
  const registration = row.rows[0];
  if (!registration) return;
  const answers = openRegistrationAnswers(ring, registrationId, registration.answers);
  await insertRegistrationVersion(db, ring, {
    registrationId,
    form,
    schemaHash: registration.schema_hash,
    answers,
  });
  await db.query(
    'update registration_versions set submitted_at = $2 where registration_id = $1 and version = 1',
    [registrationId, registration.submitted_at],
  );
}

/** Every version of a registration, oldest first, answers opened (throws when a key is missing). */
export async function listRegistrationVersions(
  db: Queryable,
  registrationId: string,
  /** The field keys that open sealed answers (`app.fieldKeys`). */
  ring: FieldKeyRing,
): Promise<RegistrationVersion[]> {
  const rows = await db.query<{
    version: number;
    schema_hash: string;
    answers: Answers;
    documents: Record<string, VersionDocument>;
    submitted_at: Date;
  }>(
    `select version, schema_hash, answers, documents, submitted_at from registration_versions
      where registration_id = $1 order by version`,
    [registrationId],
  );
  return rows.rows.map((row) => ({
    version: row.version,
    schemaHash: row.schema_hash,
    submittedAt: row.submitted_at.toISOString(),
    answers: openSealed(ring, row.answers, versionContext(registrationId, row.version)),
    documents: Object.fromEntries(
      Object.entries(row.documents).map(([part, document]) => [
        part,
        { name: document.name, sha256: document.sha256 },
      ]),
    ),
  }));
}

/** Who changed a status, as the applicant's timeline says it. */
export type StatusActor = 'applicant' | 'staff' | 'operator';

interface StatusChange {
  status: RegistrationStatus;
  changedAt: string;
  /** The user who made the change; null for an operator command. */
  changedBy: string | null;
  actor: StatusActor;
}

/** Records a status change in the transaction that made it. */
export async function recordStatusChange(
  db: Queryable,
  change: {
    registrationId: string;
    status: RegistrationStatus;
    changedBy: string | null;
    actor: StatusActor;
  },
): Promise<void> {
  await db.query(
    `insert into registration_status_changes (registration_id, status, changed_by, actor)
     values ($1, $2, $3, $4)`,
    [change.registrationId, change.status, change.changedBy, change.actor],
  );
}

/** Every status a registration took, oldest first. */
export async function listStatusChanges(
  db: Queryable,
  registrationId: string,
): Promise<StatusChange[]> {
  const rows = await db.query<{
    status: RegistrationStatus;
    changed_at: Date;
    changed_by: string | null;
    actor: StatusActor;
  }>(
    `select status, changed_at, changed_by, actor from registration_status_changes
      where registration_id = $1 order by changed_at, id`,
    [registrationId],
  );
  return rows.rows.map((row) => ({
    status: row.status,
    changedAt: row.changed_at.toISOString(),
    changedBy: row.changed_by,
    actor: row.actor,
  }));
}
