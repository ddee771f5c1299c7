/**
 * API credentials' rows (migration 150; auth/apiCredentials.ts makes and checks the secrets).
 */
import type { ApiCredential, ApiScope } from '../../shared/api/apiCredentials';
import type { Queryable } from './transaction';

interface CredentialRow {
  id: string;
  name: string;
  scopes: ApiScope[];
  secret_start: string;
  created_at: Date;
  created_by_email: string;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

const SELECT_CREDENTIAL = `select c.id, c.name, c.scopes, c.secret_start, c.created_at,
       u.email as created_by_email, c.last_used_at, c.revoked_at
  from api_credentials c join users u on u.id = c.created_by`;

function toCredential(row: CredentialRow): ApiCredential {
  return {
    id: row.id,
    name: row.name,
    scopes: row.scopes,
    secretStart: row.secret_start,
    createdAt: row.created_at.toISOString(),
    createdBy: row.created_by_email,
    lastUsedAt: row.last_used_at?.toISOString() ?? null,
    revokedAt: row.revoked_at?.toISOString() ?? null,
  };
}

/** Stores a new credential (its secret's hash only); the credential as listed. */
export async function insertApiCredential(
  db: Queryable,
  credential: {
    organizationId: string;
    createdBy: string;
    name: string;
    scopes: readonly ApiScope[];
    secretHash: string;
    secretStart: string;
  },
): Promise<ApiCredential> {
  const result = await db.query<CredentialRow>(
    `with c as (
       insert into api_credentials (organization_id, created_by, name, scopes, secret_hash, secret_start)
       values ($1, $2, $3, $4, $5, $6) returning *)
     ${SELECT_CREDENTIAL.replace('api_credentials c', 'c')}`,
    [
      credential.organizationId,
      credential.createdBy,
      credential.name,
      credential.scopes,
      credential.secretHash,
      credential.secretStart,
    ],
  );
  return toCredential(result.rows[0]!);
}

/** The organisation's credentials, newest first, revoked ones too. */
export async function listApiCredentials(
  db: Queryable,
  organizationId: string,
): Promise<ApiCredential[]> {
  const result = await db.query<CredentialRow>(
    `${SELECT_CREDENTIAL} where c.organization_id = $1 order by c.created_at desc, c.id`,
    [organizationId],
  );
  return result.rows.map(toCredential);
}

/**
 * Revokes one of the organisation's credentials; the credential as it now stands, or null when
 * the organisation has no such credential. Revoking twice keeps the first time.
 */
export async function revokeApiCredential(
  db: Queryable,
  organizationId: string,
  credentialId: string,
  revokedBy: string,
): Promise<ApiCredential | null> {
  const updated = await db.query(
    `update api_credentials set revoked_at = coalesce(revoked_at, now()),
            revoked_by = coalesce(revoked_by, $3)
      where id = $2 and organization_id = $1`,
    [organizationId, credentialId, revokedBy],
  );
  if (!updated.rowCount) return null;
  const result = await db.query<CredentialRow>(`${SELECT_CREDENTIAL} where c.id = $1`, [
    credentialId,
  ]);
  return toCredential(result.rows[0]!);
}

/** Who a valid credential acts as, and what it and they may read. */
export interface CredentialCaller {
  credentialId: string;
  userId: string;
  organizationId: string;
  clearingOrgId: string | null;
  scopes: ApiScope[];
  /** The account's details approved (the statement is shown only to approved customers). */
  approved: boolean;
}

/** Why a secret's credential does not act: revoked, or its maker no longer may make one. */
type CredentialRefusal = 'revoked' | 'maker-not-administrator';

/**
 * The caller a secret's hash names; `{ refused }` when the credential exists but was revoked or
 * its maker is no longer an Administrator of its organisation (or no longer verified); null when
 * no credential has this secret. Read from PostgreSQL on every request, so a revocation holds on
 * every instance at once. Marks a valid credential used, to the minute (one write a minute at
 * most, not one per call).
 */
export async function findCredentialCaller(
  db: Queryable,
  secretHash: string,
): Promise<CredentialCaller | { refused: CredentialRefusal } | null> {
  const result = await db.query<{
    id: string;
    user_id: string;
    organization_id: string;
    clearing_org_id: string | null;
    scopes: ApiScope[];
    approved: boolean;
    revoked: boolean;
    maker_administrator: boolean;
  }>({
    name: 'api-credential-caller',
    text: `with found as (
             select c.id, c.created_by as user_id, c.organization_id, o.clearing_org_id,
                    c.scopes, coalesce((u.details->>'approved')::boolean, false) as approved,
                    c.last_used_at, c.revoked_at is not null as revoked,
                    (u.organization_id = c.organization_id
                      and 'Administrator' = any (u.roles)
                      and u.email_verified_at is not null) as maker_administrator
               from api_credentials c
               join users u on u.id = c.created_by
               join organizations o on o.id = c.organization_id
              where c.secret_hash = $1),
           touched as (
             update api_credentials set last_used_at = now()
              where id in (select id from found
                            where not revoked and maker_administrator
                              and (last_used_at is null
                                   or last_used_at < now() - interval '1 minute')))
           select id, user_id, organization_id, clearing_org_id, scopes, approved, revoked,
                  maker_administrator
             from found`,
    values: [secretHash],
  });
  const row = result.rows[0];
  if (!row) return null;
  if (row.revoked) return { refused: 'revoked' };
  if (!row.maker_administrator) return { refused: 'maker-not-administrator' };
  return {
    credentialId: row.id,
    userId: row.user_id,
    organizationId: row.organization_id,
    clearingOrgId: row.clearing_org_id,
    scopes: row.scopes,
    approved: row.approved === true,
  };
}
