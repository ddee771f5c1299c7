import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../../src/shared/api/http';
import {
  MARKET_PRODUCTS,
  MARKET_STREAM_PATH,
  type BookMessage,
  type MarketServerMessage,
} from '../../src/shared/api/market';
import { signedIn } from './authHelpers';
import { createTestApp, type TestApp } from './testApp';

/** The bits of the `ws` client used here (the project has no @types/ws). */
interface WsClient {
  readyState: number;
  send(data: string | Buffer): void;
  close(): void;
  terminate(): void;
  on(event: 'open', listener: () => void): void;
  on(event: 'message', listener: (data: Buffer) => void): void;
  on(event: 'close', listener: (code: number) => void): void;
  on(event: 'error', listener: (error: Error) => void): void;
  on(
    event: 'unexpected-response',
    listener: (req: unknown, res: { statusCode: number }) => void,
  ): void;
}
type WsConstructor = new (url: string, options?: { headers?: Record<string, string> }) => WsClient;
const WebSocket = createRequire(import.meta.url)('ws') as WsConstructor;

let t: TestApp;
let base: string;
let cookie: string;

beforeAll(async () => {
  t = await createTestApp();
  t.app.market.configure({ seed: 42, tickMs: 10 });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const user = await signedIn(t);
  cookie = `${SESSION_COOKIE}=${user.client.cookies.get(SESSION_COOKIE)}`;
});

afterAll(async () => {
  await t.close();
});

/** A connected client that queues every message it receives. */
class StreamClient {
  readonly messages: MarketServerMessage[] = [];
  private waiters: Array<() => void> = [];
  closedWith: number | undefined;

