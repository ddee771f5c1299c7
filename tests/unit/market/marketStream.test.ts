import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  MARKET_DRAW_EVERY_MS,
  marketStreamUrl,
  MarketStream,
  reconnectDelay,
  SUBSCRIPTION_KEEP_MS,
  type StreamSocket,
} from '../../../src/web/market/marketStream';
import type { MarketClientMessage, MarketServerMessage } from '../../../src/shared/api/market';

/** A socket the test drives: open it, feed it messages, drop it. */
class FakeSocket implements StreamSocket {
  readyState = 0;
  readonly sent: MarketClientMessage[] = [];
  closedByClient = false;
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: unknown) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;

  constructor(readonly url: string) {}

  send(data: string) {
    this.sent.push(JSON.parse(data) as MarketClientMessage);
  }
  close() {
    this.closedByClient = true;
    this.readyState = 3;
  }
  open() {
    this.readyState = 1;
    this.onopen?.({});
  }
  receive(message: MarketServerMessage | string) {
    this.onmessage?.({ data: typeof message === 'string' ? message : JSON.stringify(message) });
  }
  drop() {
    this.readyState = 3;
    this.onerror?.({});
    this.onclose?.({});
  }
}

let sockets: FakeSocket[];
let stream: MarketStream;
const last = () => sockets[sockets.length - 1]!;

beforeEach(() => {
  vi.useFakeTimers();
  sockets = [];
  stream = new MarketStream({
    url: () => 'ws://localhost/exchange/api/web/stream',
    createSocket: (url) => {
      const socket = new FakeSocket(url);
      sockets.push(socket);
      return socket;
    },
    random: () => 1, // no jitter: exact delays
  });
});

afterEach(() => {
  stream.close();
  vi.useRealTimers();
});

const subscribe = (codes: string[], channel: string) => ({
  type: 'subscribe',
  product_codes: codes,
  channels: [channel],
});
const unsubscribe = (codes: string[], channel: string) => ({
  type: 'unsubscribe',
  product_codes: codes,
  channels: [channel],
});

describe('stream URL', () => {
  it('uses ws:// on localhost and 127.0.0.1, wss:// elsewhere', () => {
    expect(marketStreamUrl({ hostname: 'localhost', host: 'localhost:8080' })).toBe(
      'ws://localhost:8080/exchange/api/web/stream',
    );
    expect(marketStreamUrl({ hostname: '127.0.0.1', host: '127.0.0.1:5173' })).toBe(
      'ws://127.0.0.1:5173/exchange/api/web/stream',
    );
    expect(marketStreamUrl({ hostname: 'portal.example.com', host: 'portal.example.com' })).toBe(
      'wss://portal.example.com/exchange/api/web/stream',
    );
    expect(marketStreamUrl({ hostname: 'localhost.evil.com', host: 'localhost.evil.com' })).toBe(
      'wss://localhost.evil.com/exchange/api/web/stream',
    );
  });
});

