/**
 * `npm run admin -- rotate-key`: every sealed value of every stored registration (and of every
 * application, the applicants' working copies, and every webhook endpoint's signing secret) sealed
 * again
 * under the current key (the first of FIELD_ENCRYPTION_KEYS), and sensitive answers stored
 * before encryption sealed for the first time. Rows go in batches, each batch one transaction
 * with its rows locked: a stopped run keeps what it committed, and running it again carries on
 * (values already under the current key are left as they are).
 */
import type pg from 'pg';
import type { CompiledForm } from '../../shared/forms/model/compiledForm';
import type { FormCatalog } from '../../shared/forms/model/compileNode';
import { fromPointer } from '../../shared/forms/model/pointer';
import type { Answers } from '../../shared/forms/model/schemaTypes';
import {
  lockSealedRows,
  storeApplicationAnswers,
  storePersonAnswers,
  storePersonAnswersAt,
  storeRegistrationAnswers,
  storeVersionAnswers,
  storeWebhookSecret,
  type SealedRows,
} from '../db/keyRotation';
import { versionContext } from '../db/registrationVersions';
import { withTransaction } from '../db/transaction';
import { secretContext } from '../webhooks/endpointSecret';
import { applicationContext } from './applicationSealing';
import type { FieldKeyRing } from './keyRing';
import {
  registrationContext,
  sealRegistration,
  sensitiveAnswerPointers,
} from './registrationSealing';
import { isSealed, openSealed, resealed, UnreadableFieldError } from './sealedJson';

interface RotationCounts {
  /** Rows read (registrations, affiliated persons, applications, submitted versions). */
  rows: number;
  /** Values sealed again under the current key. */
  resealed: number;
  /** Values already under the current key. */
  current: number;
  /** Sensitive answers stored before encryption, now sealed. */
  sealedFirstTime: number;
  /** Rows left as they were: a value under a key not given, or altered (`registration <id>`). */
  unreadable: string[];
}

const BATCH = 100;

/** Values still stored in the clear in `answers` (a registration stored before encryption). */
function plainSensitive(form: CompiledForm | undefined, answers: Answers): number {
  if (!form) return 0;
  const pointers = sensitiveAnswerPointers(form, answers);
  let plain = 0;
  for (const pointer of pointers) {
    let node: unknown = answers;
    for (const key of fromPointer(pointer)) node = (node as Record<string, unknown>)?.[key];
    if (!isSealed(node)) plain++;
  }
  return plain;
}

