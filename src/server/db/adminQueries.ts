/** Read-only queries behind the staff calls and the staff console. */
import type {
  AdminOrganization,
  AdminRegistrationSummary,
  AdminUserDetail,
  AdminUserSummary,
} from '../../shared/api/admin';
import type { ParticipantStatus, RegistrationStatus } from '../../shared/api/statuses';
import type { Role, UserDetails } from '../../shared/api/auth';
import type { Queryable } from './transaction';

interface UserListRow {
  id: string;
  email: string;
  is_staff: boolean;
  email_verified_at: Date | null;
  details: UserDetails | null;
  organization_id: string | null;
  clearing_org_id: string | null;
  created_at: Date;
}

const toSummary = (row: UserListRow): AdminUserSummary => ({
  id: row.id,
  email: row.email,
  isNorthstarClearingStaff: row.is_staff,
  emailVerified: row.email_verified_at !== null,
  approved: row.details?.approved === true,
  firstName: row.details?.firstName ?? null,
  lastName: row.details?.lastName ?? null,
  organizationId: row.organization_id,
  clearingOrgId: row.clearing_org_id,
  createdAt: row.created_at.toISOString(),
});

/** A list item with the sort key a cursor names it by (routes/admin.ts pages them). */
export interface Keyed<Item> {
  item: Item;
  key: string[];
}

/** A timestamp in microseconds since 1970 as exact text, the cursor's part for a time. */
const MICROS = (column: string) => `((extract(epoch from ${column}) * 1000000)::bigint)`;

/**
 * Users, newest first (then by id); `search` matches email, names or clearing id. `after` is the
 * key of the last user of the previous page (created_at in microseconds, id).
 */
export async function listUsers(
  db: Queryable,
  options: { search?: string | undefined; limit: number; after: readonly string[] | null },
): Promise<Keyed<AdminUserSummary>[]> {
  const result = await db.query<UserListRow & { created_micros: string }>(
    `select u.id, u.email, u.is_staff, u.email_verified_at, u.details, u.organization_id,
            o.clearing_org_id, u.created_at, ${MICROS('u.created_at')}::text as created_micros
       from users u left join organizations o on o.id = u.organization_id
      where ($1::text is null
         or u.email ilike '%' || $1 || '%'
         or coalesce(u.details->>'firstName', '') || ' ' || coalesce(u.details->>'lastName', '')
            ilike '%' || $1 || '%'
         or o.clearing_org_id ilike '%' || $1 || '%')
        and ($3::bigint is null or (${MICROS('u.created_at')}, u.id) < ($3::bigint, $4::uuid))
      order by u.created_at desc, u.id desc
      limit $2`,
    [
      options.search?.trim() || null,
      options.limit,
      options.after?.[0] ?? null,
      options.after?.[1] ?? null,
    ],
  );
  return result.rows.map((row) => ({ item: toSummary(row), key: [row.created_micros, row.id] }));
}

export async function getUserDetail(
  db: Queryable,
  userId: string,
): Promise<AdminUserDetail | null> {
  const result = await db.query<
    UserListRow & { roles: Role[]; totp_enabled: boolean; org_name: string | null }
  >(
    `select u.id, u.email, u.is_staff, u.email_verified_at, u.details, u.organization_id,
            o.clearing_org_id, u.created_at, u.roles, u.totp_enabled, o.name as org_name
       from users u left join organizations o on o.id = u.organization_id
      where u.id = $1`,
    [userId],
  );
  const row = result.rows[0];
  if (!row) return null;
  const registrations = (await listRegistrations(db, { userId })).map((entry) => entry.item);
  return {
    ...toSummary(row),
    details: row.details,
    roles: row.roles,
    twoFactorEnabled: row.totp_enabled,
    organizationName: row.org_name,
    registration: registrations[0] ?? null,
  };
}

export async function listOrganizations(db: Queryable): Promise<AdminOrganization[]> {
  const result = await db.query<{
    id: string;
    name: string;
    clearing_org_id: string;
    kind: 'individual' | 'business';
    created_at: Date;
    member_count: number;
    registration_status: RegistrationStatus | null;
    participant_status: ParticipantStatus;
    latest_as_of: string | null;
  }>(
    `select o.id, o.name, o.clearing_org_id, o.kind, o.created_at, o.participant_status,
            (select count(*)::int from users u where u.organization_id = o.id) as member_count,
            (select r.status from registrations r where r.organization_id = o.id
              order by r.submitted_at desc limit 1) as registration_status,
            (select to_char(max(s.as_of), 'YYYY-MM-DD') from statements s
              where s.organization_id = o.id) as latest_as_of
       from organizations o
      order by o.created_at desc, o.clearing_org_id`,
  );
  return result.rows.map((row) => ({
    id: row.id,
    name: row.name,
    clearingOrgId: row.clearing_org_id,
    kind: row.kind,
    createdAt: row.created_at.toISOString(),
    memberCount: row.member_count,
    registrationStatus: row.registration_status,
    participantStatus: row.participant_status,
    latestStatementAsOf: row.latest_as_of,
  }));
}

