import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { firm } from '../../../src/shared/config/firm';
import {
  checkEsignConsent,
  ESIGN_CONSENT_FILE,
  ESIGN_CONSENT_SECTIONS,
  esignConsentText,
} from '../../../src/shared/forms/model/esignConsent';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test edits of loose JSON

const shipped = () => JSON.parse(fs.readFileSync(ESIGN_CONSENT_FILE, 'utf8')) as Json;
const assets = fs.readdirSync('assets/pdfs').map((name) => `/assets/pdfs/${name}`);
const problems = (raw: unknown) =>
  checkEsignConsent(raw, assets).map((p) => `${p.pointer}: ${p.message}`);

describe('the e-sign consent wording (schemas/common/esign-consent.json)', () => {
  it('is complete as shipped: every ESIGN 7001(c) disclosure, the texts and an existing PDF', () => {
    expect(problems(shipped())).toEqual([]);
  });

  it('names a missing disclosure by section and part', () => {
    const raw = shipped();
    delete raw.sections.withdrawal;
    raw.sections.paperCopy.text = ' ';
    expect(problems(raw)).toEqual([
      '/sections/withdrawal/heading: the withdrawal disclosure (ESIGN 7001(c)) needs its heading',
      '/sections/withdrawal/text: the withdrawal disclosure (ESIGN 7001(c)) needs its text',
      '/sections/paperCopy/text: the paperCopy disclosure (ESIGN 7001(c)) needs its text',
    ]);
  });

  it('refuses a missing text, an unknown section and a document that is not published', () => {
    const raw = shipped();
    delete raw.confirmLabel;
    raw.sections.extra = { heading: 'x', text: 'y' };
    raw.document = '/assets/pdfs/no-such-consent.pdf';
    expect(problems(raw)).toEqual([
      '/confirmLabel: text is missing',
      '/document: no such document /assets/pdfs/no-such-consent.pdf',
      `/sections/extra: unknown section extra (the sections are ${ESIGN_CONSENT_SECTIONS.join(', ')})`,
    ]);
  });

  it("fills in the firm's name and support contacts", () => {
    const text = esignConsentText(shipped());
    expect(text.intro).toContain(firm.displayName);
    expect(text.sections.withdrawal.text).toContain(firm.supportEmail);
    expect(text.sections.withdrawal.text).toContain(firm.supportPhone);
    expect(JSON.stringify(text)).not.toMatch(/\{(firm|supportEmail|supportPhone)\}/);
  });

  it('will not be used incomplete', () => {
    const raw = shipped();
    delete raw.sections.hardwareSoftware;
    expect(() => esignConsentText(raw)).toThrow(
      `${ESIGN_CONSENT_FILE}/sections/hardwareSoftware/heading`,
    );
  });
});
