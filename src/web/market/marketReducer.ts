import type {
  BlockMessage,
  BookSide,
  MarketChannel,
  MarketServerMessage,
  MarketStatus,
  PriceLevel,
  TradeMessage,
} from '../../shared/api/market';

/** Only the most recent trades are kept (specification §4, §9). */
export const MAX_TRADES = 100;

/** One symbol's book: bids best (highest) first, asks best (lowest) first. */
export interface OrderBook {
  symbol: string;
  bids: readonly PriceLevel[];
  asks: readonly PriceLevel[];
}

export type ConnectionState = 'idle' | 'connecting' | 'open' | 'reconnecting';

export interface MarketState {
  books: Readonly<Record<string, OrderBook>>;
  /** Trades and block trades, newest first, at most MAX_TRADES. */
  trades: readonly (TradeMessage | BlockMessage)[];
  statuses: Readonly<Record<string, MarketStatus>>;
  connection: ConnectionState;
}

/** Server messages, plus what the stream client itself reports. */
export type MarketAction =
  | MarketServerMessage
  | { type: 'connection'; state: ConnectionState }
  /** A channel of a symbol was unsubscribed: its data would go stale, so it goes. */
  | { type: 'released'; symbol: string; channel: MarketChannel };

export const initialMarketState: MarketState = {
  books: {},
  trades: [],
  statuses: {},
  connection: 'idle',
};

/**
 * The live stream rules of specification §4, as a pure function: a book snapshot adds a book; a
 * level with quantity 0 removes that price, otherwise adds or replaces it, both sides kept sorted;
 * status Close removes the book; disconnect clears all books and trades; the latest 100 trades.
 * Returns the same state object when nothing changed, so subscribers do not re-render.
 */
export function marketReducer(state: MarketState, action: MarketAction): MarketState {
  switch (action.type) {
    case 'book':
      return {
        ...state,
        books: {
          ...state.books,
          [action.symbol]: {
            symbol: action.symbol,
            bids: sortSide(action.bids, 'Bid'),
            asks: sortSide(action.asks, 'Ask'),
          },
        },
      };
    case 'level': {
      const book = state.books[action.symbol];
      // A level without its snapshot cannot be placed; the next snapshot brings it.
      if (!book) return state;
      const key = action.side === 'Bid' ? 'bids' : 'asks';
      const levels = applyLevel(book[key], action.side, action.price, action.quantity);
      if (levels === book[key]) return state;
      return { ...state, books: { ...state.books, [action.symbol]: { ...book, [key]: levels } } };
    }
    case 'status': {
      const statuses = { ...state.statuses, [action.symbol]: action.status };
      if (action.status !== 'Close') return { ...state, statuses };
      return { ...state, statuses, books: without(state.books, action.symbol) };
    }
    case 'disconnect':
      return { ...state, books: {}, trades: [] };
    case 'trade':
    case 'block':
      return { ...state, trades: [action, ...state.trades.slice(0, MAX_TRADES - 1)] };
    case 'connection':
      return action.state === state.connection ? state : { ...state, connection: action.state };
    case 'released':
      if (action.channel === 'book') {
        return action.symbol in state.books
          ? { ...state, books: without(state.books, action.symbol) }
          : state;
      }
      if (action.channel === 'trades') {
        return { ...state, trades: state.trades.filter((t) => t.symbol !== action.symbol) };
      }
      return state;
    case 'error':
      // Stream errors are not shown (specification §8).
      return state;
  }
}

/** True when `a` is a better price than `b` on this side. */
function better(side: BookSide, a: number, b: number): boolean {
  return side === 'Bid' ? a > b : a < b;
}

function sortSide(levels: readonly PriceLevel[], side: BookSide): PriceLevel[] {
  return levels
    .filter(([, quantity]) => quantity > 0)
    .sort(([a], [b]) => (side === 'Bid' ? b - a : a - b));
}

/**
 * Removes (quantity 0), replaces or inserts one price in a sorted side. Binary search keeps it
 * cheap; the input is never mutated.
 */
export function applyLevel(
  levels: readonly PriceLevel[],
  side: BookSide,
  price: number,
  quantity: number,
): readonly PriceLevel[] {
  let low = 0;
  let high = levels.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (better(side, levels[middle]![0], price)) low = middle + 1;
    else high = middle;
  }
  const found = levels[low]?.[0] === price;
  if (quantity <= 0) {
    return found ? [...levels.slice(0, low), ...levels.slice(low + 1)] : levels;
  }
  const next = [...levels];
  next.splice(low, found ? 1 : 0, [price, quantity]);
  return next;
}

function without<T>(record: Readonly<Record<string, T>>, key: string): Record<string, T> {
  const { [key]: _removed, ...rest } = record;
  return rest;
}

/** The best bid and ask of a book, if any. */
export function bestBid(book: OrderBook | undefined): PriceLevel | undefined {
  return book?.bids[0];
}

export function bestAsk(book: OrderBook | undefined): PriceLevel | undefined {
  return book?.asks[0];
}
