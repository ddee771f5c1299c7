import {
  type DisconnectMessage,
  type MarketChannel,
  type MarketServerMessage,
  type SubscribeRequest,
} from '../../shared/api/market';
import { parseClientMessage } from './clientMessages';
import type { MarketSource } from './marketFeed';
import type { MarketEvent } from './simulator';

/** The part of a `ws` socket we use (the project has no @types/ws). */
export interface StreamSocket {
  readonly readyState: number;
  readonly bufferedAmount: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  on(event: 'message', listener: (data: unknown, isBinary: boolean) => void): void;
  on(event: 'close', listener: () => void): void;
}

const OPEN = 1;
/** A client that has not read this much is too slow; it is dropped rather than buffered for. */
const MAX_BUFFERED_BYTES = 1024 * 1024;
/** Client messages allowed per window; more get an error reply and are ignored. */
const MESSAGE_BUDGET = 30;
const MESSAGE_WINDOW_MS = 10_000;

/** Which channel carries each market event. Status also reaches book subscribers: Close ends a book. */
function channelsOf(event: MarketEvent): MarketChannel[] {
  switch (event.type) {
    case 'trade':
    case 'block':
      return ['trades'];
    case 'level':
    case 'book':
      return ['book'];
    case 'status':
      return ['status', 'book'];
  }
}

/**
 * One client's subscriptions on one socket. Listens to the market only while subscribed to
 * something, so the simulator runs only while someone is watching.
 */
export class StreamConnection {
  private readonly subscriptions = new Map<string, Set<MarketChannel>>();
  private stopListening: (() => void) | undefined;
  private windowStart = 0;
  private messagesInWindow = 0;
  private closed = false;

  constructor(
    private readonly socket: StreamSocket,
    private readonly market: MarketSource,
    private readonly now: () => number = Date.now,
  ) {
    socket.on('message', (data, isBinary) => this.onMessage(data, isBinary));
    socket.on('close', () => this.dispose());
  }

  /** Tells the client why it is being dropped, then closes. */
  disconnect(message: Omit<DisconnectMessage, 'type'>, code: number): void {
    if (this.closed) return;
    this.send({ type: 'disconnect', ...message });
    this.dispose();
    this.socket.close(code, message.reason);
  }

  private onMessage(data: unknown, isBinary: boolean): void {
    if (this.closed) return;
    if (!this.withinBudget()) {
      this.send({ type: 'error', message: 'Too many messages; slow down.' });
      return;
    }
    if (isBinary) {
      this.send({ type: 'error', message: 'Messages must be JSON text.' });
      return;
    }
    const text = Buffer.isBuffer(data) ? data.toString('utf8') : String(data);
    const result = parseClientMessage(text, this.market.productCodes);
    if (!result.ok) {
      this.send({ type: 'error', message: result.message });
      return;
    }
    if (result.request.type === 'subscribe') this.subscribe(result.request);
    else this.unsubscribe(result.request);
  }

  private withinBudget(): boolean {
    const now = this.now();
    if (now - this.windowStart >= MESSAGE_WINDOW_MS) {
      this.windowStart = now;
      this.messagesInWindow = 0;
    }
    this.messagesInWindow += 1;
    return this.messagesInWindow <= MESSAGE_BUDGET;
  }

  private subscribe(request: SubscribeRequest): void {
    for (const symbol of request.product_codes) {
      const channels = this.subscriptions.get(symbol) ?? new Set<MarketChannel>();
      this.subscriptions.set(symbol, channels);
      for (const channel of request.channels) {
        if (channels.has(channel)) continue;
        channels.add(channel);
        // A new book subscriber starts from the snapshot; a new status subscriber from the status.
        if (channel === 'book') {
          const snapshot = this.market.snapshot(symbol);
          if (snapshot) this.send(snapshot);
        }
        if (channel === 'status') {
          const status = this.market.status(symbol);
          if (status) this.send(status);
        }
      }
    }
    if (!this.stopListening && this.subscriptions.size > 0) {
      this.stopListening = this.market.subscribe((event) => this.onEvent(event));
    }
  }

  private unsubscribe(request: SubscribeRequest): void {
    for (const symbol of request.product_codes) {
      const channels = this.subscriptions.get(symbol);
      if (!channels) continue;
      for (const channel of request.channels) channels.delete(channel);
      if (channels.size === 0) this.subscriptions.delete(symbol);
    }
    if (this.subscriptions.size === 0) this.stopMarket();
  }

  private onEvent(event: MarketEvent): void {
    const channels = this.subscriptions.get(event.symbol);
    if (!channels || !channelsOf(event).some((channel) => channels.has(channel))) return;
    this.send(event);
  }

  private send(message: MarketServerMessage): void {
    if (this.closed || this.socket.readyState !== OPEN) return;
    if (this.socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      // Sending more would only grow the buffer; the disconnect message cannot get through either.
      this.dispose();
      this.socket.close(1013, 'slow_consumer');
      return;
    }
    this.socket.send(JSON.stringify(message));
  }

  private stopMarket(): void {
    this.stopListening?.();
    this.stopListening = undefined;
  }

  private dispose(): void {
    this.closed = true;
    this.subscriptions.clear();
    this.stopMarket();
  }
}
