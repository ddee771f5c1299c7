/**
 * The live market stream (specification §3.9, §7.5; DECISIONS: WebSocket at
 * `/exchange/api/web/stream`, ws:// on localhost, wss:// elsewhere). Shared by the simulator on
 * the server and the stream store in the browser.
 */

export const MARKET_STREAM_PATH = '/exchange/api/web/stream';

/** Channels a client can subscribe to. `book` carries the snapshot and then level updates. */
export const MARKET_CHANNELS = ['trades', 'book', 'status'] as const;
export type MarketChannel = (typeof MARKET_CHANNELS)[number];

export type BookSide = 'Bid' | 'Ask';
export type MarketStatus = 'Open' | 'Close';

/** A listed product. Each product lists one contract whose symbol is the product code. */
export interface MarketProduct {
  code: string;
  name: string;
  /** What one contract is for, as shown to the user. */
  contractSize: string;
  tickSize: number;
  priceDecimals: number;
}

/**
 * The products of specification §1. Bitcoin options are 'coming soon', so none are listed.
 */
export const MARKET_PRODUCTS: readonly MarketProduct[] = [
  {
    code: 'BTC-FUT',
    name: 'Bitcoin Futures',
    contractSize: '1 BTC',
    tickSize: 5,
    priceDecimals: 0,
  },
  {
    code: 'DBTC-FUT',
    name: 'Deci Bitcoin Futures',
    contractSize: '0.1 BTC',
    tickSize: 1,
    priceDecimals: 0,
  },
  {
    code: 'BTCUSD-PERP',
    name: 'Perpetual Bitcoin Centi Futures',
    contractSize: '0.01 BTC',
    tickSize: 0.5,
    priceDecimals: 1,
  },
  {
    code: 'HASH-PH-FUT',
    name: 'Hashrate Petahash Futures',
    contractSize: '1 PH/s per day',
    tickSize: 0.01,
    priceDecimals: 2,
  },
];

/** A price level: [price, quantity]. */
export type PriceLevel = [price: number, quantity: number];

/** A trade on the order book. `taker_side` is the side of the aggressing order. */
export interface TradeMessage {
  type: 'trade';
  symbol: string;
  price: number;
  quantity: number;
  taker_side: BookSide;
  /** ISO 8601, UTC. */
  timestamp: string;
  /** Sequence number, increasing by one per event of the symbol (trades, blocks and levels). */
  ack_id: number;
}

/** The whole book of a symbol: bids best (highest) first, asks best (lowest) first. */
export interface BookMessage {
  type: 'book';
  symbol: string;
  asks: PriceLevel[];
  bids: PriceLevel[];
}

/** One price level changed; quantity 0 removes the level. */
export interface LevelMessage {
  type: 'level';
  symbol: string;
  side: BookSide;
  price: number;
  quantity: number;
  ack_id: number;
  timestamp: string;
}

export interface StatusMessage {
  type: 'status';
  symbol: string;
  status: MarketStatus;
}

/**
 * A block trade: negotiated off the book and reported to the exchange (payload not in the
 * specification; this is our decision). Sent on the `trades` channel.
 */
export interface BlockMessage {
  type: 'block';
  symbol: string;
  price: number;
  quantity: number;
  timestamp: string;
  ack_id: number;
}

export type DisconnectReason = 'server_shutdown' | 'session_ended' | 'slow_consumer';

/**
 * The server is about to close the connection (payload not in the specification; our decision).
 * `reconnect` says whether reconnecting can succeed (false once the session has ended).
 */
export interface DisconnectMessage {
  type: 'disconnect';
  reason: DisconnectReason;
  reconnect: boolean;
}

/** A client message was refused; the connection stays usable. */
export interface StreamErrorMessage {
  type: 'error';
  message: string;
}

export type MarketServerMessage =
  | TradeMessage
  | BookMessage
  | LevelMessage
  | StatusMessage
  | BlockMessage
  | DisconnectMessage
  | StreamErrorMessage;

export interface SubscribeRequest {
  type: 'subscribe' | 'unsubscribe';
  product_codes: string[];
  channels: MarketChannel[];
}

export type MarketClientMessage = SubscribeRequest;

/** Largest client message the server reads, in bytes; larger ones close the connection. */
export const MAX_CLIENT_MESSAGE_BYTES = 4096;
