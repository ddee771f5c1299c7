/**
 * A registration's history (issue 17): every version submitted (the answers as sent, sealed as
 * registrations are, the schema hash they were answered under, the documents attached with the
 * SHA-256 of their bytes) and every status it took, when and by whom. Answers come and go
 * sealed: registration/registrationVersions.ts seals and opens them.
 */
import type { RegistrationStatus } from '../../shared/api/statuses';
import type { Answers } from '../../shared/forms/model/schemaTypes';
import type { Queryable } from './transaction';
import { queueRegistrationEvent } from './webhooks';

/** Where a version's sealed answers are bound: this table, the registration and the version. */
export const versionContext = (registrationId: string, version: number) => ({
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

/** The next version number of a registration (1 for its first). */
export async function nextVersionNumber(db: Queryable, registrationId: string): Promise<number> {
  const next = await db.query<{ version: number }>(
    `select coalesce(max(version), 0)::int + 1 as version from registration_versions
      where registration_id = $1`,
    [registrationId],
  );
  return next.rows[0]!.version;
}

/**
 * Stores a version of the registration: its answers (sealed by the caller for
 * `versionContext`) and its documents as they now stand.
 */
export async function insertVersionRow(
  db: Queryable,
  entry: { registrationId: string; version: number; schemaHash: string; sealedAnswers: unknown },
): Promise<void> {
  await db.query(
    `insert into registration_versions (registration_id, version, schema_hash, answers, documents)
     values ($1, $2, $3, $4, $5)`,
    [
      entry.registrationId,
      entry.version,
      entry.schemaHash,
      JSON.stringify(entry.sealedAnswers),
      JSON.stringify(await currentDocuments(db, entry.registrationId)),
    ],
  );
}

export async function hasVersions(db: Queryable, registrationId: string): Promise<boolean> {
  const existing = await db.query(
    'select 1 from registration_versions where registration_id = $1',
    [registrationId],
  );
  return Boolean(existing.rowCount);
}

/** The registration row as first submitted (answers sealed), or null. */
export async function findFirstSubmission(
  db: Queryable,
  registrationId: string,
): Promise<{ schemaHash: string; answers: unknown; submittedAt: Date } | null> {
  const row = await db.query<{ schema_hash: string; answers: unknown; submitted_at: Date }>(
    'select schema_hash, answers, submitted_at from registrations where id = $1',
    [registrationId],
  );
  const registration = row.rows[0];
  return registration
    ? {
        schemaHash: registration.schema_hash,
        answers: registration.answers,
        submittedAt: registration.submitted_at,
      }
    : null;
}

/** Dates version 1 as the registration it was made from was submitted. */
export async function setFirstVersionSubmittedAt(
  db: Queryable,
  registrationId: string,
  submittedAt: Date,
): Promise<void> {
  await db.query(
    'update registration_versions set submitted_at = $2 where registration_id = $1 and version = 1',
    [registrationId, submittedAt],
  );
}

/** A version as stored: answers sealed, documents by part. */
export interface StoredVersion {
  version: number;
  schemaHash: string;
  submittedAt: string;
  sealedAnswers: Answers;
  /** By multipart part (`w8orw9`, `document.termsOfService`): name and SHA-256 of the bytes. */
  documents: Record<string, { name: string; sha256: string | null }>;
}

/** Every version of a registration, oldest first, answers sealed. */
export async function listVersionRows(
  db: Queryable,
  registrationId: string,
): Promise<StoredVersion[]> {
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
    sealedAnswers: row.answers,
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

/** Records a status change in the transaction that made it, and queues its webhook event. */
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
  // Every status a registration takes goes through here: its webhook event is queued in the
  // same transaction, so what is told is what was committed (issue 40 §5).
  await queueRegistrationEvent(db, change.registrationId, change.status);
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