describe('subscriptions', () => {
  it('connects on first use and subscribes once open, one message per channel', () => {
    stream.acquire(['BTC-FUT', 'HASH-PH-FUT'], ['book', 'trades']);
    expect(sockets).toHaveLength(1);
    expect(stream.getState().connection).toBe('connecting');
    expect(last().sent).toEqual([]);
    last().open();
    expect(stream.getState().connection).toBe('open');
    expect(last().sent).toEqual([
      subscribe(['BTC-FUT', 'HASH-PH-FUT'], 'book'),
      subscribe(['BTC-FUT', 'HASH-PH-FUT'], 'trades'),
    ]);
  });

  it('sends new subscriptions on the open socket, and nothing for ones already held', () => {
    stream.acquire(['BTC-FUT'], ['book']);
    last().open();
    stream.acquire(['BTC-FUT'], ['book']);
    stream.acquire(['DBTC-FUT'], ['book']);
    expect(sockets).toHaveLength(1);
    expect(last().sent).toEqual([subscribe(['BTC-FUT'], 'book'), subscribe(['DBTC-FUT'], 'book')]);
  });

  it('keeps a subscription 10 s after its last user releases it', () => {
    const release = stream.acquire(['BTC-FUT'], ['book']);
    last().open();
    last().receive({ type: 'book', symbol: 'BTC-FUT', bids: [[1, 1]], asks: [[2, 1]] });
    release();
    vi.advanceTimersByTime(9_900);
    expect(last().sent).not.toContainEqual(unsubscribe(['BTC-FUT'], 'book'));
    expect(stream.getState().books['BTC-FUT']).toBeDefined();
    vi.advanceTimersByTime(100);
    expect(last().sent).toContainEqual(unsubscribe(['BTC-FUT'], 'book'));
    expect(stream.getState().books['BTC-FUT']).toBeUndefined();
  });

  it('counts users: unsubscribes 10 s after the last of several releases', () => {
    const first = stream.acquire(['BTC-FUT'], ['trades']);
    const second = stream.acquire(['BTC-FUT'], ['trades']);
    last().open();
    first();
    first(); // releasing twice counts once
    vi.advanceTimersByTime(20_000);
    expect(last().sent).not.toContainEqual(unsubscribe(['BTC-FUT'], 'trades'));
    second();
    vi.advanceTimersByTime(9_999);
    expect(last().sent).not.toContainEqual(unsubscribe(['BTC-FUT'], 'trades'));
    vi.advanceTimersByTime(1);
    expect(last().sent).toContainEqual(unsubscribe(['BTC-FUT'], 'trades'));
  });

  it('subscribing again within 10 s cancels the unsubscribe and sends nothing', () => {
    const release = stream.acquire(['BTC-FUT'], ['book']);
    last().open();
    release();
    vi.advanceTimersByTime(9_000);
    stream.acquire(['BTC-FUT'], ['book']);
    vi.advanceTimersByTime(60_000);
    expect(last().sent).toEqual([subscribe(['BTC-FUT'], 'book')]);
    expect(last().closedByClient).toBe(false);
  });

  it('closes the socket once the last subscription has expired', () => {
    const release = stream.acquire(['BTC-FUT'], ['book']);
    last().open();
    release();
    vi.advanceTimersByTime(SUBSCRIPTION_KEEP_MS);
    expect(last().closedByClient).toBe(true);
    expect(stream.getState().connection).toBe('idle');
    stream.acquire(['BTC-FUT'], ['book']);
    expect(sockets).toHaveLength(2);
  });

  it('feeds server messages to the store and ignores garbage', () => {
    stream.acquire(['BTC-FUT'], ['book']);
    last().open();
    const listener = vi.fn();
    stream.subscribeState(listener);
    last().receive('not json');
    last().receive('"a string"');
    expect(listener).not.toHaveBeenCalled();
    last().receive({ type: 'book', symbol: 'BTC-FUT', bids: [[1, 1]], asks: [] });
    expect(listener).toHaveBeenCalledTimes(1);
    expect(stream.getState().books['BTC-FUT']?.bids).toEqual([[1, 1]]);
  });

  it('draws a burst of market data once at once and once more with the newest, not per message', () => {
    stream.acquire(['BTC-FUT'], ['book']);
    last().open();
    const listener = vi.fn();
    stream.subscribeState(listener);
    const book = (price: number): MarketServerMessage => ({
      type: 'book',
      symbol: 'BTC-FUT',
      bids: [[price, 1]],
      asks: [],
    });
    last().receive(book(1));
    expect(listener).toHaveBeenCalledTimes(1);
    for (let price = 2; price <= 10; price++) last().receive(book(price));
    // The store is current; components are told with the next draw.
    expect(stream.getState().books['BTC-FUT']?.bids).toEqual([[10, 1]]);
    expect(listener).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(MARKET_DRAW_EVERY_MS - 1);
    expect(listener).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    expect(listener).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(10 * MARKET_DRAW_EVERY_MS);
    expect(listener).toHaveBeenCalledTimes(2);
    // After a quiet while the next message is drawn at once again.
    last().receive(book(11));
    expect(listener).toHaveBeenCalledTimes(3);
  });

  it('draws a lost connection at once, with the data held back', () => {
    stream.acquire(['BTC-FUT'], ['book']);
    last().open();
    const listener = vi.fn();
    stream.subscribeState(listener);
    last().receive({ type: 'book', symbol: 'BTC-FUT', bids: [[1, 1]], asks: [] });
    last().receive({ type: 'book', symbol: 'BTC-FUT', bids: [[2, 1]], asks: [] });
    listener.mockClear();
    last().drop();
    expect(listener).toHaveBeenCalled();
    expect(stream.getState().connection).toBe('reconnecting');
    expect(stream.getState().books).toEqual({});
    const calls = listener.mock.calls.length;
    vi.advanceTimersByTime(MARKET_DRAW_EVERY_MS);
    expect(listener).toHaveBeenCalledTimes(calls); // nothing left to draw
  });
});

