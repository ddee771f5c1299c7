import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../src/server/db/migrate';
import { databaseBefore, type DatabaseBefore } from './databaseBefore';

/**
 * One status vocabulary (issue 40 §2, docs/api.md): a registration stored as `pending` before
 * migration 180 answers `submitted` after it, in its row, its history and a queued webhook event.
 */
describe('migration 180: a registration awaiting review is `submitted`', () => {
  let pool: pg.Pool;
  let before: DatabaseBefore;

  beforeAll(async () => {
    before = await databaseBefore('180');
    pool = before.pool;
  });
  afterAll(async () => before.drop());

  it('rewrites the stored word, keeps the others, and refuses `pending` afterwards', async () => {
    const organization = await pool.query<{ id: string }>(
      `insert into organizations (name, clearing_org_id, kind, participant_status)
       values ('Acme Hedging', 'NCF-900001', 'business', 'pending') returning id`,
    );
    const organizationId = organization.rows[0]!.id;
    const registrationIds: string[] = [];
    for (const [n, status] of [
      [1, 'pending'],
      [2, 'approved'],
    ] as const) {
      const user = await pool.query<{ id: string }>(
        `insert into users (email, organization_id) values ($1, $2) returning id`,
        [`applicant${n}@example.com`, organizationId],
      );
      const registration = await pool.query<{ id: string }>(
        `insert into registrations (user_id, organization_id, form_id, schema_hash, answers, payload,
                                    submission_hash, status)
         values ($1, $2, 'individual', 'h', '{}', '{}', $3, $4) returning id`,
        [user.rows[0]!.id, organizationId, `s${n}`, status],
      );
      registrationIds.push(registration.rows[0]!.id);
      await pool.query(
        `insert into registration_status_changes (registration_id, status, actor)
         values ($1, 'pending', 'applicant')`,
        [registration.rows[0]!.id],
      );
    }
    await pool.query(
      `insert into webhook_events (type, organization_id, ordering_key, data)
       values ('registration.submitted', $1, 'registration:x', jsonb_build_object('status', 'pending')),
              ('registration.submitted', $1, 'registration:y', jsonb_build_object('status', 'resubmitted'))`,
      [organizationId],
    );

    expect(await migrate(pool)).toEqual(['180-registration-status-submitted.sql']);

    const statuses = await pool.query<{ id: string; status: string }>(
      'select id, status from registrations',
    );
    expect(Object.fromEntries(statuses.rows.map((row) => [row.id, row.status]))).toEqual({
      [registrationIds[0]!]: 'submitted',
      [registrationIds[1]!]: 'approved',
    });
    const history = await pool.query<{ status: string }>(
      'select distinct status from registration_status_changes',
    );
    expect(history.rows).toEqual([{ status: 'submitted' }]);
    const events = await pool.query<{ status: string }>(
      `select data ->> 'status' as status from webhook_events order by ordering_key`,
    );
    expect(events.rows).toEqual([{ status: 'submitted' }, { status: 'resubmitted' }]);
    const participant = await pool.query<{ participant_status: string }>(
      'select participant_status from organizations',
    );
    expect(participant.rows).toEqual([{ participant_status: 'pending' }]);
    await expect(
      pool.query(`update registrations set status = 'pending' where id = $1`, [registrationIds[0]]),
    ).rejects.toThrow(/registrations_status_check/);
  });
});
