/**
 * Writes the sample legal documents served under /assets/pdfs (docs/decisions.md, The standalone
 * portal: clearly marked samples that a firm replaces with its own). Run `npm run samples` after
 * changing the texts below.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import { firm } from '../src/shared/config/firm';
import { LEGAL_DOCUMENTS } from '../src/shared/config/legalDocuments';

const SAMPLE_TEXT: Record<string, string[]> = {
  'terms-of-service': [
    `These terms govern your use of the ${firm.displayName} member portal and the clearing services offered through it.`,
    'You agree to provide true, accurate and complete information during registration and to keep it current.',
  ],
  'risk-disclosures': [
    'Trading futures and options involves substantial risk of loss and is not suitable for all investors.',
    'You may lose more than your initial margin deposit. Leverage magnifies both gains and losses.',
  ],
  'futures-customer-agreement': [
    `This agreement sets out the terms on which ${firm.displayName} carries your futures account.`,
    'Margin must be maintained at all times; positions may be liquidated without notice when margin is insufficient.',
  ],
  'e-sign-consent': [
    'You consent to receive records electronically. You have the right to receive any record on paper, on request and free of charge.',
    `You may withdraw this consent at any time by writing to ${firm.supportEmail}; withdrawal takes effect within three business days.`,
    'This consent covers every record relating to your account for as long as the account is open.',
    'To access and keep records you need a current web browser, a PDF reader and an email account.',
  ],
  'arbitration-clause': [
    'You may elect, but are not required, to resolve disputes with the firm by arbitration under the rules of the National Futures Association.',
    'Signing this clause is voluntary and is not a condition of opening an account.',
  ],
  'corporate-guarantee-form': [
    'To be signed by an officer of the highest ownership entity of the registering business.',
    'The guarantor guarantees the obligations of the account holder to the firm.',
  ],
  'authorized-signer-form': [
    'Completed by an authorized signatory of the entity to grant registration authority to the person registering.',
    'Name of entity: ____________    Name of authorized person: ____________    Signature: ____________',
  ],
};

async function makePdf(title: string, paragraphs: string[]): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(`${title} (sample)`);
  pdf.setCreator(firm.displayName);
  // Fixed dates keep the files byte-identical between runs.
  pdf.setCreationDate(new Date('2026-01-01T00:00:00Z'));
  pdf.setModificationDate(new Date('2026-01-01T00:00:00Z'));
  const page = pdf.addPage([612, 792]);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  page.drawText('SAMPLE DOCUMENT - replace with the firm\u2019s own before use', {
    x: 56,
    y: 740,
    size: 11,
    font: bold,
    color: rgb(0.75, 0.1, 0.1),
  });
  page.drawText(title, { x: 56, y: 706, size: 20, font: bold });
  page.drawText(firm.displayName, { x: 56, y: 684, size: 12, font });
  let y = 650;
  for (const paragraph of paragraphs) {
    for (const line of wrap(paragraph, 88)) {
      page.drawText(line, { x: 56, y, size: 11, font });
      y -= 16;
    }
    y -= 10;
  }
  return pdf.save({ useObjectStreams: false });
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && `${line} ${word}`.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines;
}

const outDir = path.resolve('assets/pdfs');
fs.mkdirSync(outDir, { recursive: true });
for (const document of Object.values(LEGAL_DOCUMENTS)) {
  const bytes = await makePdf(document.title, SAMPLE_TEXT[document.slug] ?? []);
  fs.writeFileSync(path.join(outDir, `${document.slug}.pdf`), bytes);
  console.log(`wrote assets/pdfs/${document.slug}.pdf (${bytes.length} bytes)`);
}