  private constructor(readonly socket: WsClient) {
    socket.on('message', (data) => {
      this.messages.push(JSON.parse(data.toString()) as MarketServerMessage);
      for (const wake of this.waiters.splice(0)) wake();
    });
    socket.on('close', (code) => {
      this.closedWith = code;
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  static open(headers: Record<string, string> = { cookie }): Promise<StreamClient> {
    const socket = new WebSocket(base + MARKET_STREAM_PATH, { headers });
    return new Promise((resolve, reject) => {
      socket.on('open', () => resolve(new StreamClient(socket)));
      socket.on('unexpected-response', (_req, res) =>
        reject(new Error(`refused with ${res.statusCode}`)),
      );
      socket.on('error', reject);
    });
  }

  send(message: unknown) {
    this.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** Waits until a received message matches, and returns it. */
  async next<T extends MarketServerMessage>(
    match: (message: MarketServerMessage) => boolean,
    timeoutMs = 5000,
  ): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const index = this.messages.findIndex(match);
      if (index >= 0) return this.messages.splice(index, 1)[0] as T;
      if (this.closedWith !== undefined) throw new Error(`closed with ${this.closedWith}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('timed out waiting for a message');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /**
   * Subscribes to `symbol`'s book and waits for its snapshot: every message the server sent
   * before it has arrived, and every message this client sent before it has been handled.
   */
  async roundTrip(symbol: string): Promise<void> {
    this.send({ type: 'subscribe', product_codes: [symbol], channels: ['book'] });
    await this.next((m) => m.type === 'book' && m.symbol === symbol);
  }

  close() {
    this.socket.close();
  }
}

/** Waits (up to 5 s, checking every few ms) until `condition` holds; never a fixed sleep. */
async function until(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not reached');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('live market stream', () => {
  it('sends a sorted book snapshot on subscribe, then trades and levels of that product', async () => {
    const client = await StreamClient.open();
    client.send({ type: 'subscribe', product_codes: ['BTC-FUT'], channels: ['trades', 'book'] });

    const first = await client.next(() => true);
    expect(first.type).toBe('book');
    const book = first as BookMessage;
    expect(book.symbol).toBe('BTC-FUT');
    expect(book.bids.length).toBeGreaterThan(0);
    expect(book.asks.length).toBeGreaterThan(0);
    const bidPrices = book.bids.map(([price]) => price);
    const askPrices = book.asks.map(([price]) => price);
    expect(bidPrices).toEqual([...bidPrices].sort((a, b) => b - a));
    expect(askPrices).toEqual([...askPrices].sort((a, b) => a - b));
    expect(bidPrices[0]!).toBeLessThan(askPrices[0]!);

    const trade = await client.next((m) => m.type === 'trade');
    expect(trade).toMatchObject({
      symbol: 'BTC-FUT',
      taker_side: expect.stringMatching(/^(Bid|Ask)$/),
    });
    expect(trade).toEqual(
      expect.objectContaining({
        price: expect.any(Number),
        quantity: expect.any(Number),
        timestamp: expect.any(String),
        ack_id: expect.any(Number),
      }),
    );
    const level = await client.next((m) => m.type === 'level');
    expect(level).toMatchObject({ symbol: 'BTC-FUT', side: expect.stringMatching(/^(Bid|Ask)$/) });
    // Only the subscribed product arrives.
    expect(client.messages.every((m) => !('symbol' in m) || m.symbol === 'BTC-FUT')).toBe(true);
    client.close();
  });

  it('sends status, removes books on Close and sends a fresh snapshot on reopening', async () => {
    const client = await StreamClient.open();
    client.send({
      type: 'subscribe',
      product_codes: ['HASH-PH-FUT'],
      channels: ['status', 'book'],
    });
    await client.next((m) => m.type === 'book');
    expect(await client.next((m) => m.type === 'status')).toEqual({
      type: 'status',
      symbol: 'HASH-PH-FUT',
      status: 'Open',
    });
    t.app.market.setStatus('HASH-PH-FUT', 'Close');
    expect(await client.next((m) => m.type === 'status')).toMatchObject({ status: 'Close' });
    t.app.market.setStatus('HASH-PH-FUT', 'Open');
    expect(await client.next((m) => m.type === 'status')).toMatchObject({ status: 'Open' });
    expect(await client.next((m) => m.type === 'book')).toMatchObject({ symbol: 'HASH-PH-FUT' });
    client.close();
  });

  it('stops sending after unsubscribe', async () => {
    const client = await StreamClient.open();
    client.send({ type: 'subscribe', product_codes: ['DBTC-FUT'], channels: ['trades'] });
    await client.next((m) => m.type === 'trade');
    client.send({ type: 'unsubscribe', product_codes: ['DBTC-FUT'], channels: ['trades'] });
    // The server handles a client's messages in order: once the snapshot asked for after the
    // unsubscribe arrives, the unsubscribe has taken effect.
    await client.roundTrip('BTC-FUT');
    client.messages.length = 0;
    // Still listening (to BTC-FUT's book): the market's events reach this connection, DBTC's too.
    for (let i = 0; i < 50; i++) t.app.market.simulator.step();
    await client.roundTrip('BTCUSD-PERP');
    expect(client.messages.some((m) => 'symbol' in m && m.symbol === 'BTC-FUT')).toBe(true);
    expect(client.messages.filter((m) => 'symbol' in m && m.symbol === 'DBTC-FUT')).toEqual([]);
    client.close();
  });

  it('answers a malformed message with an error and stays usable', async () => {
    const client = await StreamClient.open();
    client.send('not json {');
    expect(await client.next((m) => m.type === 'error')).toEqual({
      type: 'error',
      message: 'Messages must be JSON.',
    });
    client.send({ type: 'subscribe', product_codes: ['NOPE'], channels: ['book'] });
    expect(await client.next((m) => m.type === 'error')).toMatchObject({
      message: expect.stringContaining('Unknown product code'),
    });
    client.send({ type: 'subscribe', product_codes: ['BTC-FUT'], channels: ['gossip'] });
    await client.next((m) => m.type === 'error');
    client.send({
      type: 'subscribe',
      product_codes: [MARKET_PRODUCTS[2]!.code],
      channels: ['book'],
    });
    expect(await client.next((m) => m.type === 'book')).toMatchObject({ symbol: 'BTCUSD-PERP' });
    client.close();
  });

  it('closes a connection that sends an oversized message, and the server carries on', async () => {
    const client = await StreamClient.open();
    client.send('x'.repeat(10_000));
    await expect(client.next(() => false)).rejects.toThrow('closed with 1009');
    const again = await StreamClient.open();
    again.send({ type: 'subscribe', product_codes: ['BTC-FUT'], channels: ['book'] });
    await again.next((m) => m.type === 'book');
    again.close();
  });

  it('refuses a cross-site Origin', async () => {
    await expect(StreamClient.open({ cookie, origin: 'https://evil.example' })).rejects.toThrow(
      'refused with 403',
    );
    await expect(StreamClient.open({ cookie, origin: 'null' })).rejects.toThrow('refused with 403');
  });

  it('accepts its own Origin', async () => {
    const client = await StreamClient.open({ cookie, origin: base.replace('ws:', 'http:') });
    client.close();
  });

  it('refuses a signed-out client', async () => {
    await expect(StreamClient.open({})).rejects.toThrow('refused with 401');
    await expect(StreamClient.open({ cookie: `${SESSION_COOKIE}=forged` })).rejects.toThrow(
      'refused with 401',
    );
  });

  it('runs the simulator only while someone is subscribed', async () => {
    // The earlier tests' connections close asynchronously on the server: wait for the last one.
    await until(() => !t.app.market.running);
    const client = await StreamClient.open();
    client.send({ type: 'subscribe', product_codes: ['BTC-FUT'], channels: ['trades'] });
    await client.next((m) => m.type === 'trade');
    expect(t.app.market.running).toBe(true);
    client.close();
    await until(() => !t.app.market.running);
    expect(t.app.market.running).toBe(false);
  });

  it('tells subscribers it is shutting down when the app closes', async () => {
    const own = await createTestApp();
    await own.app.listen({ port: 0, host: '127.0.0.1' });
    const user = await signedIn(own);
    const url = `ws://127.0.0.1:${(own.app.server.address() as AddressInfo).port}${MARKET_STREAM_PATH}`;
    const socket = new WebSocket(url, {
      headers: { cookie: `${SESSION_COOKIE}=${user.client.cookies.get(SESSION_COOKIE)}` },
    });
    const received: MarketServerMessage[] = [];
    socket.on('message', (data) =>
      received.push(JSON.parse(data.toString()) as MarketServerMessage),
    );
    await new Promise<void>((resolve) => socket.on('open', resolve));
    const closed = new Promise<number>((resolve) => socket.on('close', resolve));
    await own.close();
    expect(await closed).toBe(1001);
    expect(received).toContainEqual({
      type: 'disconnect',
      reason: 'server_shutdown',
      reconnect: true,
    });
    expect(own.app.market.running).toBe(false);
  });
});
