import type pg from 'pg';
import { PDFDocument } from 'pdf-lib';
import type { ServerConfig } from '../config';
import { lockForTransaction, withTransaction } from '../db/transaction';
import { badRequest } from '../errors';
import {
  DISCLOSURE_CATEGORIES,
  DISCLOSURE_PERIOD_KIND,
  disclosurePath,
  isDisclosureCategory,
  isDisclosurePeriod,
  type DisclosureCategory,
} from '../../shared/api/disclosures';
import { hasCurrentDisclosure, insertDisclosure, type DisclosureRow } from '../db/disclosures';
import { utcToday } from './listing';
import { sha256Hex, writeDisclosureFile } from './storage';

/** Larger than any real disclosure (a few pages of figures); bounds what the server reads. */
export const MAX_DISCLOSURE_BYTES = 20 * 1024 * 1024;

const PERIOD_EXAMPLE = { day: '2026-03-31', month: '2026-03', year: '2025' } as const;

interface PublishDisclosureInput {
  category: string;
  /** `yyyy-MM-dd` (daily segregation, firm disclosure), `yyyy-MM` (month-ends), `yyyy` (audited). */
  period: string;
  pdfBytes: Uint8Array;
  /** Who publishes: a staff user's id, or `cli:<operator>`. Recorded with the document. */
  publishedBy: string;
}

interface PublishedDisclosure {
  category: DisclosureCategory;
  period: string;
  /** The document's public URL path. */
  path: string;
  publishedAt: Date;
  /** Whether an earlier document of the same period was replaced (a correction). */
  replaced: boolean;
}

/**
 * Publishes a disclosure PDF for the operator CLI and the staff console: checks the category,
 * the period (well-formed, not in the future) and that the bytes parse as an unencrypted PDF
 * with pages, stores it, and makes it the current document of its period (an earlier one is
 * kept, superseded). Bad input throws a 400 ClientError whose message says what to fix.
 */
export async function publishDisclosure(
  pool: pg.Pool,
  _config: Pick<ServerConfig, 'dataDir'>,
  input: PublishDisclosureInput,
  now: Date = new Date(),
): Promise<PublishedDisclosure> {
  const category = checkCategory(input.category);
  const period = checkPeriod(category, input.period, now);
  const publishedBy = input.publishedBy.trim();
  if (!publishedBy) throw badRequest('Say who publishes the disclosure.');
  await checkPdf(input.pdfBytes);

  return await withTransaction(pool, async (client) => {
    // The bytes go into the database with the row: both commit, or neither.
    const storageName = await writeDisclosureFile(client, input.pdfBytes);
    // Two publications of one period at once: the second waits, then supersedes the first.
    await lockForTransaction(client, `disclosure:${category}:${period}`);
    const superseded = await hasCurrentDisclosure(client, category, period);
    const row = await insertDisclosure(client, {
      category,
      period,
      storageName,
      size: input.pdfBytes.byteLength,
      sha256: sha256Hex(input.pdfBytes),
      publishedBy,
    });
    return toPublished(row, superseded);
  });
}

function toPublished(row: DisclosureRow, replaced: boolean): PublishedDisclosure {
  return {
    category: row.category,
    period: row.period,
    path: disclosurePath(row.category, row.period),
    publishedAt: row.publishedAt,
    replaced,
  };
}

function checkCategory(category: string): DisclosureCategory {
  if (!isDisclosureCategory(category)) {
    throw badRequest(
      `Unknown disclosure category "${category}". Use one of: ${DISCLOSURE_CATEGORIES.join(', ')}.`,
    );
  }
  return category;
}

function checkPeriod(category: DisclosureCategory, period: string, now: Date): string {
  const kind = DISCLOSURE_PERIOD_KIND[category];
  if (!isDisclosurePeriod(category, period)) {
    throw badRequest(
      `The period of a ${category} document is a ${kind} written like ${PERIOD_EXAMPLE[kind]}.`,
    );
  }
  // Compare as text: ISO dates of one length sort like the dates they name.
  if (period > utcToday(now).slice(0, period.length)) {
    throw badRequest(`The period ${period} has not begun yet.`);
  }
  return period;
}

/**
 * docs/decisions.md, Upload limits: `%PDF-` at offset 0 is not enough; the document must load and
 * have pages.
 */
async function checkPdf(bytes: Uint8Array): Promise<void> {
  if (bytes.byteLength === 0) throw badRequest('The disclosure file is empty.');
  if (bytes.byteLength > MAX_DISCLOSURE_BYTES) {
    throw badRequest('The disclosure file is too large (20 MB at most).');
  }
  const header = Buffer.from(bytes.subarray(0, 5)).toString('latin1');
  let pages = 0;
  if (header === '%PDF-') {
    try {
      // Encrypted PDFs refuse to load: the public could not open them.
      const document = await PDFDocument.load(bytes, {
        updateMetadata: false,
        throwOnInvalidObject: true,
      });
      pages = document.getPageCount();
    } catch {
      pages = 0;
    }
  }
  if (pages === 0) throw badRequest('The disclosure file is not a readable PDF.');
}
