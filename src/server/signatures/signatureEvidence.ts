/**
 * Signature evidence (issue 17): for each agreement signed, on either form, what a court or
 * auditor asks for: the document's id (where the portal publishes it), the SHA-256 of the exact
 * bytes attached, the server time, IP address, user agent, the user, and the version of the
 * e-sign consent text (the SHA-256 of the consent document the applicant consented to, and the
 * consent row itself: esignConsents.ts). Written in the
 * registration's transaction, never changed (a trigger refuses updates), verified by
 * recomputing each hash from the stored bytes.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Queryable } from '../db/transaction';

/** Where the portal serves `/assets/pdfs/*` from (web.ts). */
const PUBLISHED_FOLDER = path.resolve('assets/pdfs');

const publishedCache = new Map<string, { mtimeMs: number; size: number; sha256: string }>();

/** The SHA-256 of the document published at `url` now, or null when none is. */
export function publishedSha256(url: string): string | null {
  if (!url.startsWith('/assets/pdfs/')) return null;
  const file = path.join(PUBLISHED_FOLDER, path.basename(url));
  let stat;
  try {
    stat = fs.statSync(file);
  } catch {
    return null;
  }
  const cached = publishedCache.get(file);
  if (cached && cached.mtimeMs === stat.mtimeMs && cached.size === stat.size) return cached.sha256;
  const sha256 = crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
  publishedCache.set(file, { mtimeMs: stat.mtimeMs, size: stat.size, sha256 });
  return sha256;
}

/** A signed document of the form, as `signedDocuments` lists it. */
interface SignedDocumentRef {
  part: string;
  /** The agreement's answer ('' for a step's signature, signed by submitting). */
  pointer: string;
  title: string;
  url: string;
}

interface SigningContext {
  registrationId: string;
  userId: string;
  userEmail: string;
  ip: string;
  userAgent: string | undefined;
  signerName: string | null;
  schemaHash: string;
  /** The e-sign consent row the signatures rely on (esign_consents), its document and version. */
  consent: { id: string; documentUrl: string; sha256: string };
  /** When each agreement was signed, by pointer (signingTimes.ts); the others: now. */
  signedAt: Readonly<Record<string, string>>;
}

/**
 * Records the evidence of each signed document the registration stored (call after its
 * documents are inserted, in the same transaction). The hash is PostgreSQL's of the stored
 * bytes: what is attached is what is hashed. Two times: when the agreement was signed (the
 * application's record of the Electronically Sign press; a step's signature, or an agreement
 * the server never saw signed before, is signed by this submission) and when it was submitted.
 */
export async function recordSignatureEvidence(
  db: Queryable,
  context: SigningContext,
  documents: readonly SignedDocumentRef[],
): Promise<void> {
  for (const document of documents) {
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
        context.registrationId,
        document.part,
        document.title,
        document.url,
        publishedSha256(document.url),
        context.ip,
        context.userAgent?.slice(0, 1000) ?? null,
        context.userId,
        context.userEmail,
        context.signerName,
        context.consent.documentUrl,
        context.consent.sha256,
        context.schemaHash,
        context.consent.id,
        context.signedAt[document.pointer] ?? null,
      ],
    );
  }
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

/** What recomputing a recorded hash found. */
interface EvidenceCheck {
  evidence: SignatureEvidence;
  /** The SHA-256 of the bytes stored now; null when they are gone. */
  actualSha256: string | null;
  matches: boolean;
}

/** Recomputes the SHA-256 of each signed document's stored bytes against its evidence. */
export async function verifySignatureEvidence(
  db: Queryable,
  registrationId: string,
  readBytes: (documentId: string) => Promise<Buffer | null>,
): Promise<EvidenceCheck[]> {
  const checks: EvidenceCheck[] = [];
  for (const evidence of await listSignatureEvidence(db, registrationId)) {
    const bytes = await readBytes(evidence.documentId);
    const actualSha256 = bytes ? crypto.createHash('sha256').update(bytes).digest('hex') : null;
    checks.push({ evidence, actualSha256, matches: actualSha256 === evidence.sha256 });
  }
  return checks;
}
