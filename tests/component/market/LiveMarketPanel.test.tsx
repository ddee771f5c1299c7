import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, render, screen, within } from '@testing-library/react';
import type { MarketClientMessage, MarketServerMessage } from '../../../src/shared/api/market';
import { LiveMarketPanel } from '../../../src/web/market/LiveMarketPanel';
import { MarketStream, type StreamSocket } from '../../../src/web/market/marketStream';
import { MarketStreamProvider } from '../../../src/web/market/MarketStreamProvider';

/** A socket that stays connecting until opened by hand: the test feeds the store itself. */
function silentSocket(sent: MarketClientMessage[]): StreamSocket & { readyState: number } {
  return {
    readyState: 0,
    send: (data) => sent.push(JSON.parse(data) as MarketClientMessage),
    close: () => {},
    onopen: null,
    onmessage: null,
    onclose: null,
    onerror: null,
  };
}

let stream: MarketStream;
let sent: MarketClientMessage[];
let socket: ReturnType<typeof silentSocket> | undefined;

beforeEach(() => {
  sent = [];
  socket = undefined;
  stream = new MarketStream({
    url: () => 'ws://localhost/x',
    createSocket: () => (socket = silentSocket(sent)),
  });
});
afterEach(() => stream.close());

const feed = (...messages: MarketServerMessage[]) =>
  act(() => {
    for (const message of messages) stream.dispatch(message);
  });

const trade = (n: number, symbol: string, price: number, side: 'Bid' | 'Ask' = 'Bid') =>
  ({
    type: 'trade',
    symbol,
    price,
    quantity: n,
    taker_side: side,
    timestamp: `2026-03-04T10:11:${String(n).padStart(2, '0')}.000Z`,
    ack_id: n,
  }) satisfies MarketServerMessage;

function renderPanel() {
  return render(
    <MarketStreamProvider stream={stream}>
      <LiveMarketPanel />
    </MarketStreamProvider>,
  );
}

describe('LiveMarketPanel', () => {
  it('shows best bid and ask per product, updated by levels', () => {
    renderPanel();
    expect(screen.getByRole('region', { name: 'Live market' })).toBeInTheDocument();
    feed({
      type: 'book',
      symbol: 'BTC-FUT',
      bids: [
        [97_245, 3],
        [97_250, 12],
      ],
      asks: [
        [97_260, 1_500],
        [97_255, 4],
      ],
    });
    const top = screen.getByRole('table', { name: 'Best bid and ask' });
    const row = within(top).getByRole('row', { name: /Bitcoin Futures BTC-FUT/ });
    const cells = within(row).getAllByRole('cell');
    expect(cells[0]).toHaveTextContent('97,250 (12)');
    expect(cells[1]).toHaveTextContent('97,255 (4)');

    feed({
      type: 'level',
      symbol: 'BTC-FUT',
      side: 'Ask',
      price: 97_255,
      quantity: 0,
      ack_id: 9,
      timestamp: '2026-03-04T10:11:12.000Z',
    });
    expect(within(row).getAllByRole('cell')[1]).toHaveTextContent('97,260 (1,500)');
    // Products without a book show a dash.
    const hash = within(top).getByRole('row', { name: /Hashrate Petahash Futures/ });
    expect(within(hash).getAllByRole('cell')[0]).toHaveTextContent('—');
  });

  it('lists recent trades per product, newest first, with decimals of the product', () => {
    renderPanel();
    feed(
      trade(1, 'HASH-PH-FUT', 52.4),
      trade(2, 'HASH-PH-FUT', 52.41, 'Ask'),
      trade(3, 'BTC-FUT', 97_250),
    );
    const hash = screen.getByRole('table', { name: 'Recent trades: Hashrate Petahash Futures' });
    const rows = within(hash).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.textContent)).toEqual(['10:11:02Sell52.412', '10:11:01Buy52.401']);
    const btc = screen.getByRole('table', { name: 'Recent trades: Bitcoin Futures' });
    expect(within(btc).getAllByRole('row')).toHaveLength(2);
    expect(within(btc).getByText('97,250')).toBeInTheDocument();
    const perp = screen.getByRole('table', {
      name: 'Recent trades: Perpetual Bitcoin Centi Futures',
    });
    expect(within(perp).getByText('No trades yet.')).toBeInTheDocument();
    // Last price in the top table.
    const top = screen.getByRole('table', { name: 'Best bid and ask' });
    const row = within(top).getByRole('row', { name: /Hashrate Petahash Futures/ });
    expect(within(row).getAllByRole('cell')[2]).toHaveTextContent('52.41');
  });

  it('shows at most 5 trades per product', () => {
    renderPanel();
    feed(...Array.from({ length: 8 }, (_, i) => trade(i + 1, 'DBTC-FUT', 97_000 + i)));
    const table = screen.getByRole('table', { name: 'Recent trades: Deci Bitcoin Futures' });
    expect(within(table).getAllByRole('row')).toHaveLength(6);
    expect(within(table).getAllByRole('row')[1]).toHaveTextContent('97,007');
  });

  it('marks a closed product and drops its book', () => {
    renderPanel();
    feed(
      { type: 'book', symbol: 'BTC-FUT', bids: [[97_250, 1]], asks: [[97_255, 1]] },
      { type: 'status', symbol: 'BTC-FUT', status: 'Close' },
    );
    const row = screen.getByRole('row', { name: /Bitcoin Futures BTC-FUT/ });
    expect(within(row).getByText('Closed')).toBeInTheDocument();
    expect(within(row).getAllByRole('cell')[0]).toHaveTextContent('—');
  });

  it('announces only the connection state, politely', () => {
    renderPanel();
    const status = screen.getByRole('status');
    expect(status).toHaveTextContent('Connecting…');
    feed(trade(1, 'BTC-FUT', 97_250));
    expect(screen.getAllByRole('status')).toHaveLength(1);
    act(() => stream.dispatch({ type: 'connection', state: 'reconnecting' }));
    expect(status).toHaveTextContent('Connection lost, reconnecting…');
  });

  it('subscribes to every product on every channel once connected', () => {
    renderPanel();
    expect(stream.getState().connection).toBe('connecting');
    expect(sent).toEqual([]);
    act(() => {
      socket!.readyState = 1;
      socket!.onopen?.({});
    });
    expect(screen.getByRole('status')).toHaveTextContent('Live');
    const codes = ['BTC-FUT', 'DBTC-FUT', 'BTCUSD-PERP', 'HASH-PH-FUT'];
    expect(sent).toEqual(
      ['trades', 'book', 'status'].map((channel) => ({
        type: 'subscribe',
        product_codes: codes,
        channels: [channel],
      })),
    );
  });
});
