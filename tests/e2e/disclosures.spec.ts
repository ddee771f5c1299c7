import { expect, expectNoSeriousA11yViolations, test } from './support';

const CATEGORIES = [
  'firm-disclosure',
  'daily-segregation',
  'capital-summary',
  'monthly-segregation',
  'audited-financial',
];

test.describe('regulatory disclosures (public)', () => {
  test('the index links every category', async ({ page }) => {
    await page.goto('/clearing/regulation/disclosures');
    await expect(
      page.getByRole('heading', { name: 'Regulatory Disclosures', level: 1 }),
    ).toBeVisible();
    const latest = (category: string) => `/clearing/disclosures/${category}/latest.pdf`;
    await expect(page.getByRole('link', { name: 'Firm Disclosure', exact: true })).toHaveAttribute(
      'href',
      latest('firm-disclosure'),
    );
    await expect(page.getByRole('link', { name: 'Capital Summary' })).toHaveAttribute(
      'href',
      latest('capital-summary'),
    );
    await expect(page.getByRole('link', { name: 'Audited Financial' })).toHaveAttribute(
      'href',
      latest('audited-financial'),
    );
    await expect(page.getByRole('link', { name: 'Daily Segregation' })).toHaveAttribute(
      'href',
      '/clearing/regulation/disclosures/daily-segregation',
    );
    await expect(page.getByRole('link', { name: 'Monthly Segregation' })).toHaveAttribute(
      'href',
      '/clearing/regulation/disclosures/monthly-segregation',
    );
    await expectNoSeriousA11yViolations(page);
  });

  test('daily segregation groups the sample days by month; a month expands to its days', async ({
    page,
  }) => {
    await page.goto('/clearing/regulation/disclosures');
    await page.getByRole('link', { name: 'Daily Segregation' }).click();
    await expect(
      page.getByRole('heading', { level: 1, name: /^Customer Funds Computations for current/ }),
    ).toBeVisible();
    const months = page.getByRole('button', { name: /^[A-Z][a-z]+ \d{4}$/ });
    await expect(months.first()).toBeVisible();
    // A year of samples: 12 or 13 months (the current month once it has a business day).
    expect(await months.count()).toBeGreaterThanOrEqual(12);
    const month = months.first();
    const heading = (await month.textContent())!;
    await expect(month).toHaveAttribute('aria-expanded', 'false');
    await month.click();
    await expect(month).toHaveAttribute('aria-expanded', 'true');
    const days = page
      .getByRole('list', { name: `Daily statements of ${heading}` })
      .getByRole('link');
    await expect(days.first()).toHaveText(/^\d{4}-\d{2}-\d{2}$/);
    const href = await days.first().getAttribute('href');
    expect(href).toMatch(/^\/clearing\/disclosures\/daily-segregation\/\d{4}-\d{2}-\d{2}\.pdf$/);
    expect(await days.first().getAttribute('target')).toBe('_blank');
    const pdf = await page.request.get(href!);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()['content-type']).toContain('application/pdf');
    await expectNoSeriousA11yViolations(page);
  });

  test("monthly segregation lists the month-ends as 'yyyy-MM'", async ({ page }) => {
    await page.goto('/clearing/regulation/disclosures/monthly-segregation');
    const links = page.getByRole('list', { name: 'Month-end documents' }).getByRole('link');
    await expect(links).toHaveCount(12);
    for (const text of await links.allTextContents()) expect(text).toMatch(/^\d{4}-\d{2}$/);
    expect(await links.first().getAttribute('href')).toMatch(
      /^\/clearing\/disclosures\/monthly-segregation\/\d{4}-\d{2}\.pdf$/,
    );
  });

  test('every category answers latest.pdf as a PDF', async ({ request }) => {
    for (const category of CATEGORIES) {
      const response = await request.get(`/clearing/disclosures/${category}/latest.pdf`);
      expect(response.status(), category).toBe(200);
      expect(response.headers()['content-type'], category).toContain('application/pdf');
      expect((await response.body()).subarray(0, 5).toString(), category).toBe('%PDF-');
    }
  });
});
