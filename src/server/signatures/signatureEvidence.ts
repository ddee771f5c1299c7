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
import {
  insertSignatureEvidence,
  listSignatureEvidence,
  type SignatureEvidence,
} from '../db/signatureEvidence';
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
    await insertSignatureEvidence(db, {
      registrationId: context.registrationId,
      part: document.part,
      prompt: document.title,
      documentUrl: document.url,
      publishedSha256: publishedSha256(document.url),
      ip: context.ip,
      userAgent: context.userAgent?.slice(0, 1000) ?? null,
      userId: context.userId,
      userEmail: context.userEmail,
      signerName: context.signerName,
      consentDocumentUrl: context.consent.documentUrl,
      consentSha256: context.consent.sha256,
      schemaHash: context.schemaHash,
      esignConsentId: context.consent.id,
      agreedAt: context.signedAt[document.pointer] ?? null,
    });
  }
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
