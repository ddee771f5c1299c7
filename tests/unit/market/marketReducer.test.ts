import { describe, expect, it } from 'vitest';
import type { BookMessage, LevelMessage, TradeMessage } from '../../../src/shared/api/market';
import {
  applyLevel,
  bestAsk,
  bestBid,
  initialMarketState,
  marketReducer,
  MAX_TRADES,
  type MarketAction,
  type MarketState,
} from '../../../src/web/market/marketReducer';

const book = (symbol = 'BTC-FUT'): BookMessage => ({
  type: 'book',
  symbol,
  bids: [
    [100, 5],
    [99, 3],
    [97, 1],
  ],
  asks: [
    [101, 2],
    [102, 4],
    [104, 6],
  ],
});

const level = (side: 'Bid' | 'Ask', price: number, quantity: number, symbol = 'BTC-FUT') =>
  ({
    type: 'level',
    symbol,
    side,
    price,
    quantity,
    ack_id: 1,
    timestamp: '2026-01-02T03:04:05.000Z',
  }) satisfies LevelMessage;

const trade = (n: number, symbol = 'BTC-FUT'): TradeMessage => ({
  type: 'trade',
  symbol,
  price: 100 + n,
  quantity: 1,
  taker_side: 'Bid',
  timestamp: '2026-01-02T03:04:05.000Z',
  ack_id: n,
});

const run = (...actions: MarketAction[]): MarketState =>
  actions.reduce(marketReducer, initialMarketState);

