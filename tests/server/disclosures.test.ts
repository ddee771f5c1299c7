import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PDFDocument } from 'pdf-lib';
import { ClientError } from '../../src/server/errors';
import { publishDisclosure } from '../../src/server/disclosures/publish';
import { makeSampleDisclosurePdf } from '../../src/server/disclosures/samplePdf';
import { seedDisclosures } from '../../src/server/seed/disclosures';
import type { DisclosureCategory, DisclosuresResponse } from '../../src/shared/api/disclosures';
import { createTestApp, type TestApp } from './testApp';

const LISTING = '/clearing/api/web/disclosures';
const day = (offsetDays: number, from = new Date()) =>
  new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate() + offsetDays))
    .toISOString()
    .slice(0, 10);
/** The `n`-th day of the month `monthsBack` months before the current one (0 = last day). */
const dayOfMonth = (monthsBack: number, n: number) => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - monthsBack, n))
    .toISOString()
    .slice(0, 10);
};

describe('regulatory disclosures', () => {
  let t: TestApp;
  const publish = async (category: DisclosureCategory, period: string, bytes?: Uint8Array) =>
    publishDisclosure(t.pool, t.config, {
      category,
      period,
      pdfBytes: bytes ?? (await makeSampleDisclosurePdf(category, period)),
      publishedBy: 'cli:test',
    });
  /** No cookies, no session: the pages are public (business §6). */
  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers });

  // Both sides of a month boundary, two months back (always in the past and in the window).
  const lastDayOfEarlierMonth = dayOfMonth(1, 0);
  const firstDayOfLaterMonth = dayOfMonth(1, 1);
  const yesterday = day(-1);
  const thirteenMonthsAgo = dayOfMonth(13, 15);

  beforeAll(async () => {
    t = await createTestApp();
    for (const period of [lastDayOfEarlierMonth, firstDayOfLaterMonth, yesterday]) {
      await publish('daily-segregation', period);
    }
    await publish('daily-segregation', thirteenMonthsAgo);
    for (const period of ['2025-01', '2025-03', '2025-02'])
      await publish('capital-summary', period);
    for (let month = 1; month <= 12; month += 1) {
      await publish('monthly-segregation', `2024-${String(month).padStart(2, '0')}`);
    }
    await publish('monthly-segregation', '2025-01');
    await publish('audited-financial', '2023');
    await publish('audited-financial', '2024');
    await publish('firm-disclosure', '2025-06-30');
  });
  afterAll(async () => t?.close());

  it('lists every category in the agreed shape, newest first, daily grouped by month', async () => {
    const response = await get(LISTING);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const body = response.json<DisclosuresResponse>();

    const daily = (period: string) => ({
      dailyDisclosureDay: period,
      dailyDisclosurePath: `/clearing/disclosures/daily-segregation/${period}.pdf`,
    });
    const allDays = body.dailySegregation.flatMap((group) => group.days);
    // Older than the current 12 months: stored, but not listed.
    expect(allDays).toEqual([yesterday, firstDayOfLaterMonth, lastDayOfEarlierMonth].map(daily));
    for (const group of body.dailySegregation) {
      for (const entry of group.days)
        expect(entry.dailyDisclosureDay.slice(0, 7)).toBe(group.month);
    }
    // The two sides of the boundary sit in different groups, the later month first.
    const months = body.dailySegregation.map((group) => group.month);
    expect(months.indexOf(firstDayOfLaterMonth.slice(0, 7))).toBeLessThan(
      months.indexOf(lastDayOfEarlierMonth.slice(0, 7)),
    );
    expect(new Set(months).size).toBe(months.length);

    expect(body.capitalSummary).toEqual(
      ['2025-03', '2025-02', '2025-01'].map((month) => ({
        monthlyDisclosureMonth: month,
        monthlyDisclosurePath: `/clearing/disclosures/capital-summary/${month}.pdf`,
      })),
    );
    // The 12 latest month-ends: 2024-01 falls off once 2025-01 is published.
    expect(body.monthlySegregation).toHaveLength(12);
    expect(body.monthlySegregation[0]?.monthlyDisclosureMonth).toBe('2025-01');
    expect(body.monthlySegregation.at(-1)?.monthlyDisclosureMonth).toBe('2024-02');
    // The latest certified annual statement only.
    expect(body.auditedFinancial).toEqual([
      {
        yearlyDisclosureYear: '2024',
        yearlyDisclosurePath: '/clearing/disclosures/audited-financial/2024.pdf',
      },
    ]);
    expect(body.firmDisclosure).toEqual({
      firmDisclosureDate: '2025-06-30',
      firmDisclosurePath: '/clearing/disclosures/firm-disclosure/2025-06-30.pdf',
      firmDisclosureLatestPath: '/clearing/disclosures/firm-disclosure/latest.pdf',
    });
  });

  /**
   * Waits until every notification committed so far has reached this instance: PostgreSQL
   * delivers them in commit order, so once a probe sent now arrives, the publications of
   * `beforeAll` (on a loaded machine, still in flight) can no longer invalidate the cache.
   */
  async function notificationsDelivered() {
    const channel = `test_probe_${Math.floor(Math.random() * 1e9)}`;
    await new Promise<void>((resolve, reject) => {
      t.app.notifications
        .listen(channel, () => resolve())
        .then(() => t.pool.query(`select pg_notify('${channel}', '')`))
        .catch(reject);
    });
  }

  it('serves the listing from a cache with an ETag, rebuilt on every instance when a document is published', async () => {
    await notificationsDelivered();
    const first = await get(LISTING);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await get(LISTING, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');

    // A row written without telling anyone (triggers off in this session) is not seen: cached.
    const quiet = await t.pool.connect();
    try {
      await quiet.query('set session_replication_role = replica');
      await quiet.query(
        `insert into disclosure_documents (category, period, storage_name, size, sha256, published_by)
         select category, '2023-06-01', md5(random()::text), size, sha256, 'quiet'
           from disclosure_documents where category = 'capital-summary' limit 1`,
      );
    } finally {
      await quiet.query('set session_replication_role = origin');
      quiet.release();
    }
    expect((await get(LISTING)).headers.etag).toBe(etag);

    // A publication by anyone on the database (here the CLI's function, not this app) notifies
    // every instance; the next listing has both new periods and a new ETag.
    await publish('capital-summary', '2023-07');
    let listing = await get(LISTING);
    for (let i = 0; i < 100 && listing.headers.etag === etag; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      listing = await get(LISTING);
    }
    expect(listing.headers.etag).not.toBe(etag);
    const months = listing
      .json<DisclosuresResponse>()
      .capitalSummary.map((m) => m.monthlyDisclosureMonth);
    expect(months).toEqual(expect.arrayContaining(['2023-06', '2023-07']));
    expect((await get(LISTING, { 'if-none-match': etag })).statusCode).toBe(200);
    await t.pool.query(
      "delete from disclosure_documents where category = 'capital-summary' and period < '2024-01-01'",
    );
  });

  it('sends the listing compressed once as the browser asks (brotli, gzip), never compressed twice', async () => {
    const plain = await get(LISTING);
    const browser = { 'accept-encoding': 'gzip, deflate, br, zstd' };
    const br = await get(LISTING, browser);
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('accept-encoding');
    expect(br.headers['cache-control']).toBe('public, max-age=60');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length);
    // Each encoding its own strong tag; a reload naming it is a 304.
    expect(br.headers.etag).not.toBe(plain.headers.etag);
    const reload = await get(LISTING, { ...browser, 'if-none-match': br.headers.etag as string });
    expect(reload.statusCode).toBe(304);
    const gzip = await get(LISTING, { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toBe(plain.body);
  });

  it('answers an empty listing when nothing is published', async () => {
    const empty = await createTestApp();
    try {
      const response = await empty.app.inject({ method: 'GET', url: LISTING });
      expect(response.json()).toEqual({
        firmDisclosure: null,
        dailySegregation: [],
        capitalSummary: [],
        monthlySegregation: [],
        auditedFinancial: [],
      });
      const latest = await empty.app.inject({
        method: 'GET',
        url: '/clearing/disclosures/capital-summary/latest.pdf',
      });
      expect(latest.statusCode).toBe(404);
    } finally {
      await empty.close();
    }
  });

  it('serves a stored PDF inline, publicly, with nosniff', async () => {
    const response = await get(`/clearing/disclosures/daily-segregation/${yesterday}.pdf`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe(
      `inline; filename="daily-segregation-${yesterday}.pdf"`,
    );
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const document = await PDFDocument.load(response.rawPayload);
    expect(document.getTitle()).toContain(yesterday);
    expect(document.getTitle()).toContain('SAMPLE');
    // No session was made to read it.
    expect(response.cookies.map((cookie) => cookie.name)).not.toContain('clearing_session');
  });

  it('answers 304 when the browser already holds the same document', async () => {
    const url = '/clearing/disclosures/audited-financial/2024.pdf';
    const first = await get(url);
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[a-f0-9]{64}"$/);
    expect((await get(url, { 'if-none-match': etag })).statusCode).toBe(304);
  });

  it('serves latest.pdf as the newest period of the category, not the last published', async () => {
    const latest = await get('/clearing/disclosures/capital-summary/latest.pdf');
    expect(latest.statusCode).toBe(200);
    expect(latest.headers['content-disposition']).toBe(
      'inline; filename="capital-summary-2025-03.pdf"',
    );
    expect(latest.headers['cache-control']).toBe('no-cache');
    const march = await get('/clearing/disclosures/capital-summary/2025-03.pdf');
    expect(latest.rawPayload.equals(march.rawPayload)).toBe(true);

    const firm = await get('/clearing/disclosures/firm-disclosure/latest.pdf');
    expect(firm.statusCode).toBe(200);
    expect(firm.headers['content-type']).toBe('application/pdf');
  });

  it('replaces a period on a correction, keeping the earlier document on record', async () => {
    const before = await get('/clearing/disclosures/capital-summary/2025-02.pdf');
    const corrected = await makeSampleDisclosurePdf('capital-summary', '2025-02');
    const document = await PDFDocument.load(corrected);
    document.setTitle('Corrected capital summary 2025-02');
    const bytes = await document.save({ useObjectStreams: false });
    const result = await publish('capital-summary', '2025-02', bytes);
    expect(result).toMatchObject({
      category: 'capital-summary',
      period: '2025-02',
      path: '/clearing/disclosures/capital-summary/2025-02.pdf',
      replaced: true,
    });
    const after = await get('/clearing/disclosures/capital-summary/2025-02.pdf');
    expect(after.rawPayload.equals(Buffer.from(bytes))).toBe(true);
    expect(after.rawPayload.equals(before.rawPayload)).toBe(false);
    const { rows } = await t.pool.query(
      `select superseded_at is not null as superseded, published_by
         from disclosure_documents where category = 'capital-summary' and period = '2025-02-01'
        order by published_at`,
    );
    expect(rows).toEqual([
      { superseded: true, published_by: 'cli:test' },
      { superseded: false, published_by: 'cli:test' },
    ]);
    const listing = (await get(LISTING)).json<DisclosuresResponse>();
    expect(listing.capitalSummary).toHaveLength(3);
  });

  it.each([
    '/clearing/disclosures/quarterly-report/latest.pdf',
    '/clearing/disclosures/daily-segregation/1999-01-04.pdf',
    '/clearing/disclosures/daily-segregation/2025-02-30.pdf',
    '/clearing/disclosures/daily-segregation/2025-03.pdf',
    '/clearing/disclosures/capital-summary/2025-03-31.pdf',
    '/clearing/disclosures/capital-summary/latest.txt',
    '/clearing/disclosures/capital-summary/latest',
    '/clearing/disclosures/audited-financial/..%2F..%2Fetc%2Fpasswd.pdf',
    '/clearing/disclosures/audited-financial/2024.pdf/extra',
    '/clearing/disclosures/audited-financial',
  ])('answers 404 JSON for %s', async (url) => {
    const response = await get(url);
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.json()).toEqual({ errorMessage: 'Not found.', code: 'not_found' });
  });

  describe('publishDisclosure refuses', () => {
    const refuses = async (
      input: Partial<Parameters<typeof publishDisclosure>[2]>,
      message: RegExp,
    ) => {
      const attempt = publishDisclosure(t.pool, t.config, {
        category: 'capital-summary',
        period: '2025-04',
        pdfBytes: await makeSampleDisclosurePdf('capital-summary', '2025-04'),
        publishedBy: 'cli:test',
        ...input,
      });
      await expect(attempt).rejects.toBeInstanceOf(ClientError);
      await expect(attempt).rejects.toMatchObject({ statusCode: 400, message });
    };

    it('bytes that are not a PDF', async () => {
      await refuses({ pdfBytes: Buffer.from('hello, not a pdf') }, /not a readable PDF/);
      await refuses({ pdfBytes: Buffer.from('%PDF-1.7\n garbage %%EOF') }, /not a readable PDF/);
      await refuses({ pdfBytes: new Uint8Array() }, /empty/);
    });

    it('an unknown category, a malformed or future period, no publisher', async () => {
      await refuses({ category: 'weekly-segregation' }, /Unknown disclosure category/);
      await refuses({ period: '2025-04-30' }, /month written like 2026-03/);
      await refuses({ category: 'daily-segregation', period: '2025-02-29' }, /day written/);
      await refuses({ category: 'audited-financial', period: '25' }, /year written like/);
      await refuses({ category: 'daily-segregation', period: day(1) }, /has not begun/);
      await refuses({ publishedBy: '  ' }, /who publishes/);
    });

    it('and leaves nothing behind when it does', async () => {
      const count = async () =>
        (
          await t.pool.query<{ documents: number; files: number }>(
            `select (select count(*)::int from disclosure_documents) as documents,
                    (select count(*)::int from stored_files) as files`,
          )
        ).rows[0];
      const before = await count();
      await refuses({ pdfBytes: Buffer.from('nope') }, /not a readable PDF/);
      expect(await count()).toEqual(before);
      expect(fs.existsSync(path.join(t.config.dataDir, 'disclosures'))).toBe(false);
    });
  });

  // How fast it is belongs to the bench, not here.
  it('the demo seed publishes a year of samples once', async () => {
    const seeded = await createTestApp();
    try {
      const now = new Date('2026-05-14T09:00:00Z');
      const count = await seedDisclosures(seeded.pool, seeded.config, now);
      // 2025-05-15 .. 2026-05-13 has 260 weekdays; 12 + 12 month-ends; 1 audited; 1 firm.
      expect(count).toBe(260 + 24 + 2);
      expect(await seedDisclosures(seeded.pool, seeded.config, now)).toBe(0);

      const { rows } = await seeded.pool.query<{ category: string; first: string; last: string }>(
        `select category, to_char(min(period), 'YYYY-MM-DD') as first,
                to_char(max(period), 'YYYY-MM-DD') as last
           from disclosure_documents group by category order by category`,
      );
      expect(rows).toEqual([
        { category: 'audited-financial', first: '2025-01-01', last: '2025-01-01' },
        { category: 'capital-summary', first: '2025-05-01', last: '2026-04-01' },
        { category: 'daily-segregation', first: '2025-05-15', last: '2026-05-13' },
        { category: 'firm-disclosure', first: '2026-01-02', last: '2026-01-02' },
        { category: 'monthly-segregation', first: '2025-05-01', last: '2026-04-01' },
      ]);
      const weekend = await seeded.pool.query(
        `select 1 from disclosure_documents
          where category = 'daily-segregation' and extract(isodow from period) > 5`,
      );
      expect(weekend.rowCount).toBe(0);
      const sample = await seeded.app.inject({
        method: 'GET',
        url: '/clearing/disclosures/daily-segregation/latest.pdf',
      });
      expect(sample.headers['content-disposition']).toContain('2026-05-13');
      expect((await PDFDocument.load(sample.rawPayload)).getTitle()).toContain('SAMPLE');
    } finally {
      await seeded.close();
    }
  });
});
