/**
 * The live market stream (specification §3.9, §7.5; docs/decisions.md, Paths: WebSocket at
 * `/exchange/api/web/stream`, ws:// on localhost, wss:// elsewhere). Shared by the simulator on
 * the server and the stream store in the browser.
 */
import type { FromSchema } from 'json-schema-to-ts';

export const MARKET_STREAM_PATH = '/exchange/api/web/stream';

/** Channels a client can subscribe to. `book` carries the snapshot and then level updates. */
export const MARKET_CHANNELS = ['trades', 'book', 'status'] as const;
export type MarketChannel = (typeof MARKET_CHANNELS)[number];

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

const bookSide = { type: 'string', enum: ['Bid', 'Ask'] } as const;
const symbol = { type: 'string', description: 'The contract symbol (the product code).' } as const;
const ackId = {
  type: 'integer',
  description:
    'Sequence number, increasing by one per event of the symbol (trades, blocks and levels).',
} as const;
const timestamp = { type: 'string', description: 'ISO 8601, UTC.' } as const;

/** A price level: [price, quantity]. */
const priceLevelSchema = {
  type: 'array',
  items: [
    { type: 'number', description: 'price' },
    { type: 'number', description: 'quantity' },
  ],
  minItems: 2,
  additionalItems: false,
} as const;

/** A trade on the order book. `taker_side` is the side of the aggressing order. */
const tradeMessageSchema = {
  type: 'object',
  properties: {
    type: { const: 'trade' },
    symbol,
    price: { type: 'number' },
    quantity: { type: 'number' },
    taker_side: bookSide,
    timestamp,
    ack_id: ackId,
  },
  required: ['type', 'symbol', 'price', 'quantity', 'taker_side', 'timestamp', 'ack_id'],
  additionalProperties: false,
} as const;

/** The whole book of a symbol: bids best (highest) first, asks best (lowest) first. */
const bookMessageSchema = {
  type: 'object',
  properties: {
    type: { const: 'book' },
    symbol,
    asks: { type: 'array', items: priceLevelSchema },
    bids: { type: 'array', items: priceLevelSchema },
  },
  required: ['type', 'symbol', 'asks', 'bids'],
  additionalProperties: false,
} as const;

/** One price level changed; quantity 0 removes the level. */
const levelMessageSchema = {
  type: 'object',
  properties: {
    type: { const: 'level' },
    symbol,
    side: bookSide,
    price: { type: 'number' },
    quantity: { type: 'number' },
    ack_id: ackId,
    timestamp,
  },
  required: ['type', 'symbol', 'side', 'price', 'quantity', 'ack_id', 'timestamp'],
  additionalProperties: false,
} as const;

const statusMessageSchema = {
  type: 'object',
  properties: {
    type: { const: 'status' },
    symbol,
    status: { type: 'string', enum: ['Open', 'Close'] },
  },
  required: ['type', 'symbol', 'status'],
  additionalProperties: false,
} as const;

/**
 * A block trade: negotiated off the book and reported to the exchange (payload not in the
 * specification; this is our decision). Sent on the `trades` channel.
 */
const blockMessageSchema = {
  type: 'object',
  properties: {
    type: { const: 'block' },
    symbol,
    price: { type: 'number' },
    quantity: { type: 'number' },
    timestamp,
    ack_id: ackId,
  },
  required: ['type', 'symbol', 'price', 'quantity', 'timestamp', 'ack_id'],
  additionalProperties: false,
} as const;

/**
 * The server is about to close the connection (payload not in the specification; our decision).
 * `reconnect` says whether reconnecting can succeed (false once the session has ended).
 */
const disconnectMessageSchema = {
  type: 'object',
  properties: {
    type: { const: 'disconnect' },
    reason: { type: 'string', enum: ['server_shutdown', 'session_ended', 'slow_consumer'] },
    reconnect: { type: 'boolean' },
  },
  required: ['type', 'reason', 'reconnect'],
  additionalProperties: false,
} as const;

/** A client message was refused; the connection stays usable. */
const streamErrorMessageSchema = {
  type: 'object',
  properties: { type: { const: 'error' }, message: { type: 'string' } },
  required: ['type', 'message'],
  additionalProperties: false,
} as const;

/** Every message the server sends on the stream (the OpenAPI document's MarketServerMessage). */
export const marketServerMessageSchema = {
  oneOf: [
    tradeMessageSchema,
    bookMessageSchema,
    levelMessageSchema,
    statusMessageSchema,
    blockMessageSchema,
    disconnectMessageSchema,
    streamErrorMessageSchema,
  ],
} as const;

/** What a client sends: subscribe to (or leave) channels of products. */
export const marketClientMessageSchema = {
  type: 'object',
  properties: {
    type: { type: 'string', enum: ['subscribe', 'unsubscribe'] },
    product_codes: { type: 'array', items: { type: 'string' } },
    channels: { type: 'array', items: { type: 'string', enum: MARKET_CHANNELS } },
  },
  required: ['type', 'product_codes', 'channels'],
  additionalProperties: false,
} as const;

export type PriceLevel = FromSchema<typeof priceLevelSchema>;
export type TradeMessage = FromSchema<typeof tradeMessageSchema>;
export type BookMessage = FromSchema<typeof bookMessageSchema>;
export type LevelMessage = FromSchema<typeof levelMessageSchema>;
export type StatusMessage = FromSchema<typeof statusMessageSchema>;
export type BlockMessage = FromSchema<typeof blockMessageSchema>;
export type DisconnectMessage = FromSchema<typeof disconnectMessageSchema>;
export type MarketServerMessage = FromSchema<typeof marketServerMessageSchema>;
export type SubscribeRequest = FromSchema<typeof marketClientMessageSchema>;
export type MarketClientMessage = SubscribeRequest;

/** Largest client message the server reads, in bytes; larger ones close the connection. */
export const MAX_CLIENT_MESSAGE_BYTES = 4096;

export type BookSide = TradeMessage['taker_side'];
export type MarketStatus = StatusMessage['status'];
