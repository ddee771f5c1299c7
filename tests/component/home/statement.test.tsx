import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import type { FundingPayment } from '../../../src/shared/api/statement';
import { StatementView } from '../../../src/web/pages/home/statement/StatementView';
import { statementFixture } from './statementFixture';

const SECTIONS = [
  'Account Summary',
  'Open Positions',
  'Trade Confirmations',
  'Collateral',
  'Collateral Transactions',
  'Fees',
  'Funding Payments',
];

/** The text of each cell of the row whose header or first cell reads `first`. */
function rowCells(table: HTMLElement, first: string): string[] {
  const row = within(table)
    .getAllByRole('row')
    .find((candidate) => candidate.querySelector('th, td')?.textContent === first);
  if (!row) throw new Error(`no row ${first}`);
  return [...row.querySelectorAll('th, td')].map((cell) => cell.textContent ?? '');
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('StatementView', () => {
  it('renders every section of the statement with its header', () => {
    render(<StatementView statement={statementFixture()} />);
    expect(screen.getByRole('heading', { name: 'Stone Capital LLC' })).toBeInTheDocument();
    expect(screen.getByText(/As of November 20, 2026/)).toBeInTheDocument();
    for (const title of SECTIONS) {
      expect(screen.getByRole('region', { name: title })).toBeInTheDocument();
    }
    expect(screen.getByRole('heading', { name: 'Account EXT-1' })).toBeInTheDocument();
    expect(screen.getByText(/Clearing account ID CA-1/)).toBeInTheDocument();
  });

  it('formats money with thousands separators, 2 decimals at least and minus signs', () => {
    render(<StatementView statement={statementFixture()} />);
    const cash = screen.getByRole('table', { name: 'Cash by origin, account EXT-1' });
    expect(rowCells(cash, 'Customer Segregated')).toEqual([
      'Customer Segregated',
      '1,234,567.50',
      '-25,000.00',
      '1,209,567.50',
    ]);
    const equity = screen.getByRole('table', { name: 'Equity and margin, account EXT-1' });
    expect(rowCells(equity, 'Purchases and sales')).toEqual(['Purchases and sales', '-695.00']);
    expect(rowCells(equity, 'Net liquidating value')[1]).toBe('1,215,542.30');
    expect(rowCells(equity, 'Margin excess')[1]).toBe('1,130,442.30');
    for (const label of ['Long option value', 'Short option value', 'Open trade equity']) {
      expect(rowCells(equity, label)).toHaveLength(2);
    }
    expect(rowCells(equity, 'Initial margin')[1]).toBe('85,100.00');
    expect(rowCells(equity, 'Maintenance margin')[1]).toBe('76,590.00');
    const accountFees = screen.getByRole('table', { name: 'Fees, account EXT-1' });
    expect(rowCells(accountFees, 'Exchange')[1]).toBe('-1,053.50');
    expect(rowCells(accountFees, 'Total fees')[1]).toBe('-1,074.90');
    // Numeric columns are right-aligned.
    expect(within(cash).getByText('1,234,567.50')).toHaveClass('MuiTableCell-alignRight');
  });

  it('shows open positions with a Long or Short tag beside the quantity', () => {
    render(<StatementView statement={statementFixture()} />);
    const positions = screen.getByRole('table', { name: 'Open Positions' });
    expect(
      within(positions)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Symbol', 'Settlement price', 'Net position', 'VWAP', 'Open trade equity (USD)']);
    expect(rowCells(positions, 'BTC-FUT')).toEqual([
      'BTC-FUT',
      '97,450',
      'Long3',
      '95,820',
      '4,890.00',
    ]);
    expect(rowCells(positions, 'HASH-PH-FUT')).toEqual([
      'HASH-PH-FUT',
      '52.35',
      'Short1,400',
      '53.10',
      '-300.00',
    ]);
    const long = within(positions).getByText('Long').closest('.MuiChip-root');
    const short = within(positions).getByText('Short').closest('.MuiChip-root');
    expect(long).toHaveClass('MuiChip-colorSuccess');
    expect(short).toHaveClass('MuiChip-colorError');
  });

  it('shows collateral from the cash by origin, with totals', () => {
    render(<StatementView statement={statementFixture()} />);
    const collateral = screen.getByRole('table', { name: 'Collateral' });
    expect(rowCells(collateral, 'EXT-1')).toEqual([
      'EXT-1',
      'CA-1',
      'Customer Segregated',
      '1,234,567.50',
      '-25,000.00',
      '1,209,567.50',
    ]);
    expect(rowCells(collateral, 'Total').at(-1)).toBe('1,209,567.50');
  });

  it('shows collateral transaction amounts with exactly 2 decimals', () => {
    render(<StatementView statement={statementFixture()} />);
    const table = screen.getByRole('table', { name: 'Collateral Transactions' });
    expect(rowCells(table, '2026-11-13 16:55:41')).toEqual([
      '2026-11-13 16:55:41',
      'Withdrawal',
      'Customer Segregated',
      'USD',
      '-10,000.00',
      'NCT-1',
    ]);
    // 1234.565 rounds half away from zero, on the string (a float would give 1,234.56).
    expect(rowCells(table, '2026-11-14 09:00:00')[4]).toBe('1,234.57');
    expect(within(table).getByRole('columnheader', { name: 'Time (UTC)' })).toBeInTheDocument();
  });

  it('shows fees per account and type with totals', () => {
    render(<StatementView statement={statementFixture()} />);
    const fees = screen.getByRole('table', { name: 'Fees' });
    expect(
      within(fees)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Account', 'Exchange', 'Clearing', 'Total (USD)']);
    expect(rowCells(fees, 'EXT-1')).toEqual(['EXT-1', '-1,053.50', '-21.40', '-1,074.90']);
  });

  it('lists funding payments per product', () => {
    render(<StatementView statement={statementFixture()} />);
    const region = screen.getByRole('region', { name: 'Funding Payments' });
    expect(within(region).getByRole('heading', { name: 'BTCUSD-PERP' })).toBeInTheDocument();
    const table = within(region).getByRole('table', { name: 'Funding payments, BTCUSD-PERP' });
    expect(rowCells(table, 'EXT-1')).toEqual([
      'EXT-1',
      '2026-11-17 16:00:00',
      '2026-11-18 00:00:00',
      '-12.18',
    ]);
    expect(screen.queryByText('No funding payments.')).not.toBeInTheDocument();
  });

  it.each<Record<string, FundingPayment[]>>([{}, { 'BTCUSD-PERP': [] }])(
    "says 'No funding payments.' when there are none (%j)",
    (payments) => {
      render(<StatementView statement={statementFixture({ perpsFundingPayments: payments })} />);
      const region = screen.getByRole('region', { name: 'Funding Payments' });
      expect(within(region).getByText('No funding payments.')).toBeInTheDocument();
      expect(within(region).queryByRole('table')).not.toBeInTheDocument();
    },
  );

  it('expands a trade to show its Fill ID and Execution ID', () => {
    render(<StatementView statement={statementFixture()} />);
    const trades = screen.getByRole('table', { name: 'Trade Confirmations' });
    expect(rowCells(trades, '')).toEqual([
      '',
      '2026-11-02 14:31:07',
      'BTC-FUT',
      'Buy',
      '2',
      '96,100',
      '192,200.00',
    ]);
    expect(screen.queryByText('NSF-7301845560')).not.toBeInTheDocument();
    const toggle = within(trades).getByRole('button', {
      name: 'Show IDs of the BTC-FUT trade at 2026-11-02 14:31:07 UTC',
    });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    fireEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByText('Fill ID')).toBeInTheDocument();
    expect(screen.getByText('NSF-7301845560')).toBeInTheDocument();
    expect(screen.getByText('Execution ID')).toBeInTheDocument();
    expect(screen.getByText('NSX-202611102-48213-A')).toBeInTheDocument();
    fireEvent.click(toggle);
    expect(screen.queryByText('NSF-7301845560')).not.toBeInTheDocument();
  });

  it("copies an ID to the clipboard and confirms 'Copied to Clipboard' for 500 ms", async () => {
    vi.useFakeTimers();
    const writeText = vi.fn().mockResolvedValue(undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    render(<StatementView statement={statementFixture()} />);
    fireEvent.click(screen.getByRole('button', { name: /^Show IDs of the BTC-FUT trade/ }));

    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Copy Fill ID' }));
    });
    expect(writeText).toHaveBeenCalledWith('NSF-7301845560');
    expect(screen.getByText('Copied to Clipboard')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(499));
    expect(screen.getByText('Copied to Clipboard')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByText('Copied to Clipboard')).not.toBeInTheDocument();

    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Copy Execution ID' }));
    });
    expect(writeText).toHaveBeenLastCalledWith('NSX-202611102-48213-A');
    expect(screen.getByText('Copied to Clipboard')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(500));
    expect(screen.queryByText('Copied to Clipboard')).not.toBeInTheDocument();
  });

  it('says so when the clipboard refuses', async () => {
    const writeText = vi.fn().mockRejectedValue(new Error('denied'));
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    render(<StatementView statement={statementFixture()} />);
    fireEvent.click(screen.getByRole('button', { name: /^Show IDs of the BTC-FUT trade/ }));
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Copy Fill ID' }));
    });
    expect(screen.getByText(/Could not copy/)).toBeInTheDocument();
    expect(screen.queryByText('Copied to Clipboard')).not.toBeInTheDocument();
  });
});
