/**
 * Signature evidence as stored (`signature_evidence`, migration 060 and after): written once in
 * the registration's transaction, never changed (a trigger refuses updates). What it records and
 * why: signatures/signatureEvidence.ts.
 */
import type { Queryable } from './transaction';

/**
 * Records one signed document's evidence. The hash is PostgreSQL's of the stored bytes of the
 * registration's document for `part`: what is attached is what is hashed. The signing time is
 * `agreedAt`, never later than now (null: now).
 */
export async function insertSignatureEvidence(
  db: Queryable,
  evidence: {
    registrationId: string;
    part: string;
    prompt: string;
    documentUrl: string;
    publishedSha256: string | null;
    ip: string;
    userAgent: string | null;
    userId: string;
    userEmail: string;
    signerName: string | null;
    consentDocumentUrl: string;
    consentSha256: string;
    schemaHash: string;
    esignConsentId: string;
    agreedAt: string | null;
  },
): Promise<void> {
  await db.query(
    `insert into signature_evidence
       (registration_id, registration_document_id, part, prompt, document_url, sha256,
        published_sha256, ip, user_agent, user_id, user_email, signer_name,
        consent_document_url, consent_sha256, schema_hash, esign_consent_id, agreed_at)
     select d.registration_id, d.id, d.part, $3, $4, encode(sha256(stored_file_bytes(f.storage_name)), 'hex'),
            $5, $6, $7, $8, $9, $10, $11, $12, $13, $14,
            least(coalesce($15::timestamptz, now()), now())
       from registration_documents d join stored_files f on f.storage_name = d.storage_name
      where d.registration_id = $1 and d.part = $2`,
    [
      evidence.registrationId,
      evidence.part,
      evidence.prompt,
      evidence.documentUrl,
      evidence.publishedSha256,
      evidence.ip,
      evidence.userAgent,
      evidence.userId,
      evidence.userEmail,
      evidence.signerName,
      evidence.consentDocumentUrl,
      evidence.consentSha256,
      evidence.schemaHash,
      evidence.esignConsentId,
      evidence.agreedAt,
    ],
  );
}

/** One agreement's evidence, as staff and auditors read it. */
export interface SignatureEvidence {
  documentId: string;
  part: string;
  prompt: string;
  documentUrl: string;
  originalName: string;
  sha256: string;
  publishedSha256: string | null;
  /** When the agreement was signed (null: recorded before signing times were kept). */
  signedAt: string | null;
  /** When the signature was submitted with the registration (server time). */
  submittedAt: string;
  ip: string | null;
  userAgent: string | null;
  userId: string;
  userEmail: string;
  signerName: string | null;
  consentDocumentUrl: string;
  consentSha256: string | null;
  schemaHash: string;
  /** The e-sign consent the signature relied on, and when it was given (null before consents). */
  esignConsentId: string | null;
  consentGivenAt: string | null;
}

export async function listSignatureEvidence(
  db: Queryable,
  registrationId: string,
): Promise<SignatureEvidence[]> {
  const result = await db.query<{
    document_id: string;
    part: string;
    prompt: string;
    document_url: string;
    original_name: string;
    sha256: string;
    published_sha256: string | null;
    signed_at: Date;
    agreed_at: Date | null;
    ip: string | null;
    user_agent: string | null;
    user_id: string;
    user_email: string;
    signer_name: string | null;
    consent_document_url: string;
    consent_sha256: string | null;
    schema_hash: string;
    esign_consent_id: string | null;
    consent_given_at: Date | null;
  }>(
    `select s.registration_document_id as document_id, s.part, s.prompt, s.document_url,
            d.original_name, s.sha256, s.published_sha256, s.signed_at, s.agreed_at, s.ip, s.user_agent,
            s.user_id, s.user_email, s.signer_name, s.consent_document_url, s.consent_sha256,
            s.schema_hash, s.esign_consent_id, c.given_at as consent_given_at
       from signature_evidence s join registration_documents d on d.id = s.registration_document_id
       left join esign_consents c on c.id = s.esign_consent_id
      where s.registration_id = $1 order by s.part`,
    [registrationId],
  );
  return result.rows.map((row) => ({
    documentId: row.document_id,
    part: row.part,
    prompt: row.prompt,
    documentUrl: row.document_url,
    originalName: row.original_name,
    sha256: row.sha256,
    publishedSha256: row.published_sha256,
    signedAt: row.agreed_at?.toISOString() ?? null,
    submittedAt: row.signed_at.toISOString(),
    ip: row.ip,
    userAgent: row.user_agent,
    userId: row.user_id,
    userEmail: row.user_email,
    signerName: row.signer_name,
    consentDocumentUrl: row.consent_document_url,
    consentSha256: row.consent_sha256,
    schemaHash: row.schema_hash,
    esignConsentId: row.esign_consent_id,
    consentGivenAt: row.consent_given_at?.toISOString() ?? null,
  }));
}
