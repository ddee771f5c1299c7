/** The applicants' consents to electronic records and signatures (`esign_consents`). */
import type { Queryable } from './transaction';

/** A consent row, as the evidence links it. */
export interface EsignConsent {
  id: string;
  documentUrl: string;
  sha256: string;
  givenAt: Date;
}

interface ConsentRow {
  id: string;
  document_url: string;
  consent_sha256: string;
  given_at: Date;
}

const toConsent = (row: ConsentRow): EsignConsent => ({
  id: row.id,
  documentUrl: row.document_url,
  sha256: row.consent_sha256,
  givenAt: row.given_at,
});

/** The user's consent to `version`, if given. */
export async function findEsignConsent(
  db: Queryable,
  userId: string,
  version: string,
): Promise<EsignConsent | null> {
  const result = await db.query<ConsentRow>(
    `select id, document_url, consent_sha256, given_at from esign_consents
      where user_id = $1 and consent_sha256 = $2`,
    [userId, version],
  );
  return result.rows[0] ? toConsent(result.rows[0]) : null;
}

/**
 * Inserts the user's consent to a version of the consent document: the new row, or null when
 * the user already consented to that version.
 */
export async function insertEsignConsentRow(
  db: Queryable,
  consent: {
    userId: string;
    documentUrl: string;
    sha256: string;
    ip: string;
    userAgent: string | null;
  },
): Promise<EsignConsent | null> {
  const inserted = await db.query<ConsentRow>(
    `insert into esign_consents (user_id, document_url, consent_sha256, ip, user_agent)
     values ($1, $2, $3, $4, $5)
     on conflict (user_id, consent_sha256) do nothing
     returning id, document_url, consent_sha256, given_at`,
    [consent.userId, consent.documentUrl, consent.sha256, consent.ip, consent.userAgent],
  );
  return inserted.rows[0] ? toConsent(inserted.rows[0]) : null;
}
