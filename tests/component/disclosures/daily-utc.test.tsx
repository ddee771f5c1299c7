import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { format } from 'date-fns';
import { renderApp } from '../renderApp';
import { daily, EMPTY, mockDisclosures } from './helpers';

/**
 * Business §9: disclosure groupings are UTC. Run in zones on both sides of UTC, where local
 * formatting would move each entry into the other month: in New York 2026-04-01 (UTC midnight)
 * is still 31 March, and at Kiritimati (UTC+14) 2026-03-31T23:30Z is already 1 April.
 */
describe.each([
  { zone: 'America/New_York', localDayOf: '2026-04-01', wouldBe: '2026-03-31' },
  { zone: 'Pacific/Kiritimati', localDayOf: '2026-03-31T23:30:00Z', wouldBe: '2026-04-01' },
])('daily grouping in UTC, with the browser in $zone', ({ zone, localDayOf, wouldBe }) => {
  const original = process.env.TZ;
  beforeAll(() => {
    process.env.TZ = zone;
  });
  afterAll(() => {
    process.env.TZ = original;
  });
  afterEach(() => vi.unstubAllGlobals());

  it('really runs in that zone: local formatting would pick the other day', () => {
    expect(format(new Date(localDayOf), 'yyyy-MM-dd')).toBe(wouldBe);
  });

  it('puts 2026-03-31T23:30Z under March 2026 and 2026-04-01 under April 2026', async () => {
    // Even when the server put both in one group, the page follows each day's UTC date.
    mockDisclosures({
      ...EMPTY,
      dailySegregation: [
        { month: '2026-04', days: [daily('2026-04-01'), daily('2026-03-31T23:30:00Z')] },
      ],
    });
    renderApp('/clearing/regulation/disclosures/daily-segregation');
    const april = await screen.findByRole('button', { name: 'April 2026' });
    const march = screen.getByRole('button', { name: 'March 2026' });
    expect(screen.getAllByRole('button', { name: /2026$/ })).toEqual([april, march]);

    await userEvent.click(april);
    await userEvent.click(march);
    const inApril = within(screen.getByRole('region', { name: 'April 2026' })).getAllByRole('link');
    const inMarch = within(screen.getByRole('region', { name: 'March 2026' })).getAllByRole('link');
    expect(inApril.map((link) => link.textContent)).toEqual(['2026-04-01']);
    expect(inMarch.map((link) => link.textContent)).toEqual(['2026-03-31']);
    expect(inMarch[0]).toHaveAttribute(
      'href',
      '/clearing/disclosures/daily-segregation/2026-03-31.pdf',
    );
  });

  it('heads a month by its UTC month even for the first day at UTC midnight', async () => {
    mockDisclosures({
      ...EMPTY,
      dailySegregation: [{ month: '2026-01', days: [daily('2026-01-01')] }],
    });
    renderApp('/clearing/regulation/disclosures/daily-segregation');
    expect(await screen.findByRole('button', { name: 'January 2026' })).toBeVisible();
    expect(screen.queryByRole('button', { name: 'December 2025' })).not.toBeInTheDocument();
  });
});
