import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  DISCLOSURE_CATEGORIES,
  type DisclosureCategory,
} from '../../../src/shared/api/disclosures';
import { json, renderApp } from '../renderApp';
import { DISCLOSURES_KEY, EMPTY, LISTING, mockDisclosures } from './helpers';

/** The headings exactly as business §2.4 spells them (typed out, not imported). */
const HEADINGS: Record<DisclosureCategory, string> = {
  'firm-disclosure': 'Firm Disclosure - Rule 1.55(k)',
  'daily-segregation':
    'Customer Funds Computations for current 12 Month Period Persuant to CFTC Rule 1.55(o)(1)(i,ii,iii)',
  'capital-summary': 'Prior 12 month-end net capital History',
  'monthly-segregation':
    'Month-end Customer Funds Computations Pursuant to CFTC Rule 1.55(o)(1)(vi)',
  'audited-financial': 'Audited Financial Statement',
};

const page = (category: DisclosureCategory) => `/clearing/regulation/disclosures/${category}`;
const expectNewTabPdf = (link: HTMLElement, href: string) => {
  expect(link).toHaveAttribute('href', href);
  expect(link).toHaveAttribute('target', '_blank');
  expect(link).toHaveAttribute('rel', 'noopener noreferrer');
};

describe('regulatory disclosures pages (business §2.4)', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  describe('index', () => {
    it('lists the general and financial disclosures with the specified targets', async () => {
      const fetchMock = mockDisclosures(LISTING);
      const { router } = renderApp('/clearing/regulation/disclosures');
      expect(
        await screen.findByRole('heading', { level: 1, name: 'Regulatory Disclosures' }),
      ).toBeVisible();

      const general = screen.getByRole('region', { name: 'General Disclosures' });
      const firm = within(general).getByRole('link', { name: 'Firm Disclosure' });
      expect(firm).toHaveAttribute('href', '/clearing/disclosures/firm-disclosure/latest.pdf');
      expect(firm).not.toHaveAttribute('target');

      const financial = screen.getByRole('region', { name: 'Financial Disclosures' });
      expect(within(financial).getByRole('link', { name: 'Daily Segregation' })).toHaveAttribute(
        'href',
        '/clearing/regulation/disclosures/daily-segregation',
      );
      expect(within(financial).getByRole('link', { name: 'Monthly Segregation' })).toHaveAttribute(
        'href',
        '/clearing/regulation/disclosures/monthly-segregation',
      );
      expectNewTabPdf(
        within(financial).getByRole('link', { name: 'Capital Summary' }),
        '/clearing/disclosures/capital-summary/latest.pdf',
      );
      expectNewTabPdf(
        within(financial).getByRole('link', { name: 'Audited Financial' }),
        '/clearing/disclosures/audited-financial/latest.pdf',
      );
      // The index needs no listing.
      expect(fetchMock.mock.calls.map(([url]) => String(url))).not.toContain(
        '/clearing/api/web/disclosures',
      );

      // The list pages are in-app navigation.
      await userEvent.click(within(financial).getByRole('link', { name: 'Daily Segregation' }));
      await waitFor(() => expect(router.state.location.pathname).toBe(page('daily-segregation')));
      expect(
        await screen.findByRole('heading', { name: HEADINGS['daily-segregation'] }),
      ).toBeVisible();
    });
  });

  describe.each(DISCLOSURE_CATEGORIES)('%s', (category) => {
    it('shows its exact heading, then Loading... while the documents load', async () => {
      mockDisclosures(() => new Promise<Response>(() => {}));
      renderApp(page(category));
      expect(
        await screen.findByRole('heading', { level: 1, name: HEADINGS[category] }),
      ).toBeVisible();
      expect(screen.getByText('Loading...')).toBeVisible();
      expect(document.title).toContain(HEADINGS[category]);
    });

    it("says 'Error with loading documents' when the call fails", async () => {
      mockDisclosures(() => json(500, { errorMessage: 'boom' }));
      renderApp(page(category));
      expect(await screen.findByText('Error with loading documents')).toBeVisible();
      expect(screen.queryByText('Loading...')).not.toBeInTheDocument();
      expect(screen.getByRole('heading', { name: HEADINGS[category] })).toBeVisible();
    });

    it("says 'No documents available yet.' when nothing is published", async () => {
      mockDisclosures(EMPTY);
      renderApp(page(category));
      expect(await screen.findByText('No documents available yet.')).toBeVisible();
      expect(screen.queryByRole('link', { name: /\.pdf|\d{4}/ })).not.toBeInTheDocument();
    });
  });

  it('fetches the listing from GET /clearing/api/web/disclosures without signing in', async () => {
    const fetchMock = mockDisclosures(LISTING);
    renderApp(page('capital-summary'));
    await screen.findByRole('link', { name: '2026-03' });
    const call = fetchMock.mock.calls.find(([url]) => String(url).includes('disclosures'));
    expect(call?.[0]).toBe('/clearing/api/web/disclosures');
    expect(call?.[1]?.method ?? 'GET').toBe('GET');
    expect(DISCLOSURES_KEY).toBe('GET /clearing/api/web/disclosures');
  });

  it.each([
    ['capital-summary', ['2026-03', '2026-02']],
    ['monthly-segregation', ['2026-03', '2026-02', '2026-01']],
  ] as const)('lists %s month-ends as yyyy-MM links opening the PDF', async (category, months) => {
    mockDisclosures(LISTING);
    renderApp(page(category));
    const list = await screen.findByRole('list', { name: 'Month-end documents' });
    const links = within(list).getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual(months);
    months.forEach((month, index) =>
      expectNewTabPdf(links[index]!, `/clearing/disclosures/${category}/${month}.pdf`),
    );
  });

  it('shows the latest audited year as one link', async () => {
    mockDisclosures(LISTING);
    renderApp(page('audited-financial'));
    const link = await screen.findByRole('link', { name: '2025' });
    expectNewTabPdf(link, '/clearing/disclosures/audited-financial/2025.pdf');
    expect(screen.queryByRole('link', { name: '2024' })).not.toBeInTheDocument();
  });

  it('links the firm disclosure in force', async () => {
    mockDisclosures(LISTING);
    renderApp(page('firm-disclosure'));
    const link = await screen.findByRole('link', { name: 'Firm Disclosure Document' });
    expectNewTabPdf(link, '/clearing/disclosures/firm-disclosure/latest.pdf');
    expect(screen.getByText('Effective January 2, 2026')).toBeVisible();
  });

  it('groups daily statements by month, collapsed until clicked, each day a PDF link', async () => {
    mockDisclosures(LISTING);
    renderApp(page('daily-segregation'));
    const april = await screen.findByRole('button', { name: 'April 2026' });
    const march = screen.getByRole('button', { name: 'March 2026' });
    // Newest month first; each month's button sits in a heading.
    expect(
      screen.getAllByRole('button', { name: /\d{4}$/ }).map((button) => button.textContent),
    ).toEqual(['April 2026', 'March 2026']);
    expect(screen.getByRole('heading', { level: 2, name: 'April 2026' })).toContainElement(april);
    expect(april).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('link', { name: '2026-04-01' })).not.toBeInTheDocument();

    await userEvent.click(april);
    expect(april).toHaveAttribute('aria-expanded', 'true');
    const region = screen.getByRole('region', { name: 'April 2026' });
    const links = within(region).getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual(['2026-04-02', '2026-04-01']);
    expectNewTabPdf(links[1]!, '/clearing/disclosures/daily-segregation/2026-04-01.pdf');
    expect(march).toHaveAttribute('aria-expanded', 'false');

    await userEvent.click(march);
    expect(
      within(screen.getByRole('region', { name: 'March 2026' })).getAllByRole('link'),
    ).toHaveLength(2);

    await userEvent.click(april);
    expect(april).toHaveAttribute('aria-expanded', 'false');
    await waitFor(() =>
      expect(screen.queryByRole('link', { name: '2026-04-01' })).not.toBeInTheDocument(),
    );
    expect(screen.getByRole('link', { name: '2026-03-31' })).toBeVisible();
  });
});
