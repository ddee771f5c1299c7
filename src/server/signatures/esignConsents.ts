/**
 * Consent to electronic records and signatures (ESIGN 15 U.S.C. 7001(c)): the applicant confirms
 * the disclosure once per version (the SHA-256 of the consent document as published) before the
 * first signature; the registration refuses signatures without it and each signature's evidence
 * names the consent row it relied on. The wording lives in schemas/common/esign-consent.json.
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  ESIGN_CONSENT_FILE,
  esignConsentText,
  type EsignConsentText,
} from '../../shared/forms/model/esignConsent';
import { findEsignConsent, insertEsignConsentRow, type EsignConsent } from '../db/esignConsents';
import type { Queryable } from '../db/transaction';
import { ClientError } from '../errors';
import { PROJECT_ROOT } from '../forms';
import { publishedSha256 } from './signatureEvidence';

let wording: EsignConsentText | undefined;

/** The consent's wording (read once: a schema change is a deployment). */
export function esignConsentWording(): EsignConsentText {
  wording ??= esignConsentText(
    JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, ESIGN_CONSENT_FILE), 'utf8')),
  );
  return wording;
}

/** The consent document and its version now. */
interface EsignConsentVersion {
  documentUrl: string;
  sha256: string;
}

/** The version in force: the SHA-256 of the consent document published now. */
export function currentEsignConsentVersion(): EsignConsentVersion {
  const documentUrl = esignConsentWording().document;
  const sha256 = publishedSha256(documentUrl);
  if (!sha256) {
    // An operator's mistake (the PDF removed): nobody can consent, so nobody can sign; say so.
    throw new ClientError(
      503,
      'Electronic signing is unavailable for the moment. Please try again later.',
    );
  }
  return { documentUrl, sha256 };
}

/**
 * Records the user's consent to `version`; a second confirmation of the same version answers the
 * row already given (`created` false), so a double click stores one consent.
 */
export async function insertEsignConsent(
  db: Queryable,
  consent: {
    userId: string;
    version: EsignConsentVersion;
    ip: string;
    userAgent: string | undefined;
  },
): Promise<{ consent: EsignConsent; created: boolean }> {
  const inserted = await insertEsignConsentRow(db, {
    userId: consent.userId,
    documentUrl: consent.version.documentUrl,
    sha256: consent.version.sha256,
    ip: consent.ip,
    userAgent: consent.userAgent?.slice(0, 1000) ?? null,
  });
  if (inserted) return { consent: inserted, created: true };
  const existing = await findEsignConsent(db, consent.userId, consent.version.sha256);
  if (!existing) throw new Error('e-sign consent neither inserted nor found');
  return { consent: existing, created: false };
}