interface RegistrationRow {
  id: string;
  user_id: string;
  email: string;
  details: UserDetails | null;
  organization_id: string;
  org_name: string;
  clearing_org_id: string;
  form_id: string;
  schema_hash: string;
  status: RegistrationStatus;
  submitted_at: Date;
  reviewed_at: Date | null;
  reviewer_email: string | null;
  decision_reason: string | null;
}

const SELECT_REGISTRATION = `
  select r.id, r.user_id, u.email, u.details, r.organization_id, o.name as org_name,
         o.clearing_org_id, r.form_id, r.schema_hash, r.status, r.submitted_at, r.reviewed_at,
         reviewer.email as reviewer_email, r.decision_reason
    from registrations r
    join users u on u.id = r.user_id
    join organizations o on o.id = r.organization_id
    left join users reviewer on reviewer.id = r.reviewed_by`;

const toRegistration = (row: RegistrationRow): AdminRegistrationSummary => ({
  registrationId: row.id,
  userId: row.user_id,
  email: row.email,
  firstName: row.details?.firstName ?? null,
  lastName: row.details?.lastName ?? null,
  organizationId: row.organization_id,
  organizationName: row.org_name,
  clearingOrgId: row.clearing_org_id,
  formId: row.form_id,
  schemaHash: row.schema_hash,
  status: row.status,
  submittedAt: row.submitted_at.toISOString(),
  reviewedAt: row.reviewed_at?.toISOString() ?? null,
  reviewedBy: row.reviewer_email,
  reason: row.decision_reason,
});

/**
 * The order of the registrations list as one ascending key: those awaiting a decision first
 * (group 0, oldest submission first, as a queue), then the decided (group 1, newest first: the
 * time negated), then the id.
 */
const QUEUE_GROUP = `(case when r.status in ('submitted', 'resubmitted') then 0 else 1 end)`;
const QUEUE_TIME = `(case when r.status in ('submitted', 'resubmitted')
    then ${MICROS('r.submitted_at')} else -${MICROS('coalesce(r.reviewed_at, r.submitted_at)')} end)`;

/**
 * Registrations: those awaiting review first (oldest first, as a queue), then decisions, newest first. `after`
 * is the key of the last one of the previous page (its group, its time, its id).
 */
export async function listRegistrations(
  db: Queryable,
  filter: {
    status?: RegistrationStatus | undefined;
    /** Any of these statuses (the console's sections: awaiting review, waiting, decided). */
    statuses?: readonly RegistrationStatus[];
    userId?: string;
    limit?: number;
    after?: readonly string[] | null;
  } = {},
): Promise<Keyed<AdminRegistrationSummary>[]> {
  const result = await db.query<RegistrationRow & { queue_group: string; queue_time: string }>(
    `${SELECT_REGISTRATION.replace(
      'r.decision_reason',
      `r.decision_reason, ${QUEUE_GROUP}::text as queue_group, ${QUEUE_TIME}::text as queue_time`,
    )}
      where ($1::text[] is null or r.status = any($1)) and ($2::uuid is null or r.user_id = $2)
        and ($4::int is null or (${QUEUE_GROUP}, ${QUEUE_TIME}, r.id) > ($4::int, $5::bigint, $6::uuid))
      order by ${QUEUE_GROUP}, ${QUEUE_TIME}, r.id
      limit $3`,
    [
      filter.statuses ?? (filter.status ? [filter.status] : null),
      filter.userId ?? null,
      filter.limit ?? 500,
      filter.after?.[0] ?? null,
      filter.after?.[1] ?? null,
      filter.after?.[2] ?? null,
    ],
  );
  return result.rows.map((row) => ({
    item: toRegistration(row),
    key: [row.queue_group, row.queue_time, row.id],
  }));
}

/** How many registrations have each status (the console's section headings). */
export async function countRegistrationsByStatus(
  db: Queryable,
): Promise<Partial<Record<RegistrationStatus, number>>> {
  const result = await db.query<{ status: RegistrationStatus; n: number }>(
    'select status, count(*)::int as n from registrations group by status',
  );
  return Object.fromEntries(result.rows.map((row) => [row.status, row.n]));
}

export interface RegistrationDocument {
  id: string;
  part: string;
  originalName: string;
  contentType: string;
  size: number;
}

/** An affiliated person of a business registration, as staff list them. */
export interface RegistrationPerson {
  position: number;
  firstName: string;
  lastName: string;
  title: string | null;
  ownershipPercent: number | null;
  isDirect: boolean | null;
}

/** A registration as stored, for staff: its payload still sealed (admin/registrationView.ts opens it). */
export interface StoredRegistrationDetail extends AdminRegistrationSummary {
  /** The prompt+value payload as sent, its sensitive answers sealed. */
  sealedPayload: Record<string, unknown>;
  documents: RegistrationDocument[];
  /** The affiliated persons (business registrations; empty for an individual). */
  persons: RegistrationPerson[];
}

