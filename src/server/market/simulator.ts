import {
  MARKET_PRODUCTS,
  type BlockMessage,
  type BookMessage,
  type BookSide,
  type LevelMessage,
  type MarketProduct,
  type MarketStatus,
  type PriceLevel,
  type StatusMessage,
  type TradeMessage,
} from '../../shared/api/market';
import { randomInt, seededRandom } from './random';

/** What the simulated market publishes; the stream route filters it per subscriber. */
export type MarketEvent = TradeMessage | BlockMessage | LevelMessage | StatusMessage | BookMessage;
export type MarketListener = (event: MarketEvent) => void;

export interface SimulatorOptions {
  products?: readonly MarketProduct[];
  /** Same seed, same sequence of events (tests). Default: from the clock. */
  seed?: number;
  /** Time between simulation steps. */
  tickMs?: number;
  /** Price levels kept on each side of a book. */
  depth?: number;
  now?: () => number;
}

/** Where each product's book starts, as a price. */
const START_PRICES: Record<string, number> = {
  'BTC-FUT': 97_250,
  'DBTC-FUT': 97_240,
  'BTCUSD-PERP': 97_255.5,
  'HASH-PH-FUT': 52.4,
};

const DEFAULT_TICK_MS = 400;
const DEFAULT_DEPTH = 8;
/** At most this many events per product per step, so the stream's rate stays bounded. */
const MAX_EVENTS_PER_STEP = 3;

interface ProductBook {
  product: MarketProduct;
  /** Prices in ticks (integers) to quantity. */
  bids: Map<number, number>;
  asks: Map<number, number>;
  status: MarketStatus;
  ackId: number;
  /** Where a reopened book restarts. */
  lastTicks: number;
}

/**
 * A simulated order book per product: a random walk driven by resting orders arriving near the
 * touch and takers lifting the best level. Runs a timer only while someone listens; `step()`
 * advances it by hand (tests).
 */
export class MarketSimulator {
  private readonly products: readonly MarketProduct[];
  private readonly now: () => number;
  private readonly listeners = new Set<MarketListener>();
  private readonly books = new Map<string, ProductBook>();
  private random: () => number;
  private tickMs: number;
  private depth: number;
  private timer: NodeJS.Timeout | undefined;

  constructor(options: SimulatorOptions = {}) {
    this.products = options.products ?? MARKET_PRODUCTS;
    this.now = options.now ?? Date.now;
    this.random = seededRandom(options.seed ?? Date.now());
    this.tickMs = options.tickMs ?? DEFAULT_TICK_MS;
    this.depth = options.depth ?? DEFAULT_DEPTH;
    this.reset();
  }

  /** Restarts the market with new options (tests: a seed and a fast tick). */
  configure(options: Pick<SimulatorOptions, 'seed' | 'tickMs' | 'depth'>): void {
    if (options.seed !== undefined) this.random = seededRandom(options.seed);
    if (options.tickMs !== undefined) this.tickMs = options.tickMs;
    if (options.depth !== undefined) this.depth = options.depth;
    this.reset();
    if (this.timer) {
      this.stopTimer();
      this.startTimer();
    }
  }

  get productCodes(): string[] {
    return this.products.map((product) => product.code);
  }

  get running(): boolean {
    return this.timer !== undefined;
  }

