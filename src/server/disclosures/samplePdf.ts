import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import { firm } from '../../shared/config/firm';
import { DISCLOSURE_PERIOD_KIND, type DisclosureCategory } from '../../shared/api/disclosures';

const TITLES: Record<DisclosureCategory, string> = {
  'firm-disclosure': 'Firm Disclosure Document (CFTC Rule 1.55(k))',
  'daily-segregation': 'Daily Segregation Statement (CFTC Rule 1.55(o)(1))',
  'capital-summary': 'Month-end Net Capital Summary',
  'monthly-segregation': 'Month-end Segregation Statement (CFTC Rule 1.55(o)(1)(vi))',
  'audited-financial': 'Audited Financial Statement',
};

const FIGURES: Partial<Record<DisclosureCategory, string[]>> = {
  'daily-segregation': [
    'Total amount required to be segregated',
    'Funds in segregated accounts',
    'Excess funds in segregation',
    'Target residual interest',
  ],
  'monthly-segregation': [
    'Total amount required to be segregated',
    'Funds in segregated accounts',
    'Excess funds in segregation',
    'Target residual interest',
  ],
  'capital-summary': ['Adjusted net capital', 'Minimum net capital required', 'Excess net capital'],
  'audited-financial': ['Total assets', 'Total liabilities', "Members' equity"],
};

/** How the period reads on the document, e.g. 'As of the close of business on March 31, 2026'. */
function periodLine(category: DisclosureCategory, period: string): string {
  const date = new Date(`${period.padEnd(7, '-01').padEnd(10, '-01')}T00:00:00Z`);
  const show = (options: Intl.DateTimeFormatOptions) =>
    date.toLocaleDateString('en-US', { timeZone: 'UTC', ...options });
  switch (DISCLOSURE_PERIOD_KIND[category]) {
    case 'day':
      return category === 'firm-disclosure'
        ? `Effective ${show({ year: 'numeric', month: 'long', day: 'numeric' })}`
        : `As of the close of business on ${show({ year: 'numeric', month: 'long', day: 'numeric' })}`;
    case 'month':
      return `Month ended ${show({ year: 'numeric', month: 'long' })}`;
    case 'year':
      return `Fiscal year ended December 31, ${period}`;
  }
}

/** Made-up but stable amounts, so the same period always shows the same sample figures. */
function sampleAmount(seed: string, index: number): string {
  let hash = 2166136261;
  for (const char of `${seed}#${index}`) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619);
  const amount = 20_000_000 + ((hash >>> 0) % 180_000_000);
  return `$${amount.toLocaleString('en-US')}`;
}

/**
 * A one-page PDF clearly marked as a SAMPLE, for the demo seed and tests: one layout for every
 * category, with the title, period and sample figures varied. Built with the standard fonts (no
 * font file to embed) and without object streams, so a year of them takes well under a second.
 */
export async function makeSampleDisclosurePdf(
  category: DisclosureCategory,
  period: string,
): Promise<Uint8Array> {
  const pdf = await PDFDocument.create({ updateMetadata: false });
  pdf.setTitle(`${TITLES[category]} - ${period} (SAMPLE)`);
  pdf.setCreator(firm.displayName);
  const page = pdf.addPage([612, 792]);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const red = rgb(0.75, 0.1, 0.1);

  page.drawRectangle({ x: 40, y: 722, width: 532, height: 34, color: rgb(0.99, 0.92, 0.92) });
  page.drawText('SAMPLE DOCUMENT - demonstration data, not a regulatory filing', {
    x: 56,
    y: 735,
    size: 12,
    font: bold,
    color: red,
  });
  page.drawText(TITLES[category], { x: 56, y: 686, size: 17, font: bold });
  page.drawText(firm.displayName, { x: 56, y: 664, size: 12, font });
  page.drawText(periodLine(category, period), { x: 56, y: 646, size: 12, font });

  let y = 606;
  for (const [index, label] of (FIGURES[category] ?? []).entries()) {
    page.drawText(label, { x: 56, y, size: 11, font });
    const amount = sampleAmount(`${category}/${period}`, index);
    page.drawText(amount, { x: 540 - font.widthOfTextAtSize(amount, 11), y, size: 11, font });
    y -= 20;
  }
  page.drawText(
    'Every figure on this page is invented. A firm replaces these documents with its own.',
    { x: 56, y: y - 16, size: 10, font, color: red },
  );
  return pdf.save({ useObjectStreams: false });
}
