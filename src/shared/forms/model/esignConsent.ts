/**
 * The E-Sign Disclosure and Consent (ESIGN Act, 15 U.S.C. 7001(c)): its wording lives in
 * `schemas/common/esign-consent.json`, where compliance staff edit it; the browser shows it
 * before the first electronic signature, the server words its refusal with it and `forms check`
 * checks every part the Act asks for is there. Pure: the file's content is handed in.
 */
import { firm } from '../../config/firm';
import type { Problem } from './formFiles';
import { isPlainObject } from './schemaTypes';

export const ESIGN_CONSENT_FILE = 'schemas/common/esign-consent.json';

/**
 * The disclosures 7001(c)(1) requires before consent, in the order shown: the right to paper
 * records, the scope of the consent, how to withdraw and what withdrawing means, how to update
 * contact details, how to get a paper copy (and any fee), the hardware and software needed.
 */
export const ESIGN_CONSENT_SECTIONS = [
  'paperRecords',
  'scope',
  'withdrawal',
  'contactDetails',
  'paperCopy',
  'hardwareSoftware',
] as const;
export type EsignConsentSection = (typeof ESIGN_CONSENT_SECTIONS)[number];

/** The texts of the consent dialog and of the server's refusal. */
const TEXT_KEYS = [
  'title',
  'intro',
  'document',
  'documentLabel',
  'confirmLabel',
  'acceptLabel',
  'cancelLabel',
  'confirmRequiredMessage',
  'failedMessage',
  'changedMessage',
  'missingMessage',
] as const;
type TextKey = (typeof TEXT_KEYS)[number];

export type EsignConsentText = Record<TextKey, string> & {
  sections: Record<EsignConsentSection, { heading: string; text: string }>;
};

const nonEmpty = (value: unknown): value is string =>
  typeof value === 'string' && value.trim() !== '';

/**
 * What is missing or wrong in the consent file's content: each text, each required section with
 * a heading and a text, the document a PDF under /assets/pdfs (existing, when `assetFiles` lists
 * them). An empty list means the file is complete.
 */
export function checkEsignConsent(raw: unknown, assetFiles?: readonly string[]): Problem[] {
  const file = ESIGN_CONSENT_FILE;
  if (!isPlainObject(raw)) {
    return [{ file, pointer: '', message: 'the e-sign consent must be a JSON object' }];
  }
  const problems: Problem[] = [];
  for (const key of TEXT_KEYS) {
    if (!nonEmpty(raw[key]))
      problems.push({ file, pointer: `/${key}`, message: 'text is missing' });
  }
  const document = raw.document;
  if (nonEmpty(document)) {
    if (!/^\/assets\/pdfs\/[a-z0-9-]+\.pdf$/.test(document)) {
      problems.push({
        file,
        pointer: '/document',
        message: 'the consent document must be a PDF under /assets/pdfs/',
      });
    } else if (assetFiles && !assetFiles.includes(document)) {
      problems.push({ file, pointer: '/document', message: `no such document ${document}` });
    }
  }
  const sections = isPlainObject(raw.sections) ? raw.sections : {};
  for (const name of ESIGN_CONSENT_SECTIONS) {
    const section = sections[name];
    for (const part of ['heading', 'text'] as const) {
      if (!isPlainObject(section) || !nonEmpty(section[part])) {
        problems.push({
          file,
          pointer: `/sections/${name}/${part}`,
          message: `the ${name} disclosure (ESIGN 7001(c)) needs its ${part}`,
        });
      }
    }
  }
  for (const name of Object.keys(sections)) {
    if (!(ESIGN_CONSENT_SECTIONS as readonly string[]).includes(name)) {
      problems.push({
        file,
        pointer: `/sections/${name}`,
        message: `unknown section ${name} (the sections are ${ESIGN_CONSENT_SECTIONS.join(', ')})`,
      });
    }
  }
  return problems;
}

const PLACEHOLDERS: Record<string, string> = {
  '{firm}': firm.displayName,
  '{supportEmail}': firm.supportEmail,
  '{supportPhone}': firm.supportPhone,
};
const fill = (text: string) =>
  text.replace(/\{firm\}|\{supportEmail\}|\{supportPhone\}/g, (key) => PLACEHOLDERS[key] ?? key);

/**
 * The consent's texts with the firm's name and contacts filled in. Throws, naming the first
 * problem, when the file is incomplete (`forms check` says the same before anyone deploys it).
 */
export function esignConsentText(raw: unknown): EsignConsentText {
  const problems = checkEsignConsent(raw);
  if (problems.length > 0 || !isPlainObject(raw)) {
    const first = problems[0];
    throw new Error(`${ESIGN_CONSENT_FILE}${first?.pointer ?? ''}: ${first?.message ?? 'invalid'}`);
  }
  const texts = Object.fromEntries(TEXT_KEYS.map((key) => [key, fill(String(raw[key]))]));
  const rawSections = raw.sections as Record<string, { heading: string; text: string }>;
  const sections = Object.fromEntries(
    ESIGN_CONSENT_SECTIONS.map((name) => [
      name,
      { heading: fill(rawSections[name]!.heading), text: fill(rawSections[name]!.text) },
    ]),
  );
  return { ...texts, sections } as EsignConsentText;
}