  /** Listens to every event; the first listener starts the market, the last one stops it. */
  subscribe(listener: MarketListener): () => void {
    this.listeners.add(listener);
    if (!this.timer) this.startTimer();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.stopTimer();
    };
  }

  /** The current book, or undefined while the product is closed or unknown. */
  snapshot(symbol: string): BookMessage | undefined {
    const book = this.books.get(symbol);
    if (!book || book.status === 'Close') return undefined;
    return this.bookMessage(book);
  }

  status(symbol: string): StatusMessage | undefined {
    const book = this.books.get(symbol);
    return book && { type: 'status', symbol, status: book.status };
  }

  /** Opens or closes a product. Reopening starts a fresh book and publishes its snapshot. */
  setStatus(symbol: string, status: MarketStatus): void {
    const book = this.books.get(symbol);
    if (!book || book.status === status) return;
    book.status = status;
    this.emit({ type: 'status', symbol, status });
    if (status === 'Open') {
      this.seedBook(book, book.lastTicks);
      this.emit(this.bookMessage(book));
    }
  }

  /** Advances the market by one step. */
  step(): void {
    for (const book of this.books.values()) {
      if (book.status !== 'Open') continue;
      const events = randomInt(this.random, 1, MAX_EVENTS_PER_STEP);
      for (let i = 0; i < events; i++) this.stepBook(book);
    }
  }

  /** Stops the timer and drops every listener (app close). */
  stop(): void {
    this.listeners.clear();
    this.stopTimer();
  }

  private startTimer(): void {
    this.timer = setInterval(() => this.step(), this.tickMs);
    this.timer.unref();
  }

  private stopTimer(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private reset(): void {
    this.books.clear();
    for (const product of this.products) {
      const startTicks = Math.round((START_PRICES[product.code] ?? 100) / product.tickSize);
      const book: ProductBook = {
        product,
        bids: new Map(),
        asks: new Map(),
        status: 'Open',
        ackId: 0,
        lastTicks: startTicks,
      };
      this.seedBook(book, startTicks);
      this.books.set(product.code, book);
    }
  }

  private seedBook(book: ProductBook, midTicks: number): void {
    book.bids.clear();
    book.asks.clear();
    let bid = midTicks - randomInt(this.random, 1, 2);
    let ask = midTicks + randomInt(this.random, 1, 2);
    for (let i = 0; i < this.depth; i++) {
      book.bids.set(bid, this.restingQuantity());
      book.asks.set(ask, this.restingQuantity());
      bid -= randomInt(this.random, 1, 3);
      ask += randomInt(this.random, 1, 3);
    }
  }

  private stepBook(book: ProductBook): void {
    const roll = this.random();
    if (roll < 0.35) this.trade(book);
    else if (roll < 0.36) this.block(book);
    else this.restingOrder(book);
  }

  /** A taker hits the best level of the other side. */
  private trade(book: ProductBook): void {
    const takerSide: BookSide = this.random() < 0.5 ? 'Bid' : 'Ask';
    const levels = takerSide === 'Bid' ? book.asks : book.bids;
    const best = bestTicks(levels, takerSide === 'Bid' ? 'Ask' : 'Bid');
    if (best === undefined) return;
    const resting = levels.get(best) ?? 0;
    const quantity = Math.min(resting, randomInt(this.random, 1, 8));
    const timestamp = this.timestamp();
    book.lastTicks = best;
    this.emit({
      type: 'trade',
      symbol: book.product.code,
      price: this.price(book, best),
      quantity,
      taker_side: takerSide,
      timestamp,
      ack_id: ++book.ackId,
    });
    this.setLevel(book, takerSide === 'Bid' ? 'Ask' : 'Bid', best, resting - quantity);
  }

  /** A negotiated trade reported off the book, near the last price; rare. */
  private block(book: ProductBook): void {
    this.emit({
      type: 'block',
      symbol: book.product.code,
      price: this.price(book, book.lastTicks + randomInt(this.random, -2, 2)),
      quantity: randomInt(this.random, 25, 100),
      timestamp: this.timestamp(),
      ack_id: ++book.ackId,
    });
  }

  /** An order rests near the touch, or one is changed; the book walks with these. */
  private restingOrder(book: ProductBook): void {
    const side: BookSide = this.random() < 0.5 ? 'Bid' : 'Ask';
    const bestBid = bestTicks(book.bids, 'Bid') ?? book.lastTicks - 1;
    const bestAsk = bestTicks(book.asks, 'Ask') ?? book.lastTicks + 1;
    // Never cross the other side: a bid rests below the best ask, an ask above the best bid.
    const distance = randomInt(this.random, 1, this.depth);
    const ticks = side === 'Bid' ? bestAsk - distance : bestBid + distance;
    if (ticks <= 0) return;
    const levels = side === 'Bid' ? book.bids : book.asks;
    const quantity = levels.has(ticks) && this.random() < 0.3 ? 0 : this.restingQuantity();
    this.setLevel(book, side, ticks, quantity);
    this.trimDepth(book, side);
  }

  /** Keeps each side to `depth` levels, dropping the worst prices. */
  private trimDepth(book: ProductBook, side: BookSide): void {
    const levels = side === 'Bid' ? book.bids : book.asks;
    while (levels.size > this.depth) {
      const worst = bestTicks(levels, side === 'Bid' ? 'Ask' : 'Bid');
      if (worst === undefined) return;
      this.setLevel(book, side, worst, 0);
    }
    // A side emptied by takers gets a fresh level, so the book never goes one-sided for long.
    if (levels.size === 0) {
      const other = bestTicks(
        side === 'Bid' ? book.asks : book.bids,
        side === 'Bid' ? 'Ask' : 'Bid',
      );
      const anchor = other ?? book.lastTicks;
      this.setLevel(book, side, side === 'Bid' ? anchor - 1 : anchor + 1, this.restingQuantity());
    }
  }

  private setLevel(book: ProductBook, side: BookSide, ticks: number, quantity: number): void {
    const levels = side === 'Bid' ? book.bids : book.asks;
    if (quantity > 0) levels.set(ticks, quantity);
    else if (!levels.delete(ticks)) return;
    this.emit({
      type: 'level',
      symbol: book.product.code,
      side,
      price: this.price(book, ticks),
      quantity: Math.max(quantity, 0),
      ack_id: ++book.ackId,
      timestamp: this.timestamp(),
    });
    if (quantity <= 0 && levels.size === 0) this.trimDepth(book, side);
  }

  private bookMessage(book: ProductBook): BookMessage {
    const toLevels = (levels: Map<number, number>, side: BookSide): PriceLevel[] =>
      [...levels]
        .sort(([a], [b]) => (side === 'Bid' ? b - a : a - b))
        .map(([ticks, quantity]) => [this.price(book, ticks), quantity]);
    return {
      type: 'book',
      symbol: book.product.code,
      asks: toLevels(book.asks, 'Ask'),
      bids: toLevels(book.bids, 'Bid'),
    };
  }

  private price(book: ProductBook, ticks: number): number {
    const { tickSize, priceDecimals } = book.product;
    return Number((ticks * tickSize).toFixed(priceDecimals));
  }

  private restingQuantity(): number {
    return randomInt(this.random, 1, 40);
  }

  private timestamp(): string {
    return new Date(this.now()).toISOString();
  }

  private emit(event: MarketEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}

/** The best price of a side: highest bid, lowest ask. */
function bestTicks(levels: Map<number, number>, side: BookSide): number | undefined {
  let best: number | undefined;
  for (const ticks of levels.keys()) {
    if (best === undefined || (side === 'Bid' ? ticks > best : ticks < best)) best = ticks;
  }
  return best;
}