describe('reconnecting', () => {
  it('doubles the delay from 1 s up to a 30 s cap', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 10].map((n) => reconnectDelay(n, () => 1))).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000,
    ]);
    // Jitter keeps at least half the delay.
    expect(reconnectDelay(2, () => 0)).toBe(2_000);
  });

  it('clears books and trades when the connection drops, then reconnects with backoff', () => {
    stream.acquire(['BTC-FUT'], ['book', 'trades']);
    last().open();
    last().receive({ type: 'book', symbol: 'BTC-FUT', bids: [[1, 1]], asks: [] });
    last().receive({
      type: 'trade',
      symbol: 'BTC-FUT',
      price: 1,
      quantity: 1,
      taker_side: 'Ask',
      timestamp: '2026-01-01T00:00:00.000Z',
      ack_id: 1,
    });
    last().drop();
    expect(stream.getState().books).toEqual({});
    expect(stream.getState().trades).toEqual([]);
    expect(stream.getState().connection).toBe('reconnecting');

    // Failed attempts: 1 s, 2 s, 4 s…
    for (const delay of [1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000]) {
      const count = sockets.length;
      vi.advanceTimersByTime(delay - 1);
      expect(sockets).toHaveLength(count);
      vi.advanceTimersByTime(1);
      expect(sockets).toHaveLength(count + 1);
      last().drop();
    }

    // A success resubscribes everything and resets the backoff.
    vi.advanceTimersByTime(30_000);
    last().open();
    expect(last().sent).toEqual([subscribe(['BTC-FUT'], 'book'), subscribe(['BTC-FUT'], 'trades')]);
    last().drop();
    const count = sockets.length;
    vi.advanceTimersByTime(1_000);
    expect(sockets).toHaveLength(count + 1);
  });

  it('a disconnect message clears the store; no reconnect when the server says it cannot work', () => {
    stream.acquire(['BTC-FUT'], ['book']);
    last().open();
    last().receive({ type: 'book', symbol: 'BTC-FUT', bids: [[1, 1]], asks: [] });
    last().receive({ type: 'disconnect', reason: 'session_ended', reconnect: false });
    expect(stream.getState().books).toEqual({});
    last().drop();
    vi.advanceTimersByTime(120_000);
    expect(sockets).toHaveLength(1);
    expect(stream.getState().connection).toBe('idle');
    // A new subscription (e.g. after signing in again) connects again.
    stream.acquire(['DBTC-FUT'], ['book']);
    expect(sockets).toHaveLength(2);
  });

  it('does not reconnect when nothing is subscribed any more', () => {
    const release = stream.acquire(['BTC-FUT'], ['book']);
    last().open();
    last().drop();
    release();
    vi.advanceTimersByTime(1_000);
    expect(sockets).toHaveLength(2); // the pending reconnect still runs while the 10 s keep lasts
    vi.advanceTimersByTime(SUBSCRIPTION_KEEP_MS);
    last().drop();
    vi.advanceTimersByTime(120_000);
    expect(sockets).toHaveLength(2);
  });
});

describe('back/forward cache (issue 19 §9)', () => {
  it('closes the socket while the page is hidden and resubscribes when it is shown again', () => {
    stream.acquire(['BTC-PERP'], ['book']);
    last().open();
    const first = last();
    stream.suspend();
    expect(first.closedByClient).toBe(true);
    // No reconnect attempt while hidden, however long.
    vi.advanceTimersByTime(120_000);
    expect(sockets).toHaveLength(1);
    stream.resume();
    expect(sockets).toHaveLength(2);
    last().open();
    expect(last().sent).toEqual([subscribe(['BTC-PERP'], 'book')]);
  });

  it('stays closed on resume when nothing is subscribed', () => {
    stream.suspend();
    stream.resume();
    expect(sockets).toHaveLength(0);
  });
});
