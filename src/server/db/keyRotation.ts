/**
 * The rows whose answers are sealed, as key rotation (fieldEncryption/rotateKeys.ts) walks and
 * rewrites them: values in and out stay sealed here; opening and sealing happen above.
 */
import type pg from 'pg';

const SEALED_ROWS = {
  registrations: 'select id, form_id, answers, payload from registrations',
  persons: 'select id, registration_id, position, answers from registration_persons',
  applications: 'select id, answers from applications',
  versions: 'select id, registration_id, version, answers from registration_versions',
  webhookEndpoints: 'select id, secret from webhook_endpoints',
} as const;

/**
 * The tables holding sealed values: registrations, their affiliated persons and versions,
 * applications, webhook endpoints' signing secrets.
 */
export type SealedRows = keyof typeof SEALED_ROWS;

/** Up to `limit` rows of `rows` after id `afterId`, by id, locked until the transaction ends. */
export async function lockSealedRows(
  db: pg.PoolClient,
  rows: SealedRows,
  afterId: string,
  limit: number,
): Promise<Record<string, unknown>[]> {
  const result = await db.query<Record<string, unknown>>(
    `${SEALED_ROWS[rows]} where id > $1 order by id limit $2 for update`,
    [afterId, limit],
  );
  return result.rows;
}

export async function storePersonAnswers(
  db: pg.PoolClient,
  id: unknown,
  answers: unknown,
): Promise<void> {
  await db.query('update registration_persons set answers = $2 where id = $1', [
    id,
    JSON.stringify(answers),
  ]);
}

/** An affiliated person's answers by their place in the registration (sealed for the first time). */
export async function storePersonAnswersAt(
  db: pg.PoolClient,
  registrationId: string,
  position: number,
  answers: unknown,
): Promise<void> {
  await db.query(
    `update registration_persons set answers = $3
      where registration_id = $1 and position = $2`,
    [registrationId, position, JSON.stringify(answers)],
  );
}

export async function storeApplicationAnswers(
  db: pg.PoolClient,
  id: unknown,
  answers: unknown,
): Promise<void> {
  await db.query('update applications set answers = $2 where id = $1', [
    id,
    JSON.stringify(answers),
  ]);
}

export async function storeVersionAnswers(
  db: pg.PoolClient,
  id: unknown,
  answers: unknown,
): Promise<void> {
  await db.query('update registration_versions set answers = $2 where id = $1', [
    id,
    JSON.stringify(answers),
  ]);
}

export async function storeRegistrationAnswers(
  db: pg.PoolClient,
  id: string,
  answers: unknown,
  payload: unknown,
): Promise<void> {
  await db.query('update registrations set answers = $2, payload = $3 where id = $1', [
    id,
    JSON.stringify(answers),
    JSON.stringify(payload),
  ]);
}

/** A webhook endpoint's signing secret, sealed again (webhooks/endpointSecret.ts). */
export async function storeWebhookSecret(
  db: pg.PoolClient,
  id: unknown,
  secret: unknown,
): Promise<void> {
  await db.query('update webhook_endpoints set secret = $2 where id = $1', [
    id,
    JSON.stringify(secret),
  ]);
}