export async function rotateFieldKeys(
  pool: pg.Pool,
  ring: FieldKeyRing,
  /** The forms whose `x-sensitive` answers are sealed (the portal's: `app.forms`). */
  forms: FormCatalog,
  progress: (line: string) => void = () => {},
): Promise<RotationCounts> {
  const counts: RotationCounts = {
    rows: 0,
    resealed: 0,
    current: 0,
    sealedFirstTime: 0,
    unreadable: [],
  };
  await inBatches(pool, 'registrations', async (db, row) => {
    await rotateRegistration(db, ring, forms, row as unknown as RegistrationRow, counts).catch(
      (error: unknown) => {
        if (!(error instanceof UnreadableFieldError)) throw error;
        counts.unreadable.push(`registration ${String(row.id)}`);
      },
    );
  });
  progress(`registrations done: ${counts.resealed} values encrypted again so far`);
  await inBatches(pool, 'persons', async (db, row) => {
    counts.rows++;
    const context = registrationContext.person(String(row.registration_id), Number(row.position));
    try {
      const person = resealed(ring, row.answers, context);
      counts.resealed += person.resealed;
      counts.current += person.current;
      if (person.resealed > 0) {
        await storePersonAnswers(db, row.id, person.value);
      }
    } catch (error) {
      if (!(error instanceof UnreadableFieldError)) throw error;
      counts.unreadable.push(
        `affiliated person ${Number(row.position) + 1} of registration ${String(row.registration_id)}`,
      );
    }
  });
  progress(`affiliated persons done: ${counts.resealed} values encrypted again so far`);
  // Applications (the applicants' working copies) are sealed from their first save.
  await inBatches(pool, 'applications', async (db, row) => {
    counts.rows++;
    try {
      const answers = resealed(ring, row.answers, applicationContext(String(row.id)));
      counts.resealed += answers.resealed;
      counts.current += answers.current;
      if (answers.resealed > 0) {
        await storeApplicationAnswers(db, row.id, answers.value);
      }
    } catch (error) {
      if (!(error instanceof UnreadableFieldError)) throw error;
      counts.unreadable.push(`application ${String(row.id)}`);
    }
  });
  await inBatches(pool, 'versions', async (db, row) => {
    counts.rows++;
    const context = versionContext(String(row.registration_id), Number(row.version));
    try {
      const version = resealed(ring, row.answers, context);
      counts.resealed += version.resealed;
      counts.current += version.current;
      if (version.resealed > 0) {
        await storeVersionAnswers(db, row.id, version.value);
      }
    } catch (error) {
      if (!(error instanceof UnreadableFieldError)) throw error;
      counts.unreadable.push(
        `version ${String(row.version)} of registration ${String(row.registration_id)}`,
      );
    }
  });
  // Webhook endpoints' signing secrets (issue 40 §5), which the delivery worker opens to sign.
  await inBatches(pool, 'webhookEndpoints', async (db, row) => {
    counts.rows++;
    try {
      const secret = resealed(ring, row.secret, secretContext(String(row.id)));
      counts.resealed += secret.resealed;
      counts.current += secret.current;
      if (secret.resealed > 0) await storeWebhookSecret(db, row.id, secret.value);
    } catch (error) {
      if (!(error instanceof UnreadableFieldError)) throw error;
      counts.unreadable.push(`webhook endpoint ${String(row.id)}`);
    }
  });
  return counts;
}

/** The rows of a table by id, a batch per transaction with its rows locked. */
async function inBatches(
  pool: pg.Pool,
  table: SealedRows,
  each: (db: pg.PoolClient, row: Record<string, unknown>) => Promise<void>,
): Promise<void> {
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const last = await withTransaction(pool, async (db) => {
      const rows = await lockSealedRows(db, table, after, BATCH);
      for (const row of rows) await each(db, row);
      return rows.at(-1)?.id as string | undefined;
    });
    if (!last) return;
    after = last;
  }
}

interface RegistrationRow {
  id: string;
  form_id: string;
  answers: Answers;
  payload: Record<string, unknown>;
}

/** One registration's answers and payload under the current key (and its persons, if legacy). */
async function rotateRegistration(
  db: pg.PoolClient,
  ring: FieldKeyRing,
  forms: FormCatalog,
  row: RegistrationRow,
  counts: RotationCounts,
): Promise<void> {
  counts.rows++;
  const answers = resealed(ring, row.answers, registrationContext.answers(row.id));
  const payload = resealed(ring, row.payload, registrationContext.payload(row.id));
  let storedAnswers: unknown = answers.value;
  let storedPayload: unknown = payload.value;
  const form = forms.get(row.form_id);
  const plain = plainSensitive(form, row.answers);
  if (plain > 0 && form) {
    // Stored before encryption: sealed as a new submission is, persons included.
    const sealed = sealRegistration(ring, {
      registrationId: row.id,
      form,
      answers: openSealed(ring, row.answers, registrationContext.answers(row.id)),
      payload: openSealed(ring, row.payload, registrationContext.payload(row.id)),
      personsKey: form.registration?.persons,
    });
    storedAnswers = sealed.answers;
    storedPayload = sealed.payload;
    for (const [position, person] of sealed.persons.entries()) {
      await storePersonAnswersAt(db, row.id, position, person);
    }
  }
  if (answers.resealed + payload.resealed > 0 || plain > 0) {
    await storeRegistrationAnswers(db, row.id, storedAnswers, storedPayload);
  }
  counts.resealed += answers.resealed + payload.resealed;
  counts.current += answers.current + payload.current;
  counts.sealedFirstTime += plain;
}