/** A registration with its documents and affiliated persons; null when unknown. */
export async function getRegistration(
  db: Queryable,
  registrationId: string,
): Promise<StoredRegistrationDetail | null> {
  const result = await db.query<RegistrationRow & { payload: Record<string, unknown> }>(
    `${SELECT_REGISTRATION.replace('r.decision_reason', 'r.decision_reason, r.payload')}
      where r.id = $1`,
    [registrationId],
  );
  const row = result.rows[0];
  if (!row) return null;
  const documents = await db.query<{
    id: string;
    part: string;
    original_name: string;
    content_type: string;
    size: number;
  }>(
    `select id, part, original_name, content_type, size from registration_documents
      where registration_id = $1 order by part`,
    [registrationId],
  );
  const persons = await db.query<{
    position: number;
    first_name: string;
    last_name: string;
    title: string | null;
    ownership_percent: number | null;
    is_direct: boolean | null;
  }>(
    `select position, first_name, last_name, title, ownership_percent, is_direct
       from registration_persons where registration_id = $1 order by position`,
    [registrationId],
  );
  return {
    ...toRegistration(row),
    sealedPayload: row.payload,
    persons: persons.rows.map((p) => ({
      position: p.position,
      firstName: p.first_name,
      lastName: p.last_name,
      title: p.title,
      ownershipPercent: p.ownership_percent,
      isDirect: p.is_direct,
    })),
    documents: documents.rows.map((d) => ({
      id: d.id,
      part: d.part,
      originalName: d.original_name,
      contentType: d.content_type,
      size: d.size,
    })),
  };
}

/** A registration document's storage details, for serving it back to staff. */
export async function findRegistrationDocument(
  db: Queryable,
  documentId: string,
): Promise<{
  registrationId: string;
  storageName: string;
  originalName: string;
  contentType: string;
  userId: string;
} | null> {
  const result = await db.query<{
    registration_id: string;
    storage_name: string;
    original_name: string;
    content_type: string;
    user_id: string;
  }>(
    `select d.registration_id, d.storage_name, d.original_name, d.content_type, r.user_id
       from registration_documents d join registrations r on r.id = d.registration_id
      where d.id = $1`,
    [documentId],
  );
  const row = result.rows[0];
  return row
    ? {
        registrationId: row.registration_id,
        storageName: row.storage_name,
        originalName: row.original_name,
        contentType: row.content_type,
        userId: row.user_id,
      }
    : null;
}

/** The organisation of an act: named by one of its registrations, or directly. */
const BY_REGISTRATION = 'select organization_id, user_id from registrations where id = $1';
const BY_ORGANIZATION = 'select $1::uuid as organization_id, null::uuid as user_id';

/**
 * How a staff member is tied to the organisation an act concerns (admin/ownOrganization.ts):
 * whether they belong to it, whether they filed one of its registrations, and, when the act is
 * on a registration, whether they filed that one. The organisation is named directly or by one
 * of its registrations; null for an unknown registration.
 */
export async function findOrganizationTies(
  db: Queryable,
  subject: { organizationId: string } | { registrationId: string },
  staffId: string,
): Promise<{ member: boolean; filed: boolean; filedThis: boolean } | null> {
  const result = await db.query<{ member: boolean; filed: boolean; filed_this: boolean }>(
    `with subject as (${'registrationId' in subject ? BY_REGISTRATION : BY_ORGANIZATION})
     select exists (select 1 from users u
                     where u.id = $2 and u.organization_id = s.organization_id) as member,
            exists (select 1 from registrations r
                     where r.organization_id = s.organization_id and r.user_id = $2) as filed,
            coalesce(s.user_id = $2, false) as filed_this
       from subject s`,
    ['registrationId' in subject ? subject.registrationId : subject.organizationId, staffId],
  );
  const row = result.rows[0];
  return row ? { member: row.member, filed: row.filed, filedThis: row.filed_this } : null;
}

/**
 * An organisation locked for a participant decision, with the status of its latest
 * registration (null when it has none); null for an unknown organisation.
 */
export async function lockOrganizationForDecision(
  db: Queryable,
  organizationId: string,
): Promise<{ id: string; registrationStatus: string | null } | null> {
  const organization = await db.query<{ id: string; registration_status: string | null }>(
    `select o.id, (select r.status from registrations r where r.organization_id = o.id
                    order by r.submitted_at desc limit 1) as registration_status
       from organizations o where o.id = $1 for update of o`,
    [organizationId],
  );
  const row = organization.rows[0];
  return row ? { id: row.id, registrationStatus: row.registration_status } : null;
}

/** Stores whether an organisation is admitted as a clearing participant, by whom and why. */
export async function setParticipantDecision(
  db: Queryable,
  organizationId: string,
  decision: { status: string; decidedBy: string | null; reason: string | null },
): Promise<void> {
  await db.query(
    `update organizations set participant_status = $2, participant_decided_by = $3,
            participant_decided_at = now(), participant_reason = $4
      where id = $1`,
    [organizationId, decision.status, decision.decidedBy, decision.reason],
  );
}

export async function countOrganizations(db: Queryable): Promise<number> {
  const count = await db.query<{ n: number }>('select count(*)::int as n from organizations');
  return count.rows[0]!.n;
}