describe('market store reducer (specification §4)', () => {
  it('a book snapshot adds a book, sorted best first on both sides', () => {
    const state = run({
      type: 'book',
      symbol: 'BTC-FUT',
      bids: [
        [97, 1],
        [100, 5],
        [99, 3],
      ],
      asks: [
        [104, 6],
        [101, 2],
        [102, 4],
      ],
    });
    expect(state.books['BTC-FUT']).toEqual({
      symbol: 'BTC-FUT',
      bids: book().bids,
      asks: book().asks,
    });
    expect(bestBid(state.books['BTC-FUT'])).toEqual([100, 5]);
    expect(bestAsk(state.books['BTC-FUT'])).toEqual([101, 2]);
  });

  it('a second snapshot replaces that book and leaves the others', () => {
    const state = run(book('A'), book('B'), {
      type: 'book',
      symbol: 'A',
      bids: [[1, 1]],
      asks: [],
    });
    expect(state.books.A).toEqual({ symbol: 'A', bids: [[1, 1]], asks: [] });
    expect(state.books.B?.bids).toEqual(book().bids);
  });

  it('a level with quantity 0 removes that price', () => {
    const state = run(book(), level('Bid', 99, 0), level('Ask', 101, 0));
    expect(state.books['BTC-FUT']?.bids).toEqual([
      [100, 5],
      [97, 1],
    ]);
    expect(state.books['BTC-FUT']?.asks).toEqual([
      [102, 4],
      [104, 6],
    ]);
  });

  it('a level with quantity 0 for an absent price changes nothing', () => {
    const before = run(book());
    expect(marketReducer(before, level('Bid', 98, 0))).toBe(before);
  });

  it('a level at an existing price replaces its quantity', () => {
    const state = run(book(), level('Bid', 99, 30), level('Ask', 104, 60));
    expect(state.books['BTC-FUT']?.bids).toEqual([
      [100, 5],
      [99, 30],
      [97, 1],
    ]);
    expect(state.books['BTC-FUT']?.asks).toEqual([
      [101, 2],
      [102, 4],
      [104, 60],
    ]);
  });

  it('new bid levels keep bids in descending order: best, middle and worst', () => {
    const state = run(book(), level('Bid', 100.5, 7), level('Bid', 98, 2), level('Bid', 90, 9));
    expect(state.books['BTC-FUT']?.bids.map(([price]) => price)).toEqual([
      100.5, 100, 99, 98, 97, 90,
    ]);
  });

  it('new ask levels keep asks in ascending order: best, middle and worst', () => {
    const state = run(book(), level('Ask', 100.5, 7), level('Ask', 103, 2), level('Ask', 110, 9));
    expect(state.books['BTC-FUT']?.asks.map(([price]) => price)).toEqual([
      100.5, 101, 102, 103, 104, 110,
    ]);
  });

  it('adds levels to an emptied side, and ignores levels for a book it has no snapshot of', () => {
    const emptied = run(book(), level('Ask', 101, 0), level('Ask', 102, 0), level('Ask', 104, 0));
    expect(emptied.books['BTC-FUT']?.asks).toEqual([]);
    expect(marketReducer(emptied, level('Ask', 105, 1)).books['BTC-FUT']?.asks).toEqual([[105, 1]]);
    const before = run(book());
    expect(marketReducer(before, level('Bid', 1, 1, 'OTHER'))).toBe(before);
  });

  it('keeps order under many random updates (matches a sorted map)', () => {
    let random = 7;
    const next = () => (random = (random * 48271) % 2147483647) / 2147483647;
    let bids: readonly [number, number][] = [];
    const model = new Map<number, number>();
    for (let i = 0; i < 2000; i++) {
      const price = Math.floor(next() * 50);
      const quantity = next() < 0.3 ? 0 : Math.ceil(next() * 10);
      bids = applyLevel(bids, 'Bid', price, quantity);
      if (quantity === 0) model.delete(price);
      else model.set(price, quantity);
    }
    expect(bids).toEqual([...model].sort(([a], [b]) => b - a));
  });

  it('does not mutate the previous state', () => {
    const before = run(book());
    const bids = before.books['BTC-FUT']!.bids;
    marketReducer(before, level('Bid', 99.5, 1));
    expect(before.books['BTC-FUT']!.bids).toBe(bids);
    expect(bids).toHaveLength(3);
  });

  it('a status of Close removes that book only; Open is recorded', () => {
    const state = run(book('A'), book('B'), { type: 'status', symbol: 'A', status: 'Close' });
    expect(state.books.A).toBeUndefined();
    expect(state.books.B).toBeDefined();
    expect(state.statuses.A).toBe('Close');
    const reopened = marketReducer(state, { type: 'status', symbol: 'A', status: 'Open' });
    expect(reopened.statuses.A).toBe('Open');
    expect(reopened.books.A).toBeUndefined(); // the next snapshot brings it back
  });

  it('disconnect clears all books and trades', () => {
    const state = run(book('A'), book('B'), trade(1), trade(2), {
      type: 'disconnect',
      reason: 'server_shutdown',
      reconnect: true,
    });
    expect(state.books).toEqual({});
    expect(state.trades).toEqual([]);
  });

  it('keeps only the most recent 100 trades, newest first', () => {
    const actions = Array.from({ length: 130 }, (_, i) => trade(i + 1));
    const state = run(...actions);
    expect(MAX_TRADES).toBe(100);
    expect(state.trades).toHaveLength(100);
    expect(state.trades[0]?.ack_id).toBe(130);
    expect(state.trades[99]?.ack_id).toBe(31);
  });

  it('keeps block trades with the trades', () => {
    const state = run(trade(1), {
      type: 'block',
      symbol: 'BTC-FUT',
      price: 100,
      quantity: 50,
      timestamp: '2026-01-02T03:04:05.000Z',
      ack_id: 2,
    });
    expect(state.trades.map((t) => t.type)).toEqual(['block', 'trade']);
  });

  it('ignores stream errors (not shown, §8)', () => {
    const before = run(book());
    expect(marketReducer(before, { type: 'error', message: 'bad' })).toBe(before);
  });

  it('released channels drop their stale data', () => {
    const state = run(book('A'), trade(1, 'A'), trade(2, 'B'));
    const noBook = marketReducer(state, { type: 'released', symbol: 'A', channel: 'book' });
    expect(noBook.books.A).toBeUndefined();
    const noTrades = marketReducer(state, { type: 'released', symbol: 'A', channel: 'trades' });
    expect(noTrades.trades.map((t) => t.symbol)).toEqual(['B']);
  });
});
